package experiments

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/algorithms/command"
	"github.com/nagc-harness/nagc/results"
)

// graphsDir is the folder of a results folder that holds the graph files given to the
// programs of command rows (command.GraphFile).
const graphsDir = "graphs"

// paramReadsLabels is the parameter a row with reads_labels: true records in every run's
// parameters, so that its runs are marked as reading the labels wherever they are read
// (algorithms.ReadsLabels). It is not passed to the program.
const paramReadsLabels = "reads_labels"

// RowProgram is the program a config row with algorithm: command starts.
type RowProgram struct {
	command.Program
	// Row is the row's display name and Line its line in the config.
	Row  string
	Line int

	once  sync.Once
	files []command.File
	err   error
}

// hashed returns the files the program's argv names with their SHA-256 (see
// command.Program.Files), read once.
func (p *RowProgram) hashed() ([]command.File, error) {
	p.once.Do(func() { p.files, p.err = p.Files() })
	return p.files, p.err
}

// Programs returns the programs the config's command rows start, in row order.
func (c *Config) Programs() []*RowProgram {
	var out []*RowProgram
	for _, m := range c.Methods {
		if m.program != nil {
			out = append(out, m.program)
		}
	}
	return out
}

// WritePrograms writes to w the programs cfg starts, each with the files its argv names
// and their SHA-256, under a heading saying they run as the user: what a user reads
// before a config that names programs runs. It writes nothing for a config without
// command rows, and returns the error of a file it cannot read.
func WritePrograms(w io.Writer, cfg *Config) error {
	progs := cfg.Programs()
	if len(progs) == 0 {
		return nil
	}
	fmt.Fprintf(w, "%s starts %d program(s), with your rights, no shell:\n", cfg.File, len(progs))
	for _, p := range progs {
		files, err := p.hashed()
		if err != nil {
			return fmt.Errorf("%s:%d: command: %w", cfg.File, p.Line, err)
		}
		fmt.Fprintf(w, "  %s: %s\n", p.Row, strings.Join(quoteArgs(p.Argv), " "))
		for _, f := range files {
			fmt.Fprintf(w, "    sha256 %s  %s\n", f.SHA256, f.Path)
		}
	}
	return nil
}

// quoteArgs quotes the arguments that hold spaces or quotes, for display only.
func quoteArgs(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\"'\\") {
			a = fmt.Sprintf("%q", a)
		}
		out[i] = a
	}
	return out
}

// configDir is the folder relative paths of the config are read from: the config file's,
// or the working folder for a shipped config.
func (c *Config) configDir() string {
	dir := "."
	if !strings.HasSuffix(c.File, builtInSuffix) && c.File != "" {
		dir = filepath.Dir(c.File)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return dir
}

// validateCommandRow checks the keys of a program row (command, timeout, reads_labels)
// and, for algorithm: command, its options and grid or space, which pass to the program
// as they are. It reports whether m is a command row.
func (c *Config) validateCommandRow(m MethodSpec) (bool, error) {
	if m.Algorithm.Value != command.Name {
		for _, k := range []struct {
			key string
			n   *yaml.Node
		}{{"command", &m.Command}, {"timeout", &m.Timeout}} {
			if k.n.Kind != 0 {
				return false, c.errf(k.n.Line, k.key, "only a row with algorithm: command (a program of yours) takes %s; %s is built in: remove %s, or make the row algorithm: command", k.key, m.Algorithm.Value, k.key)
			}
		}
		if m.ReadsLabels {
			return false, c.errf(m.Algorithm.Line, "reads_labels", "only a row with algorithm: command (a program of yours) takes reads_labels; %s is built in and says itself whether it reads the labels: remove reads_labels", m.Algorithm.Value)
		}
		return false, nil
	}
	if m.Name.Value == "" {
		return true, c.errf(m.Algorithm.Line, "name", "a method needs a display name")
	}
	if _, err := c.rowProgram(m); err != nil {
		return true, err
	}
	for _, d := range m.Datasets {
		if !c.hasDataset(d.Value) {
			return true, c.errf(d.Line, "datasets", "method %q names dataset %q, which the config does not list", m.Name.Value, d.Value)
		}
	}
	for _, key := range sortedKeys(m.Options) {
		n := m.Options[key]
		if key == paramReadsLabels {
			return true, c.errf(n.Line, key, "reads_labels is a key of the row, not an option")
		}
		if _, err := scalar(&n); err != nil {
			return true, c.errf(n.Line, key, "%v", err)
		}
	}
	for _, key := range sortedKeys(m.Grid) {
		n := m.Grid[key]
		if key == paramReadsLabels {
			return true, c.errf(n.Line, key, "reads_labels is a key of the row, not a grid")
		}
		if _, dup := m.Options[key]; dup {
			return true, c.errf(n.Line, key, "set both as a fixed option and in the grid")
		}
		if n.Kind != yaml.SequenceNode {
			return true, c.errf(n.Line, key, "a grid entry must be a list of values")
		}
		if len(n.Content) == 0 {
			return true, c.errf(n.Line, key, "empty grid")
		}
		for _, v := range n.Content {
			if _, err := scalar(v); err != nil {
				return true, c.errf(v.Line, key, "%v", err)
			}
		}
	}
	return true, c.validateSpace(m, nil, func(key string, v *yaml.Node) error {
		if key == paramReadsLabels {
			return c.errf(v.Line, key, "reads_labels is a key of the row, not a space")
		}
		return nil
	})
}

// rowProgram returns the program of command row m: its argv (a non-empty list of
// words), found where it will be started, and its time-out.
func (c *Config) rowProgram(m MethodSpec) (*RowProgram, error) {
	n := &m.Command
	line := n.Line
	if line == 0 {
		line = m.Algorithm.Line
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, c.errf(line, "command", "want the program and its arguments as a non-empty list, such as [python3, mymethod.py, --flag] (no shell reads it)")
	}
	p := &RowProgram{Row: m.Name.Value, Line: line}
	p.Dir, p.ReadsLabels = c.configDir(), m.ReadsLabels
	for _, a := range n.Content {
		if a.Kind != yaml.ScalarNode || a.Tag == "!!null" {
			return nil, c.errf(a.Line, "command", "each word of the command must be a single value, got %s", nodeWords(a))
		}
		p.Argv = append(p.Argv, a.Value)
	}
	if p.Argv[0] == "" {
		return nil, c.errf(line, "command", "the program's name is empty")
	}
	if _, err := p.Path(); err != nil {
		return nil, c.errf(line, "command", "%v", err)
	}
	if err := p.CheckScript(); err != nil {
		return nil, c.errf(line, "command", "%v", err)
	}
	if m.Timeout.Kind != 0 {
		if m.Timeout.Kind != yaml.ScalarNode {
			return nil, c.errf(m.Timeout.Line, "timeout", "want a number of seconds or a duration such as 90s or 2h")
		}
		d, err := command.ParseTimeout(m.Timeout.Value)
		if err != nil {
			return nil, c.errf(m.Timeout.Line, "timeout", "%v", err)
		}
		p.Timeout = d
	}
	return p, nil
}

// nodeWords says what kind of YAML value n is.
func nodeWords(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return "nothing"
}

// resolvePrograms sets the program of each command row (validateCommandRow has checked
// them).
func (c *Config) resolvePrograms() error {
	for i, m := range c.Methods {
		if m.Algorithm.Value != command.Name {
			continue
		}
		p, err := c.rowProgram(m)
		if err != nil {
			return err
		}
		c.Methods[i].program = p
	}
	return nil
}

// newMethod returns the method of job j: a registered method with j's options, or for
// a command row its program, writing the graph to the results folder's graphsDir and
// allowed its share of the cores among concurrent workers.
func newMethod(j job, concurrent int) (algorithms.Method, error) {
	if j.Program == nil {
		return algorithms.New(j.Algorithm, j.Params)
	}
	params := make(map[string]any, len(j.Params))
	for k, v := range j.Params {
		if k != paramReadsLabels {
			params[k] = v
		}
	}
	m := &command.Method{Program: j.Program.Program, Params: params, Dataset: j.Dataset,
		Threads: max(1, runtime.NumCPU()/max(concurrent, 1))}
	if j.resultsDir != "" {
		m.GraphDir = filepath.Join(j.resultsDir, graphsDir)
	}
	return m, nil
}

// stampProgram records in rec the argv and the files of the program of run r, if any.
func stampProgram(rec *results.Record, r Run) {
	if r.Program == nil {
		return
	}
	rec.Command = r.Program.Argv
	if files, err := r.Program.hashed(); err == nil {
		for _, f := range files {
			rec.CommandFiles = append(rec.CommandFiles, results.ProgramFile(f))
		}
	}
}
