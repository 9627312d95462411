package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/testenv"
)

// docCommand is one command of a ```sh block of a documentation page: its first line
// starts with "$ "; the lines after it up to the next such line or the block's end are
// its heredoc or continuation lines.
type docCommand struct {
	line int    // line of the "$ " in the file
	text string // the command, "$ " removed
}

// docCommands returns the commands of the ```sh blocks of the Markdown file path, in
// order. ```text and other blocks are not read.
func docCommands(path string) ([]docCommand, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cmds []docCommand
	inSh, inBlock := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") {
			if inBlock {
				inBlock, inSh = false, false
				continue
			}
			inBlock = true
			info := strings.Fields(strings.TrimPrefix(trim, "```"))
			inSh = len(info) > 0 && (info[0] == "sh" || info[0] == "shell" || info[0] == "bash" || info[0] == "console")
			continue
		}
		if !inSh {
			continue
		}
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			cmds = append(cmds, docCommand{line: n, text: cmd})
		} else if len(cmds) > 0 && cmds[len(cmds)-1].line < n {
			cmds[len(cmds)-1].text += "\n" + line
		}
	}
	return cmds, sc.Err()
}

// paperDataset matches a command line naming one of the paper's four graphs.
var paperDataset = regexp.MustCompile(`(^|[^\w./-])(webkb|citeseer|cora|polblog)([^\w./-]|$)`)

// paperDatasetInConfig matches a config line a page writes (in a heredoc) that lists
// one of the paper's four graphs: `datasets: [webkb]`, or a list entry `- cora` or
// `- {path: cora, …}` under it.
var paperDatasetInConfig = regexp.MustCompile(`(?m)^\s*(datasets:\s*\[[^\]]*|-\s*(\{\s*path:\s*)?)\b(webkb|citeseer|cora|polblog)\b`)

// pythonImport matches a Python import statement at the start of a line, after a ";" or
// after the quote that opens a python3 -c program: the names after import (group 1,
// "os, numpy as np") or the module after from (group 2, "scipy.sparse").
var pythonImport = regexp.MustCompile(`(?m)(?:^|[;"'])[ \t]*(?:import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)|from[ \t]+([\w.]+)[ \t]+import\b)`)

// pythonModules returns the top-level modules the Python in text imports, each once, in
// order: "import os, numpy as np" gives os and numpy, "from scipy.sparse import csr_matrix"
// scipy; relative imports (from . import x) give none.
func pythonModules(text string) []string {
	var mods []string
	add := func(name string) {
		top, _, _ := strings.Cut(strings.TrimSpace(name), ".")
		if top != "" && !slices.Contains(mods, top) {
			mods = append(mods, top)
		}
	}
	for _, m := range pythonImport.FindAllStringSubmatch(text, -1) {
		if m[2] != "" {
			add(m[2])
			continue
		}
		for _, item := range strings.Split(m[1], ",") {
			if f := strings.Fields(item); len(f) > 0 {
				add(f[0])
			}
		}
	}
	return mods
}

// docPython returns a python3 that imports every module of mods, or "" (and what is
// missing) when there is none: the python3 on PATH, else Debian's /usr/bin/python3.
func docPython(mods []string) (string, string) {
	var tried []string
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if len(mods) == 0 {
			return path, ""
		}
		if exec.Command(path, "-c", "import "+strings.Join(mods, ", ")).Run() == nil {
			return path, ""
		}
		var lacks []string
		for _, m := range mods {
			if exec.Command(path, "-c", "import "+m).Run() != nil {
				lacks = append(lacks, m)
			}
		}
		tried = append(tried, fmt.Sprintf("%s lacks %s", path, strings.Join(lacks, ", ")))
	}
	return "", fmt.Sprintf("no python3 imports all of %s (%s)", strings.Join(mods, ", "), strings.Join(tried, "; "))
}

// TestPythonModules checks that every module an import statement names is found, in each
// way the pages write one.
func TestPythonModules(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"import os, numpy as np, pandas as pd, networkx as nx\n", []string{"os", "numpy", "pandas", "networkx"}},
		{"from scipy.sparse import csr_matrix\nimport numpy\n", []string{"scipy", "numpy"}},
		{"def f():\n    import torch_geometric.datasets as D\n    from ogb.nodeproppred import NodePropPredDataset\n", []string{"torch_geometric", "ogb"}},
		{"python3 -c 'import numpy as np; import dgl; print(1)'\n", []string{"numpy", "dgl"}},
		{"python3 -c \"import sklearn.cluster\"\n", []string{"sklearn"}},
		{"from . import x\nimport numpy\nimport numpy as np\n", []string{"numpy"}},
		{"nagc cluster --data cora  # the important flags\n", nil},
	} {
		if got := pythonModules(c.text); !slices.Equal(got, c.want) {
			t.Errorf("pythonModules(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestPaperDatasetInConfig checks which lines of a config a page writes count as naming
// one of the paper's graphs (the page is then skipped without them).
func TestPaperDatasetInConfig(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"datasets: [webkb]", true},
		{"datasets: [synthetic, cora]", true},
		{"datasets:\n  - citeseer\n", true},
		{"datasets:\n  - {path: polblog, k1: 2}\n", true},
		{"datasets: [synthetic]", false},
		{"datasets: [mycora]", false},
		{"# the paper ran on cora", false},
		{"$ nagc run mine.yaml", false},
	} {
		if got := paperDatasetInConfig.MatchString(c.text); got != c.want {
			t.Errorf("paperDatasetInConfig(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestDocs executes every shell example of README.md and docs/*.md, as a user would type
// them: each page's ```sh commands (lines starting with "$ ") run in order, with bash, in
// a temporary folder of their own, with this nagc on PATH and NAGC_DATA set to the
// paper's datasets where they are found. A command that exits non-zero fails the test
// with its file, line and output. A page whose command lines, or the configs it writes,
// name one of the paper's graphs is skipped without them (failed under
// NAGC_REQUIRE_DATA=1); a page whose Python imports a module no python3 here has is
// skipped, saying which.
func TestDocs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the examples are POSIX shell")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the examples with")
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"../../README.md"}, pages...)
	type page struct {
		path string
		cmds []docCommand
	}
	var todo []page
	for _, p := range pages {
		cmds, err := docCommands(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) > 0 {
			todo = append(todo, page{p, cmds})
		}
	}
	if len(todo) == 0 {
		t.Fatal("no shell example found in README.md and docs/*.md")
	}
	bin := filepath.Dir(buildNagc(t))
	dataDir, haveData := "", true
	for _, name := range []string{"webkb", "citeseer", "cora", "polblog"} {
		dir, err := datasets.Locate(name)
		if err != nil {
			haveData = false
			break
		}
		dataDir = filepath.Dir(dir)
	}
	for _, pg := range todo {
		name, _ := filepath.Rel("../..", pg.path)
		t.Run(name, func(t *testing.T) {
			var all, typed strings.Builder
			for _, c := range pg.cmds {
				all.WriteString(c.text + "\n")
				first, _, _ := strings.Cut(c.text, "\n") // the line typed, not a heredoc's body
				typed.WriteString(first + "\n")
			}
			if (paperDataset.MatchString(typed.String()) || paperDatasetInConfig.MatchString(all.String())) && !haveData {
				testenv.Missing(t, "a folder holding the paper's four graphs", testenv.FetchHint)
			}
			path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
			mods := pythonModules(all.String())
			if strings.Contains(all.String(), "python3") {
				py, why := docPython(mods)
				if py == "" {
					t.Skipf("%s: %s", name, why)
				}
				// The page says python3; give it the one that has the modules.
				shim := t.TempDir()
				if err := os.Symlink(py, filepath.Join(shim, "python3")); err != nil {
					t.Fatal(err)
				}
				path = shim + string(os.PathListSeparator) + path
			}
			dir := t.TempDir()
			env := append(os.Environ(), "PATH="+path, "HOME="+dir, "NAGC_DATA="+dataDir)
			if !haveData {
				env = append(env, "NAGC_DATA=")
			}
			start := time.Now()
			for _, c := range pg.cmds {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				cmd := exec.CommandContext(ctx, bash, "-e", "-o", "pipefail", "-c", c.text)
				cmd.Dir, cmd.Env = dir, env
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err := cmd.Run()
				cancel()
				if err != nil && failedForGPMetis(out.String()) {
					testenv.Missing(t, "METIS's gpmetis", fmt.Sprintf("%s:%d runs METIS; %s", name, c.line, gpmetisHint))
				}
				if err != nil {
					t.Fatalf("%s:%d: $ %s\n%v; its output:\n%s", name, c.line, c.text, err, out.String())
				}
			}
			t.Logf("%s: %d commands in %v", name, len(pg.cmds), time.Since(start).Round(time.Millisecond))
		})
	}
}
