package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// markdownLink matches the target of a Markdown link or image, [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks checks that every relative link of README.md and docs/*.md, outside code
// blocks, names a file or folder of the repository (the part before a '#'): a page the
// README's documentation map lists, or a report a page points to, is there.
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"../../README.md"}, pages...)
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inBlock := false
		for n, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inBlock = !inBlock
				continue
			}
			if inBlock {
				continue
			}
			for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				if _, err := os.Stat(filepath.Join(filepath.Dir(p), target)); err != nil {
					t.Errorf("%s:%d: link %s: no such file", strings.TrimPrefix(p, "../../"), n+1, m[1])
				}
			}
		}
	}
}
