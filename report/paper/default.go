package paper

import "github.com/nagc-harness/nagc/configs"

// Files name the embedded copies in errors.
const (
	PublishedFile = "configs/published-results.yaml"
	SpecFile      = "configs/paper-comparison.yaml"
)

// DefaultPublished returns the NAGC paper's numbers embedded in the binary (a copy of
// configs/published-results.yaml).
func DefaultPublished() (*Published, error) {
	return ParsePublished(PublishedFile, configs.PublishedResults)
}

// DefaultSpec returns how a sweep is set beside the NAGC paper, embedded in the binary
// (configs/paper-comparison.yaml).
func DefaultSpec() (*Spec, error) {
	return ParseSpec(SpecFile, configs.PaperComparison)
}
