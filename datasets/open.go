package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Formats Open reads, as Spec.Format names them.
const (
	FormatLINQS    = "linqs"
	FormatEdgeList = "edgelist"
	FormatMTX      = "mtx"
	FormatNPZ      = "npz"
)

// Label sources, as Spec.Labels names them.
const (
	LabelsNone   = "none"   // no labels: the graph is unlabeled (K() = 0)
	LabelsColumn = "column" // the last column of the vertex/feature file (LINQS, dense features); the labels array of an .npz
	LabelsFile   = "file"   // a separate file of "id label" lines (or one label a line, in vertex order)
)

// Spec names a dataset on disk and how to read it. Only Path is required; the zero value
// of every other field picks what the format and the files make obvious. The YAML keys
// (name, path, format, features, feature_layout, labels, label_file) are those a config
// file's dataset entry may use.
type Spec struct {
	// Name is the dataset's name in reports. Default: the base name of Path (a
	// folder's name, a file's name without its extension).
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Path is the dataset: a folder or a file. See Format.
	Path string `yaml:"path,omitempty" json:"path,omitempty"`
	// Format is one of "linqs", "edgelist", "mtx", "npz", "ogb", or "" to infer it
	// from Path: a file ending in .npz is npz, .mtx is mtx, .csv, .tsv, .txt,
	// .edges or .edgelist is edgelist, .content or .cites is the LINQS folder
	// holding it. A folder is linqs when it holds *.content files, else edgelist
	// when it holds edges.{csv,tsv,txt,edges}, else mtx when it holds
	// adj.mtx or adjacency.mtx, else npz when it holds exactly one .npz file,
	// else ogb when it (or its raw/ folder) holds OGB's edge.csv.gz and
	// num-node-list.csv.gz.
	Format string `yaml:"format,omitempty" json:"format,omitempty"`
	// Features is the feature (attribute) file of an edge list or Matrix Market
	// adjacency: text, or for an edge list a NumPy .npy array (kept dense). In a
	// folder it defaults to features.{csv,tsv,txt}, else features.npy (edgelist), or
	// features.mtx (mtx). Without one the graph has no attributes (M() = 0).
	Features string `yaml:"features,omitempty" json:"features,omitempty"`
	// FeatureLayout is the layout of an edge list's feature file: "dense" (the
	// default: an id then one value per column on each line) or "sparse" (one
	// "id column value" triplet a line, columns numbered from 0 or named).
	FeatureLayout string `yaml:"feature_layout,omitempty" json:"feature_layout,omitempty"`
	// Labels is where the classes come from: "none", "column" or "file" (see
	// the Labels… constants), or "" for the format's default: the last column
	// for LINQS, the labels array for npz when present, "file" when LabelFile is
	// set or a folder holds labels.{csv,tsv,txt}, else none.
	Labels string `yaml:"labels,omitempty" json:"labels,omitempty"`
	// LabelFile is the labels file for Labels "file": "id label" lines, or one
	// label a line in vertex order.
	LabelFile string `yaml:"label_file,omitempty" json:"label_file,omitempty"`
	// AllowDropped accepts a graph whose edge or label file drops more than
	// MaxDroppedShare (1 %) of its lines for naming ids that are not vertices; by
	// default such a load fails with a *DroppedError.
	AllowDropped bool `yaml:"allow_dropped,omitempty" json:"allow_dropped,omitempty"`
}

// Open reads the dataset spec describes, in any supported format, and returns the graph
// with a report of what was read, dropped and looks misread (show report.String() to the
// user). Vertex order is file order: the order of the vertex lines of a LINQS folder or
// of an edge list's feature file (then, after a sparse one, the edge file's other ids),
// the row order of a Matrix Market or npz matrix.
//
// Malformed input gives a *ParseError naming the file, line and fault. Cost linear in
// the size of the files plus O(d log d) per vertex of degree d.
func Open(spec Spec) (*Graph, *LoadReport, error) {
	if spec.Path == "" {
		return nil, nil, fmt.Errorf("no dataset path given")
	}
	fi, err := os.Stat(spec.Path)
	if err != nil {
		return nil, nil, err
	}
	s := spec
	if !fi.IsDir() {
		switch strings.ToLower(filepath.Ext(s.Path)) {
		case ".content", ".cites":
			if s.Format == "" || s.Format == FormatLINQS {
				s.Path, s.Format = filepath.Dir(s.Path), FormatLINQS
			}
		}
	}
	if s.Format == "" {
		if s.Format, err = inferFormat(s.Path, fi.IsDir()); err != nil {
			return nil, nil, err
		}
	}
	if s.Name == "" {
		s.Name = nameOf(s.Path, fi.IsDir())
	}
	switch s.Labels {
	case "", LabelsNone, LabelsColumn, LabelsFile:
	default:
		return nil, nil, fmt.Errorf("%s: labels %q: want none, column or file%s", s.Path, s.Labels, LabelFileHint(s.Path, s.Labels))
	}
	if s.LabelFile != "" && s.Labels == "" {
		s.Labels = LabelsFile
	}
	var g *Graph
	var rep *LoadReport
	switch s.Format {
	case FormatLINQS:
		g, rep, err = openLINQS(s)
	case FormatEdgeList:
		g, rep, err = openEdgeList(s)
	case FormatMTX:
		g, rep, err = openMTX(s)
	case FormatNPZ:
		g, rep, err = openNPZ(s)
	case FormatOGB:
		g, rep, err = openOGB(s)
	default:
		return nil, nil, fmt.Errorf("%s: unknown format %q (known: linqs, edgelist, mtx, npz, ogb)", s.Path, s.Format)
	}
	if err != nil {
		return nil, nil, err
	}
	g.Name = s.Name
	rep.Format = s.Format
	rep.fill(g)
	warnOddities(g, rep, spec, fi.IsDir())
	return g, rep, nil
}

// besideHint returns, for an edge file named by itself (not its folder) without a
// feature file, a hint naming the feature and label files beside it, which only a
// folder reads by default; "" otherwise.
func besideHint(spec Spec, isDir bool) string {
	if isDir || spec.Features != "" {
		return ""
	}
	dir := filepath.Dir(spec.Path)
	var found []string
	for _, f := range []string{"features.csv", "features.tsv", "features.txt", "features.npy", "labels.csv", "labels.tsv", "labels.txt"} {
		if exists(filepath.Join(dir, f)) {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		return ""
	}
	return fmt.Sprintf("; %s beside %s %s read only when you name the folder (%s) instead of the edge file, or give the files (--features FILE, --labels FILE; features:, label_file: in a config)",
		strings.Join(found, " and "), filepath.Base(spec.Path), map[bool]string{true: "is", false: "are"}[len(found) == 1], dir)
}

// nameOf names the dataset at path (a folder when isDir): its base name, without the
// extension (and .gz) for a file; "." and ".." are named by the folder they stand for.
func nameOf(p string, isDir bool) string {
	path := filepath.Clean(p)
	if abs, err := filepath.Abs(path); err == nil && (path == "." || path == ".." || strings.HasSuffix(path, string(filepath.Separator)+"..")) {
		path = abs // "." names the working folder
	}
	base := filepath.Base(path)
	if !isDir {
		base = strings.TrimSuffix(base, ".gz")
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return base
}

// warnOddities warns in rep about what g, read by spec (a folder when isDir), may have
// been misread as: labels left in an unread labels.npy, no attributes, negative dense
// attributes, no edges between distinct vertices.
func warnOddities(g *Graph, rep *LoadReport, spec Spec, isDir bool) {
	if !g.Labeled() && spec.Labels == "" && spec.LabelFile == "" {
		dir := spec.Path
		if !isDir {
			dir = filepath.Dir(spec.Path)
		}
		if npy := filepath.Join(dir, "labels.npy"); exists(npy) {
			rep.warn("%s is not read, so the graph has no labels: write them as labels.txt, one class a line in vertex order (np.savetxt(\"labels.txt\", y, fmt=\"%%d\")), or labels.csv with id,label lines", npy)
		}
	}
	if g.M() == 0 {
		rep.warn("the graph has no attributes (m = 0): attribute-based methods cannot use it%s", besideHint(spec, isDir))
	}
	if _, d := g.StoredX(); d != nil {
		if i, j, neg := d.FirstNegative(); neg {
			rep.warn("the dense attributes have negative values (the first at vertex %d, column %d): nagc and nmf need non-negative attributes: give them the option transform (split, shift or minmax); kmeans, sgc-kmeans, metis and snmf use them as they are", i, j)
		}
	}
	if g.Edges() == g.SelfLoops() {
		rep.warn("the graph has no edges between distinct vertices")
	}
}

// FileFormat returns the format a file's extension names (.npz: npz; .mtx: mtx; .csv,
// .tsv, .txt, .edges, .edgelist: edgelist), or "" for any other name.
func FileFormat(path string) string {
	switch strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz"))) {
	case ".npz":
		return FormatNPZ
	case ".mtx":
		return FormatMTX
	case ".csv", ".tsv", ".txt", ".edges", ".edgelist":
		return FormatEdgeList
	}
	return ""
}

// inferFormat returns the format of the file or folder path.
func inferFormat(path string, dir bool) (string, error) {
	if !dir {
		if f := FileFormat(path); f != "" {
			return f, nil
		}
		return "", fmt.Errorf("%s: cannot tell the format from the file name; set it to linqs, edgelist, mtx or npz (--format on the command line, format: in a config)", path)
	}
	if m, _ := filepath.Glob(filepath.Join(path, "*.content")); len(m) > 0 {
		return FormatLINQS, nil
	}
	if findFile(path, "edges", edgeExts) != "" {
		return FormatEdgeList, nil
	}
	if findFile(path, "adj", []string{".mtx"}) != "" || findFile(path, "adjacency", []string{".mtx"}) != "" {
		return FormatMTX, nil
	}
	npz, _ := filepath.Glob(filepath.Join(path, "*.npz"))
	if len(npz) == 1 {
		return FormatNPZ, nil
	}
	if ogbRaw(path) != "" {
		return FormatOGB, nil
	}
	if len(npz) > 1 {
		for i := range npz {
			npz[i] = filepath.Base(npz[i])
		}
		return "", fmt.Errorf("%s: the folder holds %d .npz files (%s): name the one to read, e.g. %s", path, len(npz), strings.Join(npz, ", "), filepath.Join(path, npz[0]))
	}
	return "", fmt.Errorf("%s: cannot tell the format of this folder: no .content file in folder (linqs), no edges.csv/.tsv/.txt (edgelist), no adj.mtx (mtx), no .npz file and no raw/edge.csv.gz (ogb); name the graph's file itself, or set the format (--format on the command line, format: in a config)%s", path, ogbNear(path))
}

// edgeExts and tableExts are the extensions of edge-list and table files.
var (
	edgeExts  = []string{".csv", ".tsv", ".txt", ".edges", ".edgelist"}
	tableExts = []string{".csv", ".tsv", ".txt"}
)

// findFile returns dir/base+ext, or dir/base+ext+".gz", for the first ext of exts naming
// an existing file, or "".
func findFile(dir, base string, exts []string) string {
	for _, e := range exts {
		for _, gz := range []string{"", ".gz"} {
			p := filepath.Join(dir, base+e+gz)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p
			}
		}
	}
	return ""
}

// labelFileFor returns the label file of s, looking for labels.{csv,tsv,txt} in dir when
// s does not name one, or an error when s.Labels is "file" and there is none.
func labelFileFor(s Spec, dir string) (string, error) {
	if s.LabelFile != "" || s.Labels == LabelsNone {
		return s.LabelFile, nil
	}
	f := ""
	if dir != "" {
		f = findFile(dir, "labels", tableExts)
	}
	if f == "" && s.Labels == LabelsFile {
		return "", fmt.Errorf("%s: labels: file needs a label file (label_file), and the folder holds no labels.csv/.tsv/.txt", s.Path)
	}
	return f, nil
}

// applyLabelFile reads the label file path and sets g's labels. A line is "id label"
// (matched to g.IDs; a line naming an unknown id is dropped and counted, and more than
// MaxDroppedShare of them fail the load unless allowDropped) or a single label (the i-th
// such line labels vertex i; then there must be one per vertex). A first line of column
// names ("id", "label", ...) is skipped, and so is pandas' unnamed index column.
//
// An "id label" file may label only some vertices (as Planetoid's training labels do), and
// a label written empty or NaN (a missing value, as pandas writes it) labels no vertex:
// the others get the label −1 (see Graph.Labels), with a warning, and are clustered all
// the same; the metrics score the labelled ones. A file labelling no vertex is an error.
//
// Where the vertices are named by their index (a Matrix Market graph's 1…n, an npz
// archive's 0…n−1) and the file's ids are exactly the indices counted from the other
// base (0…n−1 for a Matrix Market graph, as Python writes them), the file is read with
// that base, with a warning: read as written it would leave a vertex without a label.
func applyLabelFile(g *Graph, rep *LoadReport, path string, allowDropped bool) error {
	data, err := readFile(path)
	if err != nil {
		return err
	}
	rep.Files = append(rep.Files, path)
	lf, err := readLabelLines(path, data, g.N(), rep)
	if err != nil {
		return err
	}
	raw, has, err := lf.assign(g, rep, allowDropped)
	if err != nil {
		return err
	}
	missing := 0
	for i, h := range has {
		if h && missingLabel(raw[i]) {
			has[i] = false
			missing++
		}
	}
	if missing > 0 {
		rep.note("%s: %d labels are empty or NaN (a missing value, as pandas writes it), so those vertices are read as unlabelled", path, missing)
	}
	if err := checkLabelled(g, rep, path, has); err != nil {
		return err
	}
	g.Labels, g.ClassNames = classIndexPartial(raw, has)
	checkLabels(rep, path, g.Labels, g.ClassNames, false)
	return nil
}

// labelLines are the lines of a label file: layout 1 (a label per line, in vertex
// order) or 2 ("id label" lines, ids in canonical form, each line's text kept for the
// load report), with the labels and line numbers.
type labelLines struct {
	path        string
	layout      int
	ids, labels []string
	lines       []int
	texts       [][]byte
}

// readLabelLines parses the label file path (its bytes data) of a graph of n vertices,
// skipping a header row (noted in rep). Every line has the fields of the first.
func readLabelLines(path string, data []byte, n int, rep *LoadReport) (*labelLines, error) {
	lf := &labelLines{path: path}
	t := newTextFile(path, data)
	first := true
	for nf := t.next(); nf >= 0; nf = t.next() {
		if first {
			first = false
			if nf >= 2 && len(t.field(0)) == 0 {
				// pandas' to_csv(): the index column has no name; a named id column
				// after it makes the index a row number.
				if nf >= 3 && isIDWord(t.field(1)) {
					t.skipFirst = true
					rep.note("%s:%d read as a pandas header row (%q): the first column, pandas' unnamed index, is skipped", path, t.ln, truncate(t.line))
				} else {
					rep.note("%s:%d read as a pandas header row (%q)", path, t.ln, truncate(t.line))
				}
				continue
			}
			if isHeaderWord(t.field(0)) || nf == 2 && isHeaderWord(t.field(1)) {
				rep.note("%s:%d read as a header row (%q)", path, t.ln, truncate(t.line))
				continue
			}
		}
		if nf != 1 && nf != 2 {
			return nil, t.errorf("label line needs 2 fields (id, label) or 1 (a label per vertex, in order), got %d", nf)
		}
		if lf.layout == 0 {
			lf.layout = nf
		} else if nf != lf.layout {
			return nil, t.errorf("label line has %d fields where earlier lines have %d", nf, lf.layout)
		}
		if nf == 1 {
			if len(lf.labels) >= n {
				return nil, t.errorf("more labels than the %d vertices", n)
			}
			lf.labels, lf.lines = append(lf.labels, string(t.field(0))), append(lf.lines, t.ln)
			continue
		}
		id, err := canonicalID(t.field(0))
		if err != nil {
			return nil, t.errorf("%v", err)
		}
		lf.ids, lf.labels, lf.lines = append(lf.ids, string(id)), append(lf.labels, string(t.field(1))), append(lf.lines, t.ln)
		lf.texts = append(lf.texts, append([]byte(nil), t.line...))
	}
	return lf, nil
}

// assign returns each vertex's label as written (raw) and whether it has one: in vertex
// order for layout 1; else by id, read with the other index base or shifted by one
// where the ids say so (warned in rep), a line naming no vertex dropped (refused past
// checkDropped's share unless allowDropped) and a second label for a vertex an error.
func (lf *labelLines) assign(g *Graph, rep *LoadReport, allowDropped bool) (raw []string, has []bool, err error) {
	n, path := g.N(), lf.path
	raw = make([]string, n)
	has = make([]bool, n)
	base := indexBase(g.IDs)
	if lf.layout == 1 {
		if len(lf.labels) < n {
			return nil, nil, &ParseError{File: path, Msg: fmt.Sprintf("%d labels, one a line in vertex order, for %d vertices; a file labelling only some vertices must name them (\"id label\" lines)", len(lf.labels), n)}
		}
		copy(raw, lf.labels)
		for i := range lf.labels {
			has[i] = true
		}
		return raw, has, nil
	}
	if vertex := otherBaseVertices(base, lf.ids, n); vertex != nil {
		other := 1 - base
		rep.warn("%s: its ids run %d…%d, but the vertices are numbered %d…%d: read with id %d as vertex %s, and so on",
			path, other, other+n-1, base, base+n-1, other, g.IDs[0])
		for k, i := range vertex {
			raw[i], has[i] = lf.labels[k], true
		}
		return raw, has, nil
	}
	vertexOf := lf.vertexOf(g, rep)
	at := make([]int, n)
	const reason = "label line names an id that is not a vertex"
	for k, id := range lf.ids {
		i, ok := vertexOf(id)
		if !ok {
			rep.dropLine(reason, path, lf.lines[k], lf.texts[k])
			continue
		}
		if has[i] {
			return nil, nil, &ParseError{File: path, Line: lf.lines[k], Msg: fmt.Sprintf("second label for vertex %q (first at line %d)", id, at[i])}
		}
		raw[i], has[i], at[i] = lf.labels[k], true, lf.lines[k]
	}
	hint := "check that the label file names the vertices as the graph does"
	if base >= 0 {
		hint += fmt.Sprintf(" (they are numbered %d…%d)", base, base+n-1)
	}
	if err := checkDropped(rep, allowDropped, path, reason, "label lines", len(lf.ids), hint); err != nil {
		return nil, nil, err
	}
	return raw, has, nil
}

// vertexOf returns the lookup of the vertex an id of the file names: the vertex of that
// id, or, where the ids are one off from the vertices' (as an edge file's can be: see
// labelShift), of that id shifted back (warned in rep).
func (lf *labelLines) vertexOf(g *Graph, rep *LoadReport) func(id string) (int, bool) {
	index := make(map[string]int, g.N())
	for i, id := range g.IDs {
		index[id] = i
	}
	shift, unknown := labelShift(g.IDs, index, lf.ids)
	if shift == 0 {
		return func(id string) (int, bool) { i, ok := index[id]; return i, ok }
	}
	more, fix := "one more", "minus 1"
	if shift < 0 {
		more, fix = "one less", "plus 1"
	}
	rep.warn("%s: its ids are %s than the vertices' (read as written, %d label lines would name no vertex and the rest would label the wrong one): read with every id %s",
		lf.path, more, unknown, fix)
	ints := shiftedIndex(g.IDs)
	return func(id string) (int, bool) {
		v, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return 0, false
		}
		i, ok := ints[v-int64(shift)]
		return i, ok
	}
}

// checkLabelled refuses a label file (path) that labels none of g's vertices (has), and
// warns in rep when it labels only some.
func checkLabelled(g *Graph, rep *LoadReport, path string, has []bool) error {
	n := g.N()
	missing := 0
	firstMissing := -1
	for i, h := range has {
		if !h {
			missing++
			if firstMissing < 0 {
				firstMissing = i
			}
		}
	}
	numbered := ""
	if base := indexBase(g.IDs); base >= 0 {
		numbered = fmt.Sprintf(" (the vertices are numbered %d…%d, in the order of the matrix rows)", base, base+n-1)
	}
	if missing == n {
		return &ParseError{File: path, Msg: fmt.Sprintf("labels none of the %d vertices%s; "+setLabelsNone+" for a graph without labels", n, numbered)}
	}
	if missing > 0 {
		rep.warn("%s labels %d of %d vertices (the first without a label: %q): the metrics score the %d labelled vertices; all are clustered",
			path, n-missing, n, g.IDs[firstMissing], n-missing)
	}
	return nil
}

// labelShift returns s = +1 or −1 when the label ids, read as written, name some
// unknown id while every one of them minus s names a vertex (an off-by-one base), with
// the number of unknown ids as written; else 0. Cost O(len(ids)) map look-ups.
func labelShift(vertexIDs []string, index map[string]int, ids []string) (shift, unknown int) {
	for _, id := range ids {
		if _, ok := index[id]; !ok {
			unknown++
		}
	}
	if unknown == 0 {
		return 0, 0
	}
	ints := shiftedIndex(vertexIDs)
	if ints == nil {
		return 0, 0
	}
	for _, s := range []int64{1, -1} {
		all := true
		for _, id := range ids {
			v, err := strconv.ParseInt(id, 10, 64)
			if _, ok := ints[v-s]; err != nil || !ok {
				all = false
				break
			}
		}
		if all {
			return int(s), unknown
		}
	}
	return 0, 0
}

// indexBase returns b when ids are the indices b, b+1, …, b+n−1 in order, for b = 0 or 1,
// else −1. Cost O(n).
func indexBase(ids []string) int {
	for _, b := range []int{0, 1} {
		i := 0
		for i < len(ids) && ids[i] == strconv.Itoa(i+b) {
			i++
		}
		if i == len(ids) && i > 0 {
			return b
		}
	}
	return -1
}

// otherBaseVertices returns, when the n vertices are numbered from base (0 or 1, see
// indexBase) and ids (a label file's, one a line) are exactly their numbers counted from
// the other base, 1 − base, each once, the vertex each id names; else nil. Cost O(n).
func otherBaseVertices(base int, ids []string, n int) []int {
	if base < 0 || len(ids) != n {
		return nil
	}
	other := 1 - base
	vertex := make([]int, n)
	seen := make([]bool, n)
	for k, id := range ids {
		i, err := strconv.Atoi(id)
		if err != nil || i < other || i >= other+n || seen[i-other] {
			return nil
		}
		vertex[k], seen[i-other] = i-other, true
	}
	return vertex
}

// LabelFileHint returns, for a labels value that looks like a file name (it has an
// extension), the way to read labels from that file ("; to read the labels from x.csv,
// write labels: file and label_file: DIR/x.csv"), else "". The file is labels itself
// where that exists (a path from the working folder), else labels beside the dataset at
// path.
func LabelFileHint(path, labels string) string {
	if filepath.Ext(labels) == "" {
		return ""
	}
	if fi, err := os.Stat(labels); err == nil && !fi.IsDir() {
		return fmt.Sprintf("; to read the labels from %s, write labels: file and label_file: %s", labels, labels)
	}
	dir := path
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() || filepath.Ext(path) != "" {
		dir = filepath.Dir(path)
	}
	f := filepath.Join(dir, labels)
	return fmt.Sprintf("; to read the labels from %s, write labels: file and label_file: %s", f, f)
}
