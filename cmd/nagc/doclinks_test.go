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

// TestLayoutListsEveryPackage checks that docs/layout.md names every package of the
// module (a folder holding a non-test .go file, outside testdata and nested modules) in
// backquotes, as `folder` or `folder/`.
func TestLayoutListsEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../../docs/layout.md")
	if err != nil {
		t.Fatal(err)
	}
	layout := string(b)
	root := "../.."
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
			return filepath.SkipDir // a module of its own
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				if !strings.Contains(layout, "`"+rel+"`") && !strings.Contains(layout, "`"+rel+"/`") {
					t.Errorf("docs/layout.md does not list the package %s", rel)
				}
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
