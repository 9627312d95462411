package experiments

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/algorithms/command"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

// algorithmExternal is the algorithm of the records of clusterings made elsewhere and
// scored by Score.
const algorithmExternal = "external"

// ScoreOptions say which clusterings Score records.
type ScoreOptions struct {
	// ResultsDir is the results folder the records are appended to.
	ResultsDir string
	// Row is the display name the runs are recorded under, as a config row's name.
	Row string
	// Files is the path of each clustering, with {dataset} standing for a dataset's name
	// and {restart} for the restart (0, 1, …): "gnn/{dataset}-{restart}.tsv". Every
	// dataset and restart of the config whose file exists is scored; a pattern without
	// {restart} is restart 0 alone.
	Files string
}

// Score records clusterings made elsewhere as runs of row opt.Row of cfg: for each of
// cfg's datasets and restarts whose file (opt.Files) exists, one done record scored with
// the config's metrics, with the restart's seed (the seed the config's own runs of that
// restart have), so that summaries, reports and paired comparisons set it beside the
// config's rows. A file holds one line "id<TAB>cluster" a vertex, ids as the dataset
// names its vertices (its IDs), clusters integers; a vertex missing, an id unknown or
// given twice, or a cluster that is not an integer is an error naming the file and line,
// and nothing is recorded. It appends to the folder's records (a second Score of the same
// file replaces the first's record, as a rerun does) and returns what it recorded.
func Score(cfg *Config, opt ScoreOptions) (*Summary, error) {
	start := time.Now()
	if strings.TrimSpace(opt.Row) == "" {
		return nil, fmt.Errorf("give the row's name (--row)")
	}
	if err := checkScoreRow(cfg, opt); err != nil {
		return nil, err
	}
	if !strings.Contains(opt.Files, "{dataset}") && len(cfg.Datasets) > 1 {
		return nil, fmt.Errorf("%s names no {dataset}, and the config has %d datasets", opt.Files, len(cfg.Datasets))
	}
	loaded, err := loadDatasets(cfg)
	if err != nil {
		return nil, err
	}
	restarts := cfg.Restarts
	if !strings.Contains(opt.Files, "{restart}") {
		restarts = 1
	}
	var recs []*results.Record
	for _, ld := range loaded {
		in := algorithms.Input{Adj: ld.Graph.Adj, X: ld.Graph.X, Truth: ld.Graph.Labels}
		for r := 0; r < restarts; r++ {
			path := strings.NewReplacer("{dataset}", ld.Name, "{restart}", strconv.Itoa(r)).Replace(opt.Files)
			if _, err := os.Stat(path); err != nil {
				continue
			}
			labels, err := readClustering(path, ld.Graph)
			if err != nil {
				return nil, err
			}
			run := Run{ID: runID(ld.Identity, algorithmExternal, map[string]any{}, ld.K1, r, false, []string{opt.Row}),
				Dataset: ld.Name, Methods: []string{opt.Row}, Algorithm: algorithmExternal, Params: map[string]any{},
				K1: ld.K1, Restart: r, Seed: RunSeed(cfg.Seed, ld.Identity, r)}
			rec := scoreFit(newRecord(run), &algorithms.Result{Labels: labels}, nil, in, cfg.Metrics)
			if rec.Status != results.StatusDone {
				return nil, fmt.Errorf("%s: %s", path, rec.Error)
			}
			abs, _ := filepath.Abs(path)
			rec.Info = map[string]string{"scored_from": abs}
			recs = append(recs, rec)
		}
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no file matches %s for the config's datasets (%s) and restarts 0…%d",
			opt.Files, strings.Join(cfg.DatasetNames(), ", "), restarts-1)
	}
	if err := os.MkdirAll(opt.ResultsDir, 0o755); err != nil {
		return nil, err
	}
	sum := &Summary{Total: len(recs), Done: len(recs), Sweep: newSweepID()}
	p := &sweepPlan{loaded: loaded, total: len(recs)}
	prov := newProvenance(cfg, Options{Workers: 1}, p, sum.Sweep, start, len(recs))
	if err := appendFile(filepath.Join(opt.ResultsDir, results.SweepsFile), prov); err != nil {
		return nil, err
	}
	out, err := os.OpenFile(filepath.Join(opt.ResultsDir, results.RunsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	for _, rec := range recs {
		rec.Sweep, rec.Config = sum.Sweep, cfg.ShortName()
		if err := results.AppendLine(out, rec); err != nil {
			return nil, err
		}
	}
	sum.Elapsed = time.Since(start)
	return sum, out.Sync()
}

// readClustering reads the file at path, one "id<TAB>cluster" line a vertex of g (blank
// lines and lines starting with '#' skipped), into one label a vertex in g's order.
func readClustering(path string, g *datasets.Graph) ([]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	index := make(map[string]int, len(g.IDs))
	for i, id := range g.IDs {
		index[id] = i
	}
	labels := make([]int, len(g.IDs))
	seen := make([]bool, len(g.IDs))
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		id, cluster, ok := strings.Cut(text, "\t")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want id<TAB>cluster, got %q", path, line, text)
		}
		i, known := index[strings.TrimSpace(id)]
		if !known {
			return nil, fmt.Errorf("%s:%d: %q is not a vertex of %s", path, line, id, g.Name)
		}
		if seen[i] {
			return nil, fmt.Errorf("%s:%d: vertex %q given twice", path, line, id)
		}
		c, err := strconv.Atoi(strings.TrimSpace(cluster))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: cluster %q is not an integer", path, line, cluster)
		}
		labels[i], seen[i] = c, true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, ok := range seen {
		if !ok {
			missing := 0
			for _, s := range seen {
				if !s {
					missing++
				}
			}
			return nil, fmt.Errorf("%s: %d of %d vertices have no cluster, the first %q", path, missing, len(seen), g.IDs[i])
		}
	}
	return command.Renumber(labels), nil
}

// checkScoreRow refuses a row name that a config row or a recorded run of another
// algorithm already has: summaries and reports group runs by name, so the clusterings
// would be averaged with that row's own runs.
func checkScoreRow(cfg *Config, opt ScoreOptions) error {
	for _, m := range cfg.Methods {
		if m.Name.Value == opt.Row {
			return fmt.Errorf("--row %s: %s:%d names a row %s (algorithm: %s), whose runs would be averaged with these clusterings: give them a name of their own, e.g. --row %s-external",
				opt.Row, cfg.File, m.Name.Line, opt.Row, m.Algorithm.Value, opt.Row)
		}
	}
	recs, err := results.Load(opt.ResultsDir)
	if err != nil {
		return nil // no records yet
	}
	for _, r := range recs {
		if len(r.Methods) > 0 && r.Methods[0] == opt.Row && r.Algorithm != algorithmExternal {
			return fmt.Errorf("--row %s: %s already holds runs of a row %s (algorithm: %s), which would be averaged with these clusterings: give them a name of their own, e.g. --row %s-external",
				opt.Row, opt.ResultsDir, opt.Row, r.Algorithm, opt.Row)
		}
	}
	return nil
}
