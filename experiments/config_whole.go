package experiments

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// fractionalCounts returns a fault for each number with a fractional part given where a
// config takes a whole number (restarts: 2.5, eta: 2.5, k1: 3.5), which the YAML decoder
// would silently truncate. It follows the config's struct types from the root mapping
// into nested blocks and lists, so every integer key of Config, SearchSpec, MethodSpec
// and DatasetEntry is covered.
func fractionalCounts(file string, raw []byte) []error {
	var root yaml.Node
	if yaml.Unmarshal(raw, &root) != nil || len(root.Content) == 0 {
		return nil
	}
	var errs []error
	var walk func(n *yaml.Node, t reflect.Type)
	walk = func(n *yaml.Node, t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			if t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode {
				for _, c := range n.Content {
					walk(c, t.Elem())
				}
				return
			}
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f, ok := fieldByYAMLName(t, k.Value)
			if !ok {
				continue
			}
			switch f.Type.Kind() {
			case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Uint, reflect.Int32, reflect.Uint32:
				if v.Kind == yaml.ScalarNode && v.Tag == "!!float" {
					if x, err := strconv.ParseFloat(v.Value, 64); err == nil && x != math.Trunc(x) {
						errs = append(errs, &ConfigError{File: file, Line: v.Line, Key: k.Value,
							Msg: "want a whole number, got '" + v.Value + "'"})
					}
				}
			default:
				walk(v, f.Type)
			}
		}
	}
	walk(root.Content[0], reflect.TypeOf(Config{}))
	return errs
}

// fieldByYAMLName returns the field of struct type t whose yaml tag names key.
func fieldByYAMLName(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
