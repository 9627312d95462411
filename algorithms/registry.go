package algorithms

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// registry maps each method's name to a constructor of its zero-valued options.
var registry = map[string]func() any{
	"nagc":       func() any { return &NAGC{} },
	"kmeans":     func() any { return &KMeans{} },
	"metis":      func() any { return &METIS{} },
	"bagc":       func() any { return &BAGC{} },
	"nmf":        func() any { return &NMF{} },
	"snmf":       func() any { return &SNMF{} },
	"jwnmf":      func() any { return &JWNMF{} },
	"sgc-kmeans": func() any { return &SGCKMeans{} },
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
	return fmt.Errorf("unknown method %q (known: %s)", name, strings.Join(Names(), ", "))
}

// New returns method name with its options set from params (keys as listed by Params;
// values as YAML would decode them). An unknown key or a value of the wrong type is an
// error; values are range-checked when the method fits.
func New(name string, params map[string]any) (Method, error) {
	mk, ok := registry[name]
	if !ok {
		return nil, unknownMethod(name)
	}
	opts := mk()
	if len(params) > 0 {
		raw, err := yaml.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("%s: options: %w", name, err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		if err := dec.Decode(opts); err != nil {
			keys, _ := Params(name)
			return nil, fmt.Errorf("%s: options: %v (known options: %s)", name,
				strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  "), strings.Join(keys, ", "))
		}
	}
	return reflect.ValueOf(opts).Elem().Interface().(Method), nil
}
