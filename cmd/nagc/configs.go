package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/nagc-harness/nagc/configs"
)

// runConfigs implements `nagc configs list` and `nagc configs show NAME`.
func runConfigs(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "configs list | configs show NAME"
	fs := newFlagSet("configs", usageLine, stderr)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 1 && pos[0] == "list":
		for _, name := range configs.Names() {
			raw, _ := configs.Lookup(name)
			fmt.Fprintf(stdout, "%-10s %s\n", name, firstComment(raw))
		}
		fmt.Fprintln(stdout, "\nRun one with `nagc run NAME`; `nagc configs show NAME > my.yaml` copies it to edit, then `nagc run my.yaml`.")
		return nil
	case len(pos) == 2 && pos[0] == "show":
		raw, ok := configs.Lookup(pos[1])
		if !ok {
			return fmt.Errorf("no shipped config %q (shipped: %s)", pos[1], strings.Join(configs.Names(), ", "))
		}
		_, err := stdout.Write(raw)
		return err
	}
	fs.Usage()
	return errUsage
}

// firstComment returns the text of the leading comment block of a YAML file, joined into
// one line: the config's description.
func firstComment(raw []byte) string {
	var parts []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "#") {
			break
		}
		parts = append(parts, strings.TrimSpace(strings.TrimPrefix(line, "#")))
	}
	s := strings.Join(parts, " ")
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}
