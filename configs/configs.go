// Package configs embeds the shipped experiment configs and the paper's published numbers
// in the binary.
//
// The configs are the YAML files beside this one: an installed nagc runs them by name
// (`nagc run quick`) and prints them for a user to copy and edit (`nagc configs show
// quick`). The published numbers let the binary put them beside every reproduced number
// without the shared folder.
package configs

import (
	"embed"
	"io/fs"
	"slices"
	"strings"
)

// PublishedResults is published-results.yaml: every number the NAGC paper publishes, as
// data (a copy of shared/paper/published-results.yaml).
//
//go:embed published-results.yaml
var PublishedResults []byte

// PaperComparison is paper-comparison.yaml: how the report sets a sweep beside the NAGC
// paper (its rows and datasets, headings, stated facts and speed claims), as data.
//
//go:embed paper-comparison.yaml
var PaperComparison []byte

// OffPaper is offpaper.yaml: why the cells of the paper's comparison that are off the
// paper are off (a measured cause, or what was tried), as data.
//
//go:embed offpaper.yaml
var OffPaper []byte

//go:embed *.yaml
var files embed.FS

// notExperiments lists the embedded YAML files that are data, not experiment configs.
var notExperiments = []string{"published-results", "paper-comparison", "offpaper"}

// Names returns the names of the shipped experiment configs (file names without .yaml),
// sorted: baselines, filtered, paper, quick.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".yaml")
		if !slices.Contains(notExperiments, name) {
			names = append(names, name)
		}
	}
	return names
}

// Lookup returns the bytes of the shipped experiment config called name ("quick", or
// "quick.yaml"), and whether there is one.
func Lookup(name string) ([]byte, bool) {
	name = strings.TrimSuffix(name, ".yaml")
	if !slices.Contains(Names(), name) {
		return nil, false
	}
	b, err := files.ReadFile(name + ".yaml")
	return b, err == nil
}
