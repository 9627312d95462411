package experiments

import (
	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/algorithms"
)

// SetPrecision makes p ("default" or "fast", see algorithms.PrecisionFast) the precision
// of every row whose method has the option precision and does not set it itself (in its
// options, grid or space), as the config's top-level precision does (and `nagc run
// --precision`, which replaces it). "fast" becomes a fixed option of those rows, so their
// records name it and are other grid points than the default's; "default" adds nothing,
// so the default's records are those of a config without the key. Rows of methods
// without the option run as they do without it.
func (c *Config) SetPrecision(p string) error {
	if p != algorithms.PrecisionDefault && p != algorithms.PrecisionFast {
		return c.errf(c.keyLines["precision"], "precision", "%q is not one of %s, %s", p, algorithms.PrecisionDefault, algorithms.PrecisionFast)
	}
	c.Precision = p
	for _, i := range c.precisionRows { // what an earlier call set
		delete(c.Methods[i].Options, "precision")
	}
	c.precisionRows = nil
	if p == algorithms.PrecisionDefault {
		return nil
	}
	for i := range c.Methods {
		m := &c.Methods[i]
		keys, _ := algorithms.Params(m.Algorithm.Value)
		_, inOptions := m.Options["precision"]
		_, inGrid := m.Grid["precision"]
		_, inSpace := m.Space["precision"]
		if !containsStr(keys, "precision") || inOptions || inGrid || inSpace {
			continue
		}
		if m.Options == nil {
			m.Options = map[string]yaml.Node{}
		}
		m.Options["precision"] = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p, Line: c.keyLines["precision"]}
		c.precisionRows = append(c.precisionRows, i)
	}
	return nil
}
