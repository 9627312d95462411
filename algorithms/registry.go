package algorithms

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/nagc-harness/nagc/internal/suggest"
)

// registry maps each method's name to a constructor of its options at their defaults:
// the zero values, except where a zero would make the method degenerate (see the Default
// constants).
var registry = map[string]func() any{
	"nagc":        func() any { return &NAGC{Lambda: DefaultNAGCLambda, Rho: DefaultNAGCRho} },
	"kmeans":      func() any { return &KMeans{} },
	"metis":       func() any { return &METIS{} },
	"bagc":        func() any { return &BAGC{} },
	"nmf":         func() any { return &NMF{} },
	"snmf":        func() any { return &SNMF{} },
	"jwnmf":       func() any { return &JWNMF{Lambda: DefaultJWNMFLambda} },
	"sa-cluster":  func() any { return &SACluster{} },
	"inc-cluster": func() any { return &IncCluster{} },
	"paican":      func() any { return &PAICAN{} },
	"sgc-kmeans": func() any {
		return &SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: DefaultSGCOrder}, Rank: DefaultSGCRank}
	},
}

// registryMu guards registry against Register while methods are looked up.
var registryMu sync.RWMutex

// lookup returns the constructor of method name's options.
func lookup(name string) (func() any, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	mk, ok := registry[name]
	return mk, ok
}

// Register adds a method of the caller's own under name, so that everything that names
// methods takes it as it takes the built-in ones: a config's `algorithm: name` with its
// options and grid, sweeps, records, summaries and reports. options returns the method's
// options at their defaults as a pointer to a struct, whose yaml-tagged fields are the
// options a config may set and whose value (not the pointer) is a Method named name;
// New decodes a run's options into a fresh one. Register it from main or an init
// function, before a config naming it is read. A name already registered, an empty one,
// "command" (a config's program rows) or options of another shape are errors.
func Register(name string, options func() any) error {
	if name == "" || name == "command" {
		return fmt.Errorf("register %q: the name must be non-empty and not \"command\"", name)
	}
	if _, taken := lookup(name); taken {
		return fmt.Errorf("register %q: a method of that name is registered already", name)
	}
	opts := options()
	v := reflect.ValueOf(opts)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("register %q: options must return a non-nil pointer to a struct of options, got %T", name, opts)
	}
	m, ok := v.Elem().Interface().(Method)
	if !ok {
		return fmt.Errorf("register %q: %s does not implement algorithms.Method (Name and Fit with value receivers)", name, v.Elem().Type())
	}
	if m.Name() != name {
		return fmt.Errorf("register %q: the method's Name() is %q", name, m.Name())
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[name] = options
	labelReadingSettings.Clear() // the new method may read the labels with some of them
	return nil
}

// Names returns the registered method names in sorted order.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Params returns the option keys method name accepts (its fields' yaml names), sorted.
func Params(name string) ([]string, error) {
	mk, ok := lookup(name)
	if !ok {
		return nil, unknownMethod(name)
	}
	keys := yamlKeys(reflect.TypeOf(mk()).Elem())
	sort.Strings(keys)
	return keys, nil
}

// yamlKeys lists the yaml names of a struct's fields, descending into inline structs.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		parts := strings.Split(f.Tag.Get("yaml"), ",")
		switch {
		case len(parts) > 1 && parts[1] == "inline" && f.Type.Kind() == reflect.Struct:
			keys = append(keys, yamlKeys(f.Type)...)
		case parts[0] != "" && parts[0] != "-":
			keys = append(keys, parts[0])
		}
	}
	return keys
}

func unknownMethod(name string) error {
	return fmt.Errorf("unknown method %q%s (known: %s)", name, suggest.DidYouMean(name, Names()), strings.Join(Names(), ", "))
}
