package render

import (
	"bytes"
	"fmt"
	"strings"

	recorded "github.com/nagc-harness/nagc/results"
)

// writePrograms writes, for each row whose runs started a program of the user's
// (algorithm: command), its argv and the SHA-256 of the files it named, once per
// version with the number of runs it made, so that the report says which version of a
// script its numbers come from. Rows without programs write nothing.
func writePrograms(b *bytes.Buffer, recs []recorded.Record) {
	type version struct {
		files string
		runs  int
	}
	type program struct {
		row, argv string
		versions  []version
	}
	var progs []*program
	find := func(row, argv string) *program {
		for _, p := range progs {
			if p.row == row && p.argv == argv {
				return p
			}
		}
		p := &program{row: row, argv: argv}
		progs = append(progs, p)
		return p
	}
	for _, rec := range recs {
		if len(rec.Command) == 0 {
			continue
		}
		row := rec.Algorithm
		if len(rec.Methods) > 0 {
			row = rec.Methods[0]
		}
		var files []string
		for _, f := range rec.CommandFiles {
			files = append(files, fmt.Sprintf("`%s` sha256 `%s`", f.Path, f.SHA256))
		}
		p := find(row, strings.Join(rec.Command, " "))
		key := strings.Join(files, ", ")
		i := 0
		for i < len(p.versions) && p.versions[i].files != key {
			i++
		}
		if i == len(p.versions) {
			p.versions = append(p.versions, version{files: key})
		}
		p.versions[i].runs++
	}
	if len(progs) == 0 {
		return
	}
	b.WriteString("- programs (rows with `algorithm: command`; the files each run's command named, by SHA-256 when its sweep started):\n")
	for _, p := range progs {
		fmt.Fprintf(b, "  - %s: `%s`", p.row, p.argv)
		if len(p.versions) > 1 {
			fmt.Fprintf(b, " — %d versions, the runs differ in which made them", len(p.versions))
		}
		b.WriteString("\n")
		for _, v := range p.versions {
			files := v.files
			if files == "" {
				files = "no file found"
			}
			fmt.Fprintf(b, "    - %d runs: %s\n", v.runs, files)
		}
	}
}
