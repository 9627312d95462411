package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/datasets"
)

// Names of the files and folders inside a results folder.
const (
	RunsFile   = "runs.jsonl"   // one Record per finished run
	SweepsFile = "sweeps.jsonl" // one Provenance per start of `nagc run`
	// ShardsDir holds one folder per shard of a sweep shared between machines or
	// cluster tasks (see ShardDir).
	ShardsDir = "shards"
	// SearchDir holds what the searches keep between rungs: each search's settings and
	// the factors of the fits a later rung continues.
	SearchDir = "search"
)

// Run statuses.
const (
	StatusDone   = "done"
	StatusFailed = "failed"
)

// Record is what the runner writes for one finished run: one JSON line of RunsFile.
type Record struct {
	RunID     string         `json:"run_id"`
	Sweep     string         `json:"sweep"`
	Dataset   string         `json:"dataset"`
	Methods   []string       `json:"methods"`
	Algorithm string         `json:"algorithm"`
	Params    map[string]any `json:"params"`
	K1        int            `json:"k1"`
	Restart   int            `json:"restart"`
	Seed      uint64         `json:"seed"`
	Status    string         `json:"status"`
	Error     string         `json:"error,omitempty"`
	// Metrics maps a metric name (AllMetrics, and MetricHeldOut) to its value.
	Metrics        map[string]float64 `json:"metrics,omitempty"`
	Iterations     int                `json:"iterations"`
	FinalObjective *float64           `json:"final_objective,omitempty"`
	// Objective is the loss curve: the objective after each iteration.
	Objective []float64 `json:"objective,omitempty"`
	// FitSeconds is the wall time of the fit: for methods that time their initialisation
	// apart (NAGC), the iterations alone; for a run fitted in lockstep with others, the
	// batch's iteration time divided by BatchSize.
	FitSeconds float64 `json:"fit_seconds"`
	// InitSeconds is the time before the first iteration (initial factors, set-up), and
	// InitCached says that the initial factors came from an earlier run's computation
	// (which paid for them); both zero for methods that do not time it apart. A run timed
	// alone (TimedAlone) computes its own initialisation: InitCached is false, and for
	// JWNMF, which times none apart, InitSeconds is its k-means start, computed by the
	// runner before the fit (see experiments.Config.Timing).
	InitSeconds float64 `json:"init_seconds,omitempty"`
	InitCached  bool    `json:"init_cached,omitempty"`
	// BatchSize is the number of fits that ran in lockstep with this run's (held-out
	// fits included; 1: it ran alone; 0: the method does not batch). It describes how
	// FitSeconds was measured, nothing else.
	BatchSize int `json:"batch_size,omitempty"`
	// PrefixOf, when not 0, says that the run's fit was read off a fit of PrefixOf
	// iterations after its own Iterations (the runs of a grid over iterations share one
	// fit; the longer fit's first iterations are the shorter one's, bit for bit):
	// FitSeconds is the time up to its own last iteration.
	PrefixOf int               `json:"prefix_of,omitempty"`
	Finished time.Time         `json:"finished"`
	Info     map[string]string `json:"info,omitempty"`
	// Labels is the clustering, one character per vertex in dataset order (see
	// EncodeLabels), so that a report can draw or re-score it without re-running.
	Labels string `json:"labels,omitempty"`
	// Flags holds the per-vertex masks the method reported (algorithms.Result.Flags), by
	// name, each one character per vertex in dataset order, '1' flagged and '0' not (see
	// EncodeFlags). MetricARIUnflagged and MetricUnflaggedShare are computed from them.
	Flags map[string]string `json:"flags,omitempty"`
	// Holdout is the fraction of edges held out when the run was also fitted on the graph
	// without them (experiments.Config.Holdout; 0: it was not), and HeldOutLabels that fit's
	// clustering (EncodeLabels). Its score is Metrics[MetricHeldOut].
	Holdout       float64 `json:"holdout,omitempty"`
	HeldOutLabels string  `json:"heldout_labels,omitempty"`
	// TimedAlone marks a run of a config with timing: true (experiments.Config.Timing): fitted while
	// no other run of the harness ran, for its times. Such records repeat fits of a sweep
	// (same seed, same clustering): Aggregate, and so every summary and table, leaves
	// them out; the report's runtime table reads them.
	TimedAlone bool `json:"timed_alone,omitempty"`
	// Config names the config that planned the run (experiments.Config.ShortName: its name, else its
	// file's base name) and Plan is the run's position in that config's plan (experiments.Run.Plan,
	// from 1): where the run comes in the config's order of datasets, rows, grid points
	// and restarts, whatever order the runs finished in. SortByPlan orders records by
	// them. Both are absent from records written before nagc recorded them.
	Config string `json:"config,omitempty"`
	Plan   int    `json:"plan,omitempty"`
	// Command is the argv of the program a run of a command row started, and
	// CommandFiles the files it names with their SHA-256 when the sweep started: which
	// version of the script ran.
	Command      []string      `json:"command,omitempty"`
	CommandFiles []ProgramFile `json:"command_files,omitempty"`
	// Search, for a run of a search, says which trial and rung it is (SearchInfo), and
	// IterationsRun is the iterations the run executed itself: less than Iterations for
	// a fit continued from its trial's previous rung. Both absent from a grid's records.
	Search        *SearchInfo `json:"search,omitempty"`
	IterationsRun int         `json:"iterations_run,omitempty"`
	// HeldOutIterationsRun and HeldOutSeconds are, for a run of a search with a held-out
	// fit, the iterations that fit executed itself (as IterationsRun) and its wall time
	// (its start included where it computed one). A grid's records time no held-out fit.
	HeldOutIterationsRun int     `json:"heldout_iterations_run,omitempty"`
	HeldOutSeconds       float64 `json:"heldout_seconds,omitempty"`
}

// labelDigits are the characters EncodeLabels uses for clusters 0…61.
const labelDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// EncodeLabels writes cluster labels compactly: one character per vertex when every label
// is below 62, else the labels in decimal separated by commas. Cost O(n).
func EncodeLabels(labels []int) string {
	small := true
	for _, l := range labels {
		if l < 0 || l >= len(labelDigits) {
			small = false
			break
		}
	}
	b := make([]byte, 0, len(labels))
	for i, l := range labels {
		if small {
			b = append(b, labelDigits[l])
			continue
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(l), 10)
	}
	return string(b)
}

// DecodeLabels reverses EncodeLabels.
func DecodeLabels(s string) ([]int, error) {
	if strings.Contains(s, ",") {
		parts := strings.Split(s, ",")
		out := make([]int, len(parts))
		for i, p := range parts {
			v, err := strconv.Atoi(p)
			if err != nil {
				return nil, fmt.Errorf("labels: %q is not a cluster number", p)
			}
			out[i] = v
		}
		return out, nil
	}
	out := make([]int, len(s))
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(labelDigits, s[i])
		if v < 0 {
			return nil, fmt.Errorf("labels: bad character %q at vertex %d", s[i], i)
		}
		out[i] = v
	}
	return out, nil
}

// EncodeFlags writes a per-vertex mask as one character per vertex, '1' where it is
// set. Cost O(n).
func EncodeFlags(mask []bool) string {
	b := make([]byte, len(mask))
	for i, f := range mask {
		b[i] = '0'
		if f {
			b[i] = '1'
		}
	}
	return string(b)
}

// DecodeFlags reverses EncodeFlags.
func DecodeFlags(s string) ([]bool, error) {
	out := make([]bool, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '0':
		case '1':
			out[i] = true
		default:
			return nil, fmt.Errorf("flags: bad character %q at vertex %d (want 0 or 1)", s[i], i)
		}
	}
	return out, nil
}

// GridPoint returns the record's parameters as a canonical string: JSON with sorted
// keys, as experiments.Run.GridPoint.
func (r *Record) GridPoint() string { return gridPoint(r.Params) }

// Provenance describes one start of a sweep: one JSON line of SweepsFile.
type Provenance struct {
	Sweep      string    `json:"sweep"`
	Config     string    `json:"config"`
	ConfigHash string    `json:"config_sha256"`
	Name       string    `json:"name"`
	GitCommit  string    `json:"git_commit"`
	GoVersion  string    `json:"go_version"`
	Host       string    `json:"host"`
	CPU        string    `json:"cpu"`
	Started    time.Time `json:"started"`
	Workers    int       `json:"workers"`
	Shard      string    `json:"shard"`
	RunsTotal  int       `json:"runs_total"`
	RunsToDo   int       `json:"runs_to_do"`
	// Compare is the config's comparison (experiments.Config.Compare): "paper" or "".
	Compare string `json:"compare,omitempty"`
	// Timing is the config's timing key (experiments.Config.Timing): its runs were executed one at a
	// time (Workers is then 1).
	Timing bool `json:"timing,omitempty"`
	// Figures is the config's figures section (experiments.Config.Figures), nil when it has none.
	Figures *Figures `json:"figures,omitempty"`
	// Maximises lists the config's algorithms whose recorded objective is maximised
	// (see ObjectiveMaximised), so that the report reads it rather than asks a method.
	Maximises []string `json:"maximises,omitempty"`
	// Datasets holds the loader's statistics of every dataset of the config.
	Datasets []datasets.Stats `json:"datasets"`
	// Sources says where each dataset was read from and how (paths absolute), and its
	// identity, so that rescore and report read the same graphs wherever they run.
	Sources []DatasetSource `json:"sources,omitempty"`
}

// RecordError locates a bad line of a results file.
type RecordError struct {
	File string
	Line int
	Msg  string
}

func (e *RecordError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ReadRecords reads every record of a runs file. A missing file gives no records. A
// malformed line is an error naming file and line, except a last line without its
// newline, which is what a crash mid-write leaves: it is reported by torn = true and not
// returned. Cost O(size of the file).
func ReadRecords(path string) (recs []Record, torn bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	line := 0
	for len(data) > 0 {
		line++
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return recs, true, nil
		}
		text := bytes.TrimSpace(data[:nl])
		data = data[nl+1:]
		if len(text) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(text, &r); err != nil {
			return nil, false, &RecordError{File: path, Line: line, Msg: "not a run record: " + err.Error()}
		}
		if r.RunID == "" || (r.Status != StatusDone && r.Status != StatusFailed) {
			return nil, false, &RecordError{File: path, Line: line, Msg: "record without run_id or with unknown status"}
		}
		recs = append(recs, r)
	}
	return recs, false, nil
}

// RepairTorn truncates a runs file after its last complete line, discarding what a crash
// mid-write left. It returns whether anything was discarded.
func RepairTorn(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && (len(data) == 0 || data[len(data)-1] == '\n')) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	keep := bytes.LastIndexByte(data, '\n') + 1
	return true, os.Truncate(path, int64(keep))
}

// Latest returns, for each run ID, its last record (a failed run retried later is
// superseded by the retry), in first-seen order.
func Latest(recs []Record) []Record {
	pos := map[string]int{}
	var out []Record
	for _, r := range recs {
		if i, ok := pos[r.RunID]; ok {
			out[i] = r
			continue
		}
		pos[r.RunID] = len(out)
		out = append(out, r)
	}
	return out
}

// Load reads the latest record of every run in a results folder, in the order of
// the configs that planned them (SortByPlan).
func Load(dir string) ([]Record, error) {
	recs, _, err := ReadRecords(filepath.Join(dir, RunsFile))
	if err != nil {
		return nil, err
	}
	if recs == nil {
		if _, err := os.Stat(filepath.Join(dir, RunsFile)); err != nil {
			return nil, fmt.Errorf("%s: no %s (run `nagc run CONFIG --results %s` first)", dir, RunsFile, dir)
		}
	}
	recs = Latest(recs)
	SortByPlan(recs)
	return recs, nil
}

// ReadProvenance reads every sweep start recorded in a results folder. Lines have no
// length limit; a line that is not a provenance record (a torn write) is skipped, since
// it loses nothing a report needs. Cost O(size of the file).
func ReadProvenance(dir string) ([]Provenance, error) {
	path := filepath.Join(dir, SweepsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Provenance
	for len(data) > 0 {
		text := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			text, data = data[:nl], data[nl+1:]
		} else {
			data = nil
		}
		if text = bytes.TrimSpace(text); len(text) == 0 {
			continue
		}
		var p Provenance
		if err := json.Unmarshal(text, &p); err != nil {
			// A torn line of provenance loses nothing a report needs.
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// AppendLine appends v as one JSON line with a single write, so that a killed process
// leaves either the whole line or (rarely) a torn tail that RepairTorn removes.
func AppendLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// ProgramFile is a file the program of a command row names (the program itself or an
// argument), with its SHA-256 when the sweep started.
type ProgramFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// gridPoint returns params as a canonical string: JSON with sorted keys.
func gridPoint(params map[string]any) string {
	b, _ := json.Marshal(params) // encoding/json sorts map keys
	return string(b)
}

// DatasetSource is how a sweep read one of its datasets.
type DatasetSource struct {
	Name     string        `json:"name"`     // display name, as records give it
	Identity string        `json:"identity"` // what run ids and seeds derive from
	K1       int           `json:"k1"`       // number of clusters
	Spec     datasets.Spec `json:"spec"`     // path (absolute), format, labels, …
	// Load is the reader's report: dropped lines with examples, notes, warnings.
	Load *datasets.LoadReport `json:"load,omitempty"`
}
