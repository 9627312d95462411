package texttable

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the table as a GitHub-flavoured Markdown table preceded by its
// caption in italics and followed by its cell notes (numbered) and notes, each line
// ending in two spaces (a Markdown line break). The title is not written.
func (t *Table) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	if t.Caption != "" {
		fmt.Fprintf(b, "*%s*\n\n", MarkdownEscape(t.Caption))
	}
	idx, notes := t.noteIndex()
	b.WriteString("|")
	for _, h := range t.headers() {
		b.WriteString(" " + MarkdownEscape(h) + " |")
	}
	b.WriteString("\n|")
	for _, c := range t.Columns {
		switch c.Align {
		case 'r':
			b.WriteString("---:|")
		case 'c':
			b.WriteString(":---:|")
		default:
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		if r.Section != "" {
			b.WriteString("| **" + MarkdownEscape(r.Section) + "** |" + strings.Repeat(" |", len(t.Columns)-1) + "\n")
			continue
		}
		b.WriteString("|")
		for i := range t.Columns {
			c := r.cell(i)
			s := MarkdownEscape(c.Text)
			if c.Bold && s != "" {
				s = "**" + s + "**"
			}
			if c.Note != "" {
				s += fmt.Sprintf(" [%d]", idx[c.Note])
			}
			b.WriteString(" " + s + " |")
		}
		b.WriteString("\n")
	}
	if len(notes)+len(t.Notes) > 0 {
		b.WriteString("\n")
	}
	for i, n := range notes {
		fmt.Fprintf(b, "[%d] %s  \n", i+1, MarkdownEscape(n))
	}
	for _, n := range t.Notes {
		fmt.Fprintf(b, "%s  \n", MarkdownEscape(n))
	}
	return b.Flush()
}

// Markdown returns the table as WriteMarkdown writes it.
func (t *Table) Markdown() string {
	var b strings.Builder
	t.WriteMarkdown(&b) // a strings.Builder never fails
	return b.String()
}

// MarkdownEscape escapes the characters Markdown would read as markup in a table cell,
// and puts s on one line.
func MarkdownEscape(s string) string {
	return mdReplacer.Replace(s)
}

var mdReplacer = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "\n", " ")
