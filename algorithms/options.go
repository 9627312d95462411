package algorithms

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/internal/suggest"
)

// Defaults a method gets from New (and so from configs and the command line) where an
// option is not given. Go code that builds a method's struct itself gets its zero values,
// which each method's documentation describes.
const (
	// DefaultNAGCLambda is λ = 0.01, the value the paper suggests choosing "simply"
	// (Sec. "Effect of Parameters": ARI is stable for λ < 0.1; "λ = 0.01 and k2 = k1").
	DefaultNAGCLambda = 0.01
	// DefaultNAGCRho is ρ = 0.75, the middle of the paper's grid {0.5, 0.55, 0.75, 0.95,
	// 0.995}; the paper names no default ρ (its best ρ varies by graph, lower for denser
	// ones). It was compared with 0.55 and 0.95 by ARI on the paper's four graphs (seed 1),
	// so the choice read their labels. The zero value ρ = 0 gives the edges no weight at all, and every vertex ends
	// in one cluster.
	DefaultNAGCRho = 0.75
	// DefaultJWNMFLambda is λ = 1e-5 for JWNMF: the graph term leads and the attributes
	// break its ties. It was chosen by ARI on the paper's four graphs (five seeds; it reads
	// their labels, like the paper's own grid choice): λ = 0, which scales λ to
	// 0.1·‖S‖²/‖X‖², lets polblog's 7 attributes swamp its graph (ARI 0.02 against 0.62
	// at 1e-5), and costs Citeseer 0.04 ARI, WebKB and Cora nothing.
	DefaultJWNMFLambda = 1e-5
	// DefaultSGCOrder is p = 16 smoothing steps for sgc-kmeans, the order SSGC (Zhu and
	// Koniusz, ICLR 2021) uses for clustering; p = 0 would be plain k-means.
	DefaultSGCOrder = 16
	// DefaultSGCRank is rank 32 for sgc-kmeans: k-means on the rank-32 spectral embedding
	// of the filtered attributes, not on the filtered matrix itself, which after 16 steps is
	// nearly dense (5–17× slower on Citeseer and Cora, and no more accurate there).
	DefaultSGCRank = 32
)

// OptionError is an option that a method does not have or cannot take.
type OptionError struct {
	Method string // method name, as registered
	Key    string // option name
	Value  any    // the value given
	Msg    string // what is wrong, in the user's words
}

func (e *OptionError) Error() string { return e.Method + ": " + e.Msg }

// optionChecker is implemented by methods whose option values can be checked before any
// graph is seen; New calls it, so that a config is refused when it is loaded.
type optionChecker interface {
	checkOptions() error
}

// New returns method name with its options set from params (keys as listed by Params;
// values as YAML would decode them), every option not given at its default (see the
// Default constants). An unknown method or option, a value of the wrong kind or out of
// range is an error in the user's words (an *OptionError for options), with a
// suggestion where a name looks misspelt.
func New(name string, params map[string]any) (Method, error) {
	mk, ok := lookup(name)
	if !ok {
		return nil, unknownMethod(name)
	}
	opts := mk()
	keys, _ := Params(name)
	fields := optionFields(reflect.TypeOf(opts).Elem())
	for _, key := range sortedParamKeys(params) {
		val := params[key]
		if !slices.Contains(keys, key) {
			return nil, &OptionError{Method: name, Key: key, Value: val,
				Msg: fmt.Sprintf("%s has no option %s%s (its options: %s)", name, key, suggest.DidYouMean(key, keys), strings.Join(keys, ", "))}
		}
		raw, err := yaml.Marshal(map[string]any{key: val})
		if !fitsKind(val, fields[key]) {
			err = errors.New("wrong kind")
		}
		if err == nil {
			dec := yaml.NewDecoder(bytes.NewReader(raw))
			dec.KnownFields(true)
			err = dec.Decode(opts)
		}
		if err != nil {
			return nil, &OptionError{Method: name, Key: key, Value: val,
				Msg: fmt.Sprintf("%s must be %s (got %v)", key, kindWords(fields[key]), val)}
		}
	}
	if c, ok := opts.(optionChecker); ok {
		if err := c.checkOptions(); err != nil {
			return nil, err
		}
	}
	return reflect.ValueOf(opts).Elem().Interface().(Method), nil
}

// sortedParamKeys returns the keys of p in sorted order, so that the first error reported
// does not depend on map order.
func sortedParamKeys(p map[string]any) []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// optionFields maps each yaml option name of struct type t to its Go type, descending
// into inline structs.
func optionFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		parts := strings.Split(f.Tag.Get("yaml"), ",")
		switch {
		case len(parts) > 1 && parts[1] == "inline" && f.Type.Kind() == reflect.Struct:
			for k, v := range optionFields(f.Type) {
				out[k] = v
			}
		case parts[0] != "" && parts[0] != "-":
			out[parts[0]] = f.Type
		}
	}
	return out
}

// kindWords says in words what values of type t look like.
func kindWords(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a word"
	}
	return "a single value"
}

// fitsKind reports whether v, as YAML or the command line decode a scalar (bool, int,
// float64, string), is a value of type t: whole numbers for integers (a float only when
// it is whole: YAML would truncate 2.5 to 2), any number for floats, true or false for
// booleans, text for words.
func fitsKind(v any, t reflect.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64:
		switch x := v.(type) {
		case int, int64, uint64:
			return true
		case float64:
			return x == math.Trunc(x) && !math.IsInf(x, 0)
		}
		return false
	case reflect.Float64, reflect.Float32:
		switch v.(type) {
		case int, int64, uint64, float64:
			return true
		}
		return false
	case reflect.Bool:
		_, ok := v.(bool)
		return ok
	case reflect.String:
		_, ok := v.(string)
		return ok
	}
	return true
}

// Setting is one option of a method with the value a fit uses.
type Setting struct {
	Key   string
	Value any
}

// Settings returns every option of m with its value, in the method's declared order:
// what a fit of m uses, defaults included (a zero that the method reads as a default,
// such as NAGC's k2 = 0 for k1, is reported as stored). Cost: one YAML round trip.
func Settings(m Method) []Setting {
	raw, err := yaml.Marshal(m)
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(raw, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	mapping := doc.Content[0].Content
	out := make([]Setting, 0, len(mapping)/2)
	for i := 0; i+1 < len(mapping); i += 2 {
		var v any
		if mapping[i+1].Decode(&v) != nil {
			continue
		}
		out = append(out, Setting{Key: mapping[i].Value, Value: v})
	}
	return out
}

// resolver is implemented by methods that read some zero options as defaults: resolved
// returns the method with those zeros replaced by the values a fit of k1 clusters on n
// vertices uses.
type resolver interface {
	resolved(k1, n int) Method
}

// Effective returns every option of m with the value a fit with k1 clusters on a graph
// of n vertices uses: as Settings, but with each zero that the method reads as a default
// replaced by that default (NAGC's k2 = 0 by k1, iterations 0 by 100, the k-means starts
// n_init and init_n_init 0 by 10, or by 1 from SGCLargeN vertices, …). An option shows
// its value even where the fit does not read it (init_n_init under init random). Values
// that depend on more than the graph's size (JWNMF's λ = 0) stay as stored. It changes
// nothing of m or of its fits: it describes them.
func Effective(m Method, k1, n int) []Setting { return Settings(Resolved(m, k1, n)) }

// Resolved returns m with each zero option that it reads as a default replaced by the
// value a fit with k1 clusters on a graph of n vertices uses (see Effective); methods
// without such defaults come back as they are.
func Resolved(m Method, k1, n int) Method {
	if r, ok := m.(resolver); ok {
		return r.resolved(k1, n)
	}
	return m
}

func (o GraphFilterOptions) resolved() GraphFilterOptions {
	o.SelfLoop, o.Norm = o.selfLoop(), o.norm()
	return o
}

func (a NAGC) resolved(k1, n int) Method {
	a = a.withDefaults(k1)
	a.Filter = a.Filter.resolved()
	a.InitNInit = a.initNInit(n)
	return a
}

func (a JWNMF) resolved(_, _ int) Method {
	a = a.withDefaults()
	a.Filter = a.Filter.resolved()
	return a
}

func (a NMF) resolved(_, _ int) Method {
	a = a.withDefaults()
	a.Filter = a.Filter.resolved()
	return a
}

func (a SNMF) resolved(_, _ int) Method { return a.withDefaults() }
func (a SACluster) resolved(_, _ int) Method {
	if a.Protocol == SAProtocolReference {
		a.MaxIter = cmp.Or(a.MaxIter, saMaxIter)
		return a
	}
	return a.withDefaults()
}
func (a IncCluster) resolved(_, _ int) Method { return IncCluster{a.SACluster.withDefaults()} }
func (a BAGC) resolved(_, _ int) Method {
	if a.Protocol == BAGCProtocolReference {
		// The reference's schedule is fixed; the variant's options do not apply.
		a.IterNum = cmp.Or(a.IterNum, bagcRefIterNum)
		a.Xi, a.Gamma, a.Mu, a.Nu = cmp.Or(a.Xi, 1), cmp.Or(a.Gamma, 1), cmp.Or(a.Mu, 1), cmp.Or(a.Nu, 1)
		return a
	}
	return a.withDefaults()
}

func (a METIS) resolved(_, _ int) Method {
	a.PType, a.ObjType = or(a.PType, "kway"), or(a.ObjType, "cut")
	return a
}

func (a KMeans) resolved(_, _ int) Method {
	c := kmeans.Config{NInit: a.NInit, MaxIter: a.MaxIter, Tol: a.Tol}.WithDefaults()
	a.NInit, a.MaxIter, a.Tol = c.NInit, c.MaxIter, c.Tol
	return a
}

func (a SGCKMeans) resolved(_, n int) Method {
	a.GraphFilterOptions = a.GraphFilterOptions.resolved()
	a.NInit = a.nInit(n)
	return a
}

// oneOf returns an error unless v is one of allowed ("" always passes: the default).
func oneOf(method, key, v string, allowed ...string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return &OptionError{Method: method, Key: key, Value: v,
		Msg: fmt.Sprintf("%s %q is not one of %s%s", key, v, strings.Join(allowed, ", "), suggest.DidYouMean(v, allowed))}
}

// nonNegative returns an error unless v is finite and ≥ 0.
func nonNegative(method, key string, v float64) error {
	if v >= 0 && !math.IsInf(v, 0) {
		return nil
	}
	return &OptionError{Method: method, Key: key, Value: v, Msg: fmt.Sprintf("%s = %v, need a finite value ≥ 0", key, v)}
}

// atLeastZero returns an error for a negative count.
func atLeastZero(method, key string, v int) error {
	if v >= 0 {
		return nil
	}
	return &OptionError{Method: method, Key: key, Value: v, Msg: fmt.Sprintf("%s = %d, need 0 or more (0: the default)", key, v)}
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (o GraphFilterOptions) checkFilter(method string) error {
	return firstError(
		atLeastZero(method, "p", o.P),
		nonNegative(method, "self_loop", o.SelfLoop),
		oneOf(method, "norm", o.Norm, NormL2, NormNone),
	)
}

func (a NAGC) checkOptions() error {
	if a.Rho == 0 {
		return &OptionError{Method: "nagc", Key: "rho", Value: a.Rho,
			Msg: "rho = 0 gives the graph's edges no weight, so every vertex ends in one cluster; need 0 < rho ≤ 1 (0.5: the paper's 'without PU' rule; default 0.75)"}
	}
	if !(a.Rho > 0 && a.Rho <= 1) {
		return &OptionError{Method: "nagc", Key: "rho", Value: a.Rho, Msg: fmt.Sprintf("rho = %v, need 0 < rho ≤ 1", a.Rho)}
	}
	return firstError(
		atLeastZero("nagc", "k2", a.K2),
		nonNegative("nagc", "lambda", a.Lambda),
		atLeastZero("nagc", "iterations", a.Iterations),
		oneOf("nagc", "init", a.Init, InitRandom, InitKMeans, InitKMeansMedianARI, InitSGC),
		oneOf("nagc", "precision", a.Precision, PrecisionDefault, PrecisionFast),
		atLeastZero("nagc", "init_rank", a.InitRank),
		atLeastZero("nagc", "init_n_init", a.InitNInit),
		a.Filter.checkFilter("nagc"),
		a.checkTransform("nagc"),
	)
}

func (a JWNMF) checkOptions() error {
	return firstError(
		nonNegative("jwnmf", "lambda", a.Lambda),
		atLeastZero("jwnmf", "iterations", a.Iterations),
		oneOf("jwnmf", "init", a.Init, InitKMeans, InitRandom),
		a.Filter.checkFilter("jwnmf"),
		a.checkTransform("jwnmf"),
	)
}

func (a NMF) checkOptions() error {
	return firstError(
		atLeastZero("nmf", "iterations", a.Iterations),
		oneOf("nmf", "init", a.Init, InitRandom, NMFInitNNDSVDa),
		oneOf("nmf", "solver", a.Solver, NMFSolverMU, NMFSolverHALS),
		a.Filter.checkFilter("nmf"),
		a.checkTransform("nmf"),
	)
}

func (a SNMF) checkOptions() error { return atLeastZero("snmf", "iterations", a.Iterations) }

func (a METIS) checkOptions() error {
	return firstError(
		oneOf("metis", "ptype", a.PType, "kway", "rb"),
		oneOf("metis", "objtype", a.ObjType, "cut", "vol"),
	)
}

func (a KMeans) checkOptions() error {
	return firstError(
		atLeastZero("kmeans", "n_init", a.NInit),
		atLeastZero("kmeans", "max_iter", a.MaxIter),
		nonNegative("kmeans", "tol", a.Tol),
		oneOf("kmeans", "precision", a.Precision, PrecisionDefault, PrecisionFast),
		a.checkTransform("kmeans"),
	)
}

func (a SGCKMeans) checkOptions() error {
	return firstError(
		a.GraphFilterOptions.checkFilter("sgc-kmeans"),
		atLeastZero("sgc-kmeans", "n_init", a.NInit),
		atLeastZero("sgc-kmeans", "rank", a.Rank),
		oneOf("sgc-kmeans", "precision", a.Precision, PrecisionDefault, PrecisionFast),
		a.checkTransform("sgc-kmeans"),
	)
}

func (a BAGC) checkOptions() error {
	if a.Protocol == BAGCProtocolReference {
		for _, o := range []struct {
			key string
			set bool
		}{{"max_sweeps", a.MaxSweeps != 0}, {"tol", a.Tol != 0}, {"warm_sweeps", a.WarmSweeps != 0}, {"restarts", a.Restarts != 0}} {
			if o.set {
				return &OptionError{Method: "bagc", Key: o.key, Value: nil,
					Msg: o.key + " does not apply to protocol reference, which runs the public code's fixed schedule (set iter_num for its outer loop)"}
			}
		}
		if a.IterNum < 0 || a.IterNum == 1 {
			return &OptionError{Method: "bagc", Key: "iter_num", Value: a.IterNum,
				Msg: fmt.Sprintf("iter_num = %d, need 2 or more (the outer loop runs iter_num − 1 times; 0: the code's 5)", a.IterNum)}
		}
	} else if a.IterNum != 0 {
		return &OptionError{Method: "bagc", Key: "iter_num", Value: a.IterNum,
			Msg: "iter_num applies to protocol reference only (the variant's schedule is max_sweeps and tol)"}
	}
	return firstError(
		oneOf("bagc", "protocol", a.Protocol, BAGCProtocolVariant, BAGCProtocolReference),
		nonNegative("bagc", "xi", a.Xi),
		nonNegative("bagc", "gamma", a.Gamma),
		nonNegative("bagc", "mu", a.Mu),
		nonNegative("bagc", "nu", a.Nu),
		atLeastZero("bagc", "max_sweeps", a.MaxSweeps),
		nonNegative("bagc", "tol", a.Tol),
		atLeastZero("bagc", "restarts", a.Restarts),
	)
}

func (a SACluster) checkOptionsAs(method string) error {
	if !(a.Restart >= 0 && a.Restart < 1) {
		return &OptionError{Method: method, Key: "restart", Value: a.Restart, Msg: fmt.Sprintf("restart = %v, need 0 < restart < 1 (0: the default 0.15)", a.Restart)}
	}
	if a.Protocol == SAProtocolReference {
		for _, o := range []struct {
			key string
			set bool
		}{{"restart", a.Restart != 0}, {"length", a.Length != 0}, {"weight", a.Weight != 0}, {"bins", a.Bins != 0}, {"direction", a.Direction != ""}} {
			if o.set {
				return &OptionError{Method: method, Key: o.key, Value: nil,
					Msg: o.key + " does not apply to protocol reference, which runs the public code's fixed constants (max_iter caps its iterations)"}
			}
		}
	}
	return firstError(
		atLeastZero(method, "length", a.Length),
		nonNegative(method, "weight", a.Weight),
		atLeastZero(method, "max_iter", a.MaxIter),
		atLeastZero(method, "bins", a.Bins),
		oneOf(method, "protocol", a.Protocol, SAProtocolPaper, SAProtocolReference),
		oneOf(method, "direction", a.Direction, SADirectionFromCentre, SADirectionToCentre),
	)
}

func (a SACluster) checkOptions() error { return a.checkOptionsAs("sa-cluster") }

func (a IncCluster) checkOptions() error {
	if a.Protocol == SAProtocolReference {
		return &OptionError{Method: "inc-cluster", Key: "protocol", Value: a.Protocol,
			Msg: "protocol reference is sa-cluster's (the public code's pruning); inc-cluster follows the paper: use --method sa-cluster --opt protocol=reference"}
	}
	return a.SACluster.checkOptionsAs("inc-cluster")
}
