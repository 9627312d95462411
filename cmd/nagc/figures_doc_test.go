package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// latexBlock matches the ```latex block of a documentation page.
var latexBlock = regexp.MustCompile("(?s)```latex\n(.*?)```")

// TestFiguresDocLaTeX compiles the two-column LaTeX document of docs/figures.md with the
// figure and the table its commands make, as a reader would: the page's ```sh commands
// run in a temporary folder, the ```latex block is saved there as paper.tex, and pdflatex
// (Debian's texlive-latex-recommended) compiles it twice. It fails on a LaTeX error or on
// anything overflowing its column (an overfull \hbox), and is skipped, saying so, where
// pdflatex is not installed.
func TestFiguresDocLaTeX(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a LaTeX document (-short)")
	}
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex is not installed (Debian: apt-get install texlive-latex-recommended): the two-column document of docs/figures.md is not compiled")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the page's commands with")
	}
	const page = "../../docs/figures.md"
	cmds, err := docCommands(page)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	m := latexBlock.FindSubmatch(raw)
	if m == nil {
		t.Fatal("docs/figures.md has no ```latex block")
	}
	dir := t.TempDir()
	bin := filepath.Dir(buildNagc(t))
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+dir)
	run := func(name string, args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Env = dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v; its output:\n%s", name, strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}
	for _, c := range cmds {
		run(bash, "-e", "-o", "pipefail", "-c", c.text)
	}
	if err := os.WriteFile(filepath.Join(dir, "paper.tex"), m[1], 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second run resolves the references
		run(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "paper.tex")
	}
	log, err := os.ReadFile(filepath.Join(dir, "paper.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Overfull \\hbox", "LaTeX Warning: Reference", "LaTeX Warning: File"} {
		if i := bytes.Index(log, []byte(bad)); i >= 0 {
			t.Errorf("paper.log: %s", log[i:min(len(log), i+200)])
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "paper.pdf")); err != nil || st.Size() == 0 {
		t.Fatalf("no paper.pdf: %v", err)
	}
}
