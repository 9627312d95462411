package experiments

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nagc-harness/nagc/search"
)

// settingsChanges returns, in key order, each setting of a search that differs between
// was (as its results folder recorded it) and now, as "key old → new". The space is
// compared parameter by parameter and written as a config writes it ("space lambda
// {log: [1e-06, 10]} → {log: [1e-05, 10]}"); the other settings as JSON.
func settingsChanges(was, now map[string]any) []string {
	var changed []string
	for _, k := range sortedKeys(now) {
		if k == "space" {
			changed = append(changed, spaceChanges(asMap(was[k]), asMap(now[k]))...)
			continue
		}
		a, _ := json.Marshal(was[k])
		c, _ := json.Marshal(now[k])
		if string(a) != string(c) {
			changed = append(changed, fmt.Sprintf("%s %s → %s", k, a, c))
		}
	}
	return changed
}

// spaceChanges returns "space NAME old → new" for each parameter added, removed or
// changed between two recorded spaces (parameter name → search.Param as JSON).
func spaceChanges(was, now map[string]any) []string {
	names := map[string]any{}
	for k := range was {
		names[k] = nil
	}
	for k := range now {
		names[k] = nil
	}
	var changed []string
	for _, name := range sortedKeys(names) {
		a, b := spaceText(was[name]), spaceText(now[name])
		if a != b {
			changed = append(changed, fmt.Sprintf("space %s %s → %s", name, a, b))
		}
	}
	return changed
}

// spaceText writes a recorded search.Param as a config's space writes it: a list
// [a, b], {log: [lo, hi]}, {uniform: [lo, hi]}, {int: [lo, hi]} or {int: [lo, hi], log:
// true}; "(not searched)" for none.
func spaceText(v any) string {
	if v == nil {
		return "(not searched)"
	}
	b, _ := json.Marshal(v)
	var p search.Param
	if err := json.Unmarshal(b, &p); err != nil {
		return string(b)
	}
	bounds := fmt.Sprintf("[%v, %v]", p.Lo, p.Hi)
	switch {
	case p.Kind == search.Choice:
		vals := make([]string, len(p.Choices))
		for i, c := range p.Choices {
			vals[i] = fmt.Sprint(c)
		}
		return "[" + strings.Join(vals, ", ") + "]"
	case p.Kind == search.Int && p.Log:
		return "{int: " + bounds + ", log: true}"
	case p.Kind == search.Int:
		return "{int: " + bounds + "}"
	case p.Log:
		return "{log: " + bounds + "}"
	default:
		return "{uniform: " + bounds + "}"
	}
}

// asMap returns v as a JSON object, or nil.
func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
