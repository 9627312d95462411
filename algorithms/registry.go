package algorithms

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

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

// Names returns the registered method names in sorted order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Params returns the option keys method name accepts (its fields' yaml names), sorted.
func Params(name string) ([]string, error) {
	mk, ok := registry[name]
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
