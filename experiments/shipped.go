package experiments

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/nagc-harness/nagc/configs"
)

// Shipped is an experiment config built into nagc (package configs).
type Shipped struct {
	Name string
	// Description is the first sentence of the config's leading comment, at most 100
	// characters.
	Description string
}

// ShippedConfigs lists the configs built into nagc, by name, with their descriptions.
func ShippedConfigs() []Shipped {
	var out []Shipped
	for _, name := range configs.Names() {
		raw, _ := configs.Lookup(name)
		out = append(out, Shipped{Name: name, Description: leadingComment(raw)})
	}
	return out
}

// leadingComment returns the text of the leading comment block of a YAML file, joined
// into one line and cut after its first sentence and at 100 characters.
func leadingComment(raw []byte) string {
	var parts []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "#") {
			break
		}
		parts = append(parts, strings.TrimSpace(strings.TrimPrefix(line, "#")))
	}
	s := strings.Join(parts, " ")
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}
