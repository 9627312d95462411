package reporttest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mdLink matches a Markdown link or image, [text](target) or ![text](target), capturing
// the target.
var mdLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// CheckLinks checks the Markdown files of a report folder dir, starting from index: every
// relative link and image resolves to a file of files (what the report says it wrote)
// that exists in dir, and every file of files is reached from index through links
// between its Markdown pages. It returns the text of every Markdown page reached, by
// name.
func CheckLinks(t *testing.T, dir, index string, files []string) map[string]string {
	t.Helper()
	pages := map[string]string{}
	reached := map[string]bool{index: true}
	queue := []string{index}
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		text := ReadText(t, filepath.Join(dir, page))
		pages[page] = text
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if !slices.Contains(files, target) {
				t.Errorf("%s links %s, which the report did not write", page, target)
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, target)); err != nil {
				t.Errorf("%s links %s: %v", page, target, err)
				continue
			}
			if !reached[target] {
				reached[target] = true
				if strings.HasSuffix(target, ".md") && !strings.Contains(target, "/") && isPage(dir, target) {
					queue = append(queue, target)
				}
			}
		}
	}
	for _, f := range files {
		if !reached[f] {
			t.Errorf("%s is reached by no link from %s", f, index)
		}
	}
	return pages
}

// isPage reports whether a Markdown file of the report is a page with links (REPORT.md,
// a dataset's page, figures.md) rather than a table file: a page starts with "# ".
func isPage(dir, name string) bool {
	b, err := os.ReadFile(filepath.Join(dir, name))
	return err == nil && strings.HasPrefix(string(b), "# ")
}
