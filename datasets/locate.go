package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// PaperNames returns the names of the four datasets of the NAGC paper, in the order of
// its tables: webkb, citeseer, cora, polblog.
func PaperNames() []string {
	return []string{"webkb", "citeseer", "cora", "polblog"}
}

// DataRoot returns the folder that holds the datasets: $NAGC_DATA if it is set and not
// empty, else ../shared/datasets relative to the module root, the nearest directory at or
// above the working directory that contains go.mod (relative to the working directory if
// there is none). The folder need not exist. Cost: one stat per parent directory.
func DataRoot() string {
	if d := os.Getenv("NAGC_DATA"); d != "" {
		return d
	}
	cwd, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "datasets")
	}
	base := cwd
	for d := cwd; ; {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !fi.IsDir() {
			base = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return filepath.Join(base, "..", "shared", "datasets")
}

// Locate returns the folder of the dataset called name. A bare name (no path separator)
// is looked up as DataRoot()/name first; failing that, or for a name with a separator,
// name itself is used if it is an existing directory. Otherwise Locate returns an error
// listing the known names and the places it looked.
func Locate(name string) (dir string, err error) {
	if name == "" {
		return "", fmt.Errorf("datasets: empty dataset name (known: %s)", knownNames())
	}
	var tried []string
	if !filepath.IsAbs(name) && !strings.ContainsAny(name, `/\`) {
		d := filepath.Join(DataRoot(), name)
		if isDir(d) {
			return d, nil
		}
		tried = append(tried, d)
	}
	if isDir(name) {
		return name, nil
	}
	tried = append(tried, name)
	return "", fmt.Errorf("datasets: no dataset %q: looked in %s (known names: %s; set NAGC_DATA to the folder holding them)",
		name, strings.Join(tried, ", "), knownNames())
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Load returns the dataset called name: "synthetic" gives Synthetic(DefaultSynthetic()),
// anything else is found by Locate and read by LoadLINQS.
func Load(name string) (*Graph, error) {
	if name == "synthetic" {
		return Synthetic(DefaultSynthetic())
	}
	dir, err := Locate(name)
	if err != nil {
		return nil, err
	}
	return LoadLINQS(dir)
}
