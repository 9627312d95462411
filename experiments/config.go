package experiments

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/suggest"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/results"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/configs"
)

// Config is an experiment as declared in a YAML file. See configs/paper.yaml for a
// complete example.
type Config struct {
	// Name labels the experiment in reports.
	Name string `yaml:"name"`
	// Seed is the base seed every run's seed is derived from.
	Seed uint64 `yaml:"seed"`
	// Restarts is the number of runs per grid point (default 1).
	Restarts int `yaml:"restarts"`
	// Iterations, when set, is passed as the "iterations" option to every method that has
	// one and does not set it itself.
	Iterations int `yaml:"iterations"`
	// Metrics lists the metrics to record (default: all of ari, nmi, acc, modularity,
	// entropy, attr_modularity, ari_connected).
	Metrics []string `yaml:"metrics"`
	// Holdout, when in (0, 1), makes every run also fit its method on the graph with that
	// fraction of its edges held out (datasets.HoldOutEdges, one split per dataset and
	// restart, drawn from the run's seed) and record the modularity of that clustering on
	// the held-out edges as the metric results.MetricHeldOut: edge cross-validation for the
	// label-free rule results.SelectHeldOut. 0 (the default) fits once.
	Holdout float64 `yaml:"holdout"`
	// Timing, when true, makes the config a timing run (the paper's runtime protocol,
	// configs/timing.yaml): its runs execute one at a time whatever Options.Workers and
	// Options.Batch say, each with an initialisation of its own (nothing shared with
	// another run through a cache, and timed apart from the iterations), and are recorded
	// with results.Record.TimedAlone. Their run ids differ from those of the same fits in a sweep
	// (they are timed again, never skipped as done by a sweep's record), and every
	// summary and report table leaves them out except the report's runtime table, which
	// reads them in place of the sweep's concurrent timings. It does not go with Holdout,
	// and `nagc run` and `nagc slurm` refuse to split such a config into shards.
	Timing bool `yaml:"timing"`
	// Datasets lists the datasets: names (webkb, citeseer, cora, polblog, synthetic, or a
	// folder or file found where datasets are looked up), paths (relative paths are taken
	// from the config file's folder), or mappings naming the path, format and labels of a
	// graph (see DatasetEntry).
	Datasets []DatasetEntry `yaml:"datasets"`
	// Methods lists the rows of the experiment.
	Methods []MethodSpec `yaml:"methods"`
	// Compare, when results.ComparePaper, asks the report for the NAGC paper's comparison: rows
	// named like the paper's rows ("Prop.", "JWNMF", …) are set beside its published
	// numbers, in its tables and figures. Empty (the default): a report of the sweep
	// alone. It is recorded in sweeps.jsonl (results.Provenance.Compare).
	Compare string `yaml:"compare"`
	// Figures says how the report draws this sweep's figures (see Figures); nil: as the
	// report's defaults and flags say.
	Figures *results.Figures `yaml:"figures"`
	// MaxMemory is the memory budget of the sweep's loads and fits ("12GB", "800MiB"; see
	// memory.ParseSize), applied by `nagc run` unless --max-memory is given: a fit whose
	// estimated peak, times the workers, exceeds it is recorded as failed before it
	// allocates. Empty: the machine's available memory.
	MaxMemory string `yaml:"max_memory"`
	// Search holds the settings of the searches of the rows with a space (SearchSpec).
	Search *SearchSpec `yaml:"search"`
	// Precision, when "fast", is passed as the option precision to every row whose method
	// has one and does not set it itself (SetPrecision); "default" or empty: float64.
	Precision string `yaml:"precision"`

	// File is the path the config was read from, and Hash the SHA-256 of its bytes.
	File string `yaml:"-"`
	Hash string `yaml:"-"`

	// keyLines holds the line of each top-level key, for errors about its value.
	keyLines map[string]int
	// precisionRows are the rows SetPrecision gave the option precision.
	precisionRows []int
}

// MethodSpec is one row of an experiment: a display name, the algorithm behind it, its
// fixed options and the grid of options searched.
type MethodSpec struct {
	// Name is the display name, such as "Prop." or "JWNMF*".
	Name posString `yaml:"name"`
	// Algorithm is a registered method name (see algorithms.Names).
	Algorithm posString `yaml:"algorithm"`
	// Options are fixed options of the algorithm.
	Options map[string]yaml.Node `yaml:"options"`
	// Grid maps an option to the list of values searched. The value "k1" stands for the
	// dataset's number of classes.
	Grid map[string]yaml.Node `yaml:"grid"`
	// Datasets, when set, restricts the row to these datasets (names as in Config).
	Datasets []posString `yaml:"datasets"`
	// Command, Timeout and ReadsLabels are the keys of a row with algorithm: command, a
	// program of the user's (see RowProgram and docs/your-method.md): its argv, the
	// time-out of each run (seconds or a duration; none when absent), and whether the
	// graph file it reads holds the labels.
	Command     yaml.Node `yaml:"command"`
	Timeout     yaml.Node `yaml:"timeout"`
	ReadsLabels bool      `yaml:"reads_labels"`

	program *RowProgram // the program of a command row, set when the config is validated

	// Space, instead of Grid, maps an option to the values a search draws from (see
	// search_config.go), and Search, when set, overrides the config's search settings.
	Space  map[string]yaml.Node `yaml:"space"`
	Search *SearchSpec          `yaml:"search"`
}

// posString is a YAML string that remembers its line.
type posString struct {
	Value string
	Line  int
}

// UnmarshalYAML records the node's line and decodes its string value.
func (p *posString) UnmarshalYAML(n *yaml.Node) error {
	p.Line = n.Line
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a string", n.Line)
	}
	return n.Decode(&p.Value)
}

// MarshalYAML writes the plain string.
func (p posString) MarshalYAML() (any, error) { return p.Value, nil }

// Bounds that keep a mistyped config from exhausting memory before anything runs: a
// config may declare at most MaxRuns runs, MaxRestarts restarts and MaxIterations
// iterations per run (the paper's whole protocol is about 10⁴ runs of 100 iterations).
const (
	MaxRuns       = 1_000_000
	MaxRestarts   = 10_000
	MaxIterations = 1_000_000
)

// ConfigError is a problem with a config file, located by line and key.
type ConfigError struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *ConfigError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// LoadConfig reads and validates the experiment config at path. Unknown keys, wrong
// types, unknown methods or options, empty grids, ρ outside [0, 1] and negative λ are
// errors naming the file, line and key; nothing runs on a bad config.
func LoadConfig(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseConfig(path, raw)
}

// builtInSuffix marks the File of a shipped config.
const builtInSuffix = " (built in)"

// ShortName names the config in folder and job names: its name, else its file's base
// name without the extension ("quick" for the shipped quick.yaml).
func (c *Config) ShortName() string {
	if c.Name != "" {
		return c.Name
	}
	base := filepath.Base(strings.TrimSuffix(c.File, builtInSuffix))
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// OpenConfig reads and validates the experiment config named by nameOrPath: the file at
// that path where one exists, else the shipped config of that name (package configs:
// "quick", "paper", …), whose File reads "NAME.yaml (built in)" and whose relative
// dataset paths are taken from the working folder. An error for a name that is neither
// lists the shipped names.
func OpenConfig(nameOrPath string) (*Config, error) {
	if _, err := os.Stat(nameOrPath); err == nil || strings.ContainsAny(nameOrPath, `/\`) {
		return LoadConfig(nameOrPath)
	}
	// A shipped config as a sweep records it ("quick.yaml (built in)").
	nameOrPath = strings.TrimSuffix(nameOrPath, builtInSuffix)
	raw, ok := configs.Lookup(nameOrPath)
	if !ok {
		return nil, fmt.Errorf("no config file %s, and no shipped config of that name (shipped: %s; `nagc configs show NAME` prints one to copy)",
			nameOrPath, strings.Join(configs.Names(), ", "))
	}
	return ParseConfig(strings.TrimSuffix(nameOrPath, ".yaml")+".yaml"+builtInSuffix, raw)
}

// ParseConfig parses and validates config bytes read from file (used in messages and to
// resolve relative dataset paths).
func ParseConfig(file string, raw []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, joinConfigErrors(append([]error{yamlConfigError(file, raw, err)}, fractionalCounts(file, raw)...)...)
	}
	// A second document would be silently ignored: refuse it.
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF && !emptyDocument(&extra, err) {
		line := extra.Line
		msg := "a second YAML document (after ---), which would be ignored"
		if err != nil {
			msg = "after the first document: " + strings.TrimPrefix(err.Error(), "yaml: ")
		}
		return nil, &ConfigError{File: file, Line: line, Msg: msg}
	}
	c.keyLines = topKeyLines(raw)
	sum := sha256.Sum256(raw)
	c.File, c.Hash = file, hex.EncodeToString(sum[:])
	if err := joinConfigErrors(append(fractionalCounts(file, raw), c.validate())...); err != nil {
		return nil, err
	}
	return &c, nil
}

// yamlConfigError turns an error of the YAML decoder into a ConfigError in the user's
// words: the first fault with its file, line and key, and every further fault on a line of
// its own, with no Go type names or YAML tags.
func yamlConfigError(file string, raw []byte, err error) error {
	if err.Error() == "EOF" {
		return &ConfigError{File: file, Msg: "empty config"}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	var first *ConfigError
	var more []string
	for _, part := range strings.Split(msg, "\n") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		line := 0
		if _, err := fmt.Sscanf(part, "line %d:", &line); err == nil {
			part = strings.TrimSpace(part[strings.Index(part, ":")+1:])
		}
		value := ""
		if m := yamlWrongKind.FindStringSubmatch(part); m != nil {
			value = m[2]
		}
		key, text := keyAtLine(raw, line, value), plainYAMLMessage(part)
		if key != "" && strings.Contains(text, "'"+key+"'") { // the message names its key already
			key = ""
		}
		ce := &ConfigError{File: file, Line: line, Key: key, Msg: text}
		if first == nil {
			first = ce
		} else {
			more = append(more, ce.Error())
		}
	}
	if first == nil {
		return &ConfigError{File: file, Msg: plainYAMLMessage(msg)}
	}
	if len(more) > 0 {
		first.Msg += "\n" + strings.Join(more, "\n")
	}
	return first
}

var (
	yamlUnknownField = regexp.MustCompile(`^field (\S+) not found in type (\S+)$`)
	yamlWrongKind    = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")
)

// configKeys lists the keys of each part of a config, for "did you mean" suggestions.
var configKeys = map[string][]string{
	"experiments.Config":     yamlFieldNames(reflect.TypeOf(Config{})),
	"experiments.MethodSpec": yamlFieldNames(reflect.TypeOf(MethodSpec{})),
	"results.Figures":        yamlFieldNames(reflect.TypeOf(results.Figures{})),
	"experiments.SearchSpec": yamlFieldNames(reflect.TypeOf(SearchSpec{})),
}

// yamlFieldNames returns the yaml keys of struct type t.
func yamlFieldNames(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// plainYAMLMessage rewrites one fault of the YAML decoder in the user's words.
func plainYAMLMessage(msg string) string {
	if m := yamlUnknownField.FindStringSubmatch(msg); m != nil {
		keys := configKeys[m[2]]
		out := fmt.Sprintf("unknown key '%s'%s", m[1], suggest.DidYouMean(m[1], keys))
		if len(keys) > 0 {
			out += " (keys here: " + strings.Join(keys, ", ") + ")"
		}
		return out
	}
	if m := yamlWrongKind.FindStringSubmatch(msg); m != nil {
		got := map[string]string{"seq": "a list", "map": "a mapping", "str": "text", "int": "a whole number",
			"float": "a number", "bool": "true or false", "null": "nothing"}[m[1]]
		if m[2] != "" {
			got = "'" + m[2] + "'"
		}
		return fmt.Sprintf("want %s, got %s", goTypeWords(m[3]), got)
	}
	return msg
}

// goTypeWords says in words what a value of the Go type named t looks like.
func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list such as [a, b]"
	case strings.HasPrefix(t, "map["):
		return "a mapping (key: value)"
	case strings.HasPrefix(t, "uint"):
		return "a whole number ≥ 0"
	case strings.HasPrefix(t, "int"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	case t == "string", strings.HasSuffix(t, "posString"):
		return "a single value"
	}
	return "another kind of value"
}

// emptyDocument reports whether a document decoded without error holds nothing (a
// trailing "---" followed by nothing or comments).
func emptyDocument(doc *yaml.Node, err error) bool {
	if err != nil || doc.Kind != yaml.DocumentNode {
		return false
	}
	for _, n := range doc.Content {
		if n.Kind != yaml.ScalarNode || n.Tag != "!!null" || n.Value != "" {
			return false
		}
	}
	return true
}

// topKeyLines returns the line of every top-level key of the config's mapping.
func topKeyLines(raw []byte) map[string]int {
	lines := map[string]int{}
	var root yaml.Node
	if yaml.Unmarshal(raw, &root) != nil || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return lines
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		lines[m.Content[i].Value] = m.Content[i].Line
	}
	return lines
}

// keyAtLine returns the mapping key whose value starts on line, for messages of the YAML
// decoder that give a line but no key; where several do (a mapping written on one line,
// {name: x, trials: ten}), the one whose value is value (the one the message quotes), and
// "" where that does not single one out, since the message may be about any of them.
func keyAtLine(raw []byte, line int, value string) string {
	var root yaml.Node
	if line == 0 || yaml.Unmarshal(raw, &root) != nil {
		return ""
	}
	var keys, ofValue []string
	var find func(n *yaml.Node)
	find = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if v.Line == line && k.Line == line { // not a block collection's key above it
					keys = append(keys, k.Value)
					if value != "" && v.Value == value {
						ofValue = append(ofValue, k.Value)
					}
				}
			}
		}
		for _, c := range n.Content {
			find(c)
		}
	}
	find(&root)
	if len(keys) > 1 {
		keys = ofValue
	}
	if len(keys) != 1 {
		return ""
	}
	return keys[0]
}

func (c *Config) errf(line int, key, format string, args ...any) error {
	return &ConfigError{File: c.File, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

func (c *Config) validate() error {
	errs := []error{c.validateSettings()}
	if c.Precision != "" {
		errs = append(errs, c.SetPrecision(c.Precision))
	}
	if len(c.Datasets) == 0 {
		errs = append(errs, c.errf(c.keyLines["datasets"], "datasets", "no datasets"))
	}
	if len(c.Methods) == 0 {
		errs = append(errs, c.errf(c.keyLines["methods"], "methods", "no methods"))
	}
	errs = append(errs, c.validateDatasets(), c.validateMethods())
	if err := joinConfigErrors(errs...); err != nil {
		return err
	}
	if err := c.validateSearches(); err != nil {
		return err
	}
	return c.resolvePrograms()
}

// joinConfigErrors returns every fault of errs (nil ones and errors.Join's nesting left
// out) as one error: nil, the one *ConfigError, or the first with each further one on a
// line of its own (as yamlConfigError reports the decoder's), so that a config's faults
// are all reported at once, each once (a top-level search block's fault is found for
// every row that uses it).
func joinConfigErrors(errs ...error) error {
	var flat []error
	seen := map[string]bool{}
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		} else if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			flat = append(flat, err)
		}
	}
	for _, err := range errs {
		walk(err)
	}
	if len(flat) == 0 {
		return nil
	}
	first, ok := flat[0].(*ConfigError)
	if !ok {
		return errors.Join(flat...)
	}
	for _, err := range flat[1:] {
		first.Msg += "\n" + err.Error()
	}
	return first
}

// validateSettings checks the config's top-level settings and fills the defaults of
// restarts (1) and metrics (results.AllMetrics).
func (c *Config) validateSettings() error {
	var errs []error
	if c.MaxMemory != "" {
		if _, err := memory.ParseSize(c.MaxMemory); err != nil {
			errs = append(errs, c.errf(c.keyLines["max_memory"], "max_memory", "%v", err))
		}
	}
	if c.Restarts == 0 {
		c.Restarts = 1
	}
	if c.Restarts < 0 || c.Restarts > MaxRestarts {
		errs = append(errs, c.errf(c.keyLines["restarts"], "restarts", "must be in 1…%d, got %d", MaxRestarts, c.Restarts))
	}
	if c.Iterations < 0 || c.Iterations > MaxIterations {
		errs = append(errs, c.errf(c.keyLines["iterations"], "iterations", "must be in 1…%d, got %d", MaxIterations, c.Iterations))
	}
	if !(c.Holdout >= 0 && c.Holdout < 1) {
		errs = append(errs, c.errf(c.keyLines["holdout"], "holdout", "must be a fraction of the edges in [0, 1) (0: no held-out fit), got %v", c.Holdout))
	} else if c.Timing && c.Holdout > 0 {
		errs = append(errs, c.errf(c.keyLines["holdout"], "holdout", "a config with timing: true times each fit alone and fits no held-out copy; "+
			"remove holdout here (held-out fits belong in the sweep's config) or remove timing"))
	}
	if c.Compare != "" && c.Compare != results.ComparePaper {
		errs = append(errs, c.errf(c.keyLines["compare"], "compare", "unknown comparison %q (known: %s; leave it out for a report of the sweep alone)", c.Compare, results.ComparePaper))
	}
	if len(c.Metrics) == 0 {
		c.Metrics = results.AllMetrics
	}
	for _, m := range c.Metrics {
		if !contains(results.AllMetrics, m) {
			errs = append(errs, c.errf(c.keyLines["metrics"], "metrics", "unknown metric %q (known: %s)", m, strings.Join(results.AllMetrics, ", ")))
		}
	}
	if err := c.Figures.Check(); err != nil {
		errs = append(errs, c.errf(c.keyLines["figures"], "figures", "%v", err))
	}
	return errors.Join(errs...)
}

// validateDatasets checks each dataset entry: a name given once, k1, labels and format.
func (c *Config) validateDatasets() error {
	var errs []error
	seen := map[string]bool{}
	for _, d := range c.Datasets {
		if d.Path == "" {
			errs = append(errs, c.errf(d.Line, "datasets", "empty dataset name"))
			continue
		}
		name := d.displayName()
		if seen[name] {
			errs = append(errs, c.errf(d.Line, "datasets", "dataset %q listed twice (give one of them another name: {name: …, path: …})", name))
		}
		seen[name] = true
		if d.K1 < 0 {
			errs = append(errs, c.errf(d.Line, "datasets", "%s: k1 = %d, need a number of clusters ≥ 1", name, d.K1))
		}
		switch d.Labels {
		case "", datasets.LabelsNone, datasets.LabelsColumn, datasets.LabelsFile:
		default:
			errs = append(errs, c.errf(d.Line, "datasets", "%s: labels %q: want none, column or file%s", name, d.Labels, datasets.LabelFileHint(d.Path, d.Labels)))
		}
		switch d.Format {
		case "", datasets.FormatLINQS, datasets.FormatEdgeList, datasets.FormatMTX, datasets.FormatNPZ, datasets.FormatOGB:
		default:
			errs = append(errs, c.errf(d.Line, "datasets", "%s: format %q: want linqs, edgelist, mtx, npz or ogb%s", name, d.Format,
				suggest.DidYouMean(d.Format, []string{datasets.FormatLINQS, datasets.FormatEdgeList, datasets.FormatMTX, datasets.FormatNPZ, datasets.FormatOGB})))
		}
	}
	return errors.Join(errs...)
}

// validateMethods checks each method row (validateMethod), that a row name covers each
// dataset once, and that the config declares at most MaxRuns runs.
func (c *Config) validateMethods() error {
	var errs []error
	// A display name may be used by several rows only when each restricts itself to
	// datasets no other row of that name covers (per-dataset settings of one method).
	covered := map[string]map[string]bool{}
	runs, tooMany := 0, false
	for _, m := range c.Methods {
		errs = append(errs, c.validateMethod(m))
		ds := c.DatasetNames()
		if len(m.Datasets) > 0 {
			ds = ds[:0:0]
			for _, d := range m.Datasets {
				ds = append(ds, d.Value)
			}
		}
		if covered[m.Name.Value] == nil {
			covered[m.Name.Value] = map[string]bool{}
		}
		for _, d := range ds {
			if covered[m.Name.Value][d] {
				errs = append(errs, c.errf(m.Name.Line, "name", "method name %q used twice for dataset %s", m.Name.Value, d))
			}
			covered[m.Name.Value][d] = true
		}
		// Count the row's runs (before duplicates merge) without overflowing.
		rowRuns := max(c.Restarts, 1) * len(ds)
		if len(m.Space) > 0 {
			rowRuns *= c.searchOf(m).Trials
		}
		for _, n := range m.Grid {
			if rowRuns > MaxRuns {
				break
			}
			rowRuns *= len(n.Content)
		}
		key := "grid"
		if len(m.Space) > 0 {
			key = "search"
			// trials above the cap for one dataset are refused at its trials key.
			tooMany = tooMany || c.searchOf(m).Trials > MaxRuns/max(c.Restarts, 1)
		}
		if runs += rowRuns; !tooMany && (rowRuns > MaxRuns || runs > MaxRuns) {
			errs = append(errs, c.errf(m.Name.Line, key, "the config declares more than %d runs", MaxRuns))
			tooMany = true
		}
	}
	return errors.Join(errs...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *Config) validateMethod(m MethodSpec) error {
	if isCommand, err := c.validateCommandRow(m); isCommand || err != nil {
		return err
	}
	var errs []error
	if m.Name.Value == "" {
		errs = append(errs, c.errf(m.Algorithm.Line, "name", "a method needs a display name"))
	}
	for _, d := range m.Datasets {
		if !c.hasDataset(d.Value) {
			errs = append(errs, c.errf(d.Line, "datasets", "method %q names dataset %q, which the config does not list", m.Name.Value, d.Value))
		}
	}
	params, err := algorithms.Params(m.Algorithm.Value)
	if err != nil {
		return errors.Join(append(errs, c.errf(m.Algorithm.Line, "algorithm", "%v", err))...)
	}
	check := func(key string, n *yaml.Node, isGrid bool) error {
		if !contains(params, key) {
			return c.errf(n.Line, key, "%s has no option %s%s (its options: %s)", m.Algorithm.Value, key,
				suggest.DidYouMean(key, params), strings.Join(params, ", "))
		}
		if _, dup := m.Options[key]; dup && isGrid {
			return c.errf(n.Line, key, "set both as a fixed option and in the grid")
		}
		values := []*yaml.Node{n}
		if isGrid {
			if n.Kind != yaml.SequenceNode {
				return c.errf(n.Line, key, "a grid entry must be a list of values")
			}
			if len(n.Content) == 0 {
				return c.errf(n.Line, key, "empty grid")
			}
			values = n.Content
		}
		for _, v := range values {
			val, err := scalar(v)
			if err != nil {
				return c.errf(v.Line, key, "%v", err)
			}
			if err := checkRange(key, val); err != nil {
				return c.errf(v.Line, key, "%v", err)
			}
			// Let the algorithm's own decoder check the type.
			probe := map[string]any{key: val}
			if val == "k1" {
				probe[key] = 2
			}
			if _, err := algorithms.New(m.Algorithm.Value, probe); err != nil {
				return c.errf(v.Line, key, "%v", err)
			}
		}
		return nil
	}
	for _, key := range sortedKeys(m.Options) {
		n := m.Options[key]
		errs = append(errs, check(key, &n, false))
	}
	for _, key := range sortedKeys(m.Grid) {
		n := m.Grid[key]
		errs = append(errs, check(key, &n, true))
	}
	errs = append(errs, c.validateSpace(m, params, func(key string, v *yaml.Node) error { return check(key, v, false) }))
	return errors.Join(errs...)
}

func (c *Config) hasDataset(name string) bool {
	for _, d := range c.Datasets {
		if d.displayName() == name {
			return true
		}
	}
	return false
}

// checkRange applies the ranges the paper's parameters must respect.
func checkRange(key string, v any) error {
	f, isNum := toFloat(v)
	switch key {
	case "rho":
		if !isNum || !(f >= 0 && f <= 1) {
			return fmt.Errorf("ρ must be a number in [0, 1], got %v", v)
		}
	case "lambda":
		if !isNum || !(f >= 0) || math.IsInf(f, 0) {
			return fmt.Errorf("λ must be a finite number ≥ 0, got %v", v)
		}
	case "k2", "iterations":
		if s, ok := v.(string); ok && s == "k1" && key == "k2" {
			return nil
		}
		if !isNum || f < 1 || f != math.Trunc(f) {
			return fmt.Errorf("must be a positive integer (or k1 for k2), got %v", v)
		}
		if key == "iterations" && f > MaxIterations {
			return fmt.Errorf("must be at most %d, got %v", MaxIterations, v)
		}
	}
	return nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// scalar decodes a YAML scalar into an int, float64, bool or string.
func scalar(n *yaml.Node) (any, error) {
	if n.Kind != yaml.ScalarNode {
		return nil, errors.New("want a single value (number, string or boolean)")
	}
	switch n.Tag {
	case "!!int":
		var i int
		if err := n.Decode(&i); err != nil {
			return nil, err
		}
		return i, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		return f, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return b, nil
	case "!!str":
		// YAML 1.2 reads 1e-4 as a string; accept it as the number it means.
		var f float64
		if _, err := fmt.Sscanf(n.Value, "%g", &f); err == nil && looksNumeric(n.Value) {
			return f, nil
		}
		return n.Value, nil
	case "!!null":
		return nil, errors.New("missing value")
	}
	return nil, fmt.Errorf("unsupported value %q", n.Value)
}

func looksNumeric(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune("0123456789.eE+-", r) {
			return false
		}
	}
	return s != ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// DatasetNames returns the datasets in config order.
func (c *Config) DatasetNames() []string {
	out := make([]string, len(c.Datasets))
	for i, d := range c.Datasets {
		out[i] = d.displayName()
	}
	return out
}
