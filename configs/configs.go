// Package configs holds the project's experiment configs (YAML files beside this one) and
// embeds the paper's published numbers, so that the binary can put them beside every
// reproduced number without the shared folder.
package configs

import _ "embed"

// PublishedResults is published-results.yaml: every number the NAGC paper publishes, as
// data (a copy of shared/paper/published-results.yaml).
//
//go:embed published-results.yaml
var PublishedResults []byte
