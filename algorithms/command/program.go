package command

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Program is a user's program as a config row declares it.
type Program struct {
	// Argv is the program and its arguments, as given: no shell reads them.
	Argv []string
	// Dir is the folder the program runs in, from which relative paths in Argv are read:
	// the folder of the config that names it.
	Dir string
	// Timeout, when positive, is how long a fit may run before its process group is
	// killed and the fit fails; 0: no limit.
	Timeout time.Duration
	// ReadsLabels gives the program the ground-truth labels in the graph file (labels):
	// its results are then never called label-free.
	ReadsLabels bool
}

// Path returns the file Argv[0] names: a path with a separator is taken from Dir, a bare
// name is looked up on PATH. An error says the program is not found.
func (p Program) Path() (string, error) {
	if len(p.Argv) == 0 || p.Argv[0] == "" {
		return "", errors.New("no program: command must be a non-empty list such as [python3, mymethod.py]")
	}
	name := p.Argv[0]
	if strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(p.Dir, name)
		}
		st, err := os.Stat(name)
		if err != nil {
			return "", fmt.Errorf("program %s not found", name)
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return "", fmt.Errorf("program %s is not an executable file (chmod +x it, or name its interpreter first: [python3, %s])", name, p.Argv[0])
		}
		return filepath.Abs(name)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("program %s not found on PATH", name)
	}
	return filepath.Abs(path)
}

// scriptExts are the endings of the scripts an interpreter is given as its first
// argument: [python3, mine.py], [Rscript, mine.R], [julia, mine.jl], [bash, mine.sh].
var scriptExts = []string{".py", ".R", ".r", ".jl", ".sh", ".pl", ".rb", ".js", ".m", ".lua"}

// CheckScript returns an error when p's first argument names a script (by its ending)
// that is not a file: with [python3, mine.py] and no mine.py in Dir, every run would
// fail the same way, so a sweep says it before any starts. Other arguments may name
// files yet to be made and are not checked.
func (p Program) CheckScript() error {
	if len(p.Argv) < 2 || p.Argv[1] == "" || strings.HasPrefix(p.Argv[1], "-") || !slices.Contains(scriptExts, filepath.Ext(p.Argv[1])) {
		return nil
	}
	path := p.Argv[1]
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.Dir, path)
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("script %s not found: %s is not a file (relative paths are read from the config's folder, %s)", p.Argv[1], path, p.Dir)
	}
	return nil
}

// File is a file a program's argv names, with the SHA-256 of its bytes.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Files returns the files p.Argv names, in argv order: the program (Path) and each
// argument that names an existing regular file from p.Dir, each with its SHA-256, so
// that a record says which version of a script ran. Cost: reading those files.
func (p Program) Files() ([]File, error) {
	prog, err := p.Path()
	if err != nil {
		return nil, err
	}
	paths := []string{prog}
	for _, a := range p.Argv[1:] {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		path := a
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.Dir, a)
		}
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			paths = append(paths, path)
		}
	}
	files := make([]File, 0, len(paths))
	for _, path := range paths {
		sum, err := fileSHA256(path)
		if err != nil {
			return nil, err
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		files = append(files, File{Path: path, SHA256: sum})
	}
	return files, nil
}

// fileSHA256 returns the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ParseTimeout reads a time-out as a config gives it: a number of seconds ("90", "1.5")
// or a duration ("90s", "2h", "1h30m"). It must be positive.
func ParseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if !(f > 0) || f > 1e9 {
			return 0, fmt.Errorf("want a positive number of seconds or a duration such as 90s or 2h, got %s", s)
		}
		d = time.Duration(f * float64(time.Second))
	} else {
		d, err = time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("%q is neither a number of seconds nor a duration such as 90s, 30m or 2h", s)
		}
	}
	if d <= 0 {
		return 0, fmt.Errorf("want a positive duration, got %s", s)
	}
	return d, nil
}
