package paper_test

import (
	"fmt"
	"log"

	"github.com/nagc-harness/nagc/report/paper"
)

// A second paper's comparison is YAML: its rows and datasets, the rows compared with
// them, and what its text states about a figure.
func ExampleParseSpec() {
	spec, err := paper.ParseSpec("other-paper.yaml", []byte(`
name: OTHER
datasets: [cora, pubmed]
rows: ["Ours", "GAE", "k-means"]
proposed: "Ours"
compared_with: {"Ours (tuned)": "Ours"}
stated:
  - text: "Fig. 4: the ARI of Ours peaks at lambda = 0.1 on Cora"
    figure: lambda
    marks: [{dataset: cora, x: 0.1, label: "paper's peak: λ = 0.1"}]
`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(spec.PaperRow("Ours (tuned)"), spec.HasRow("GAE"))
	mk := spec.Marks("lambda")["cora"]
	fmt.Println(mk.X, mk.Label)
	// Output:
	// Ours true
	// 0.1 paper's peak: λ = 0.1
}

// A fault names the file and the line.
func ExampleParseSpec_error() {
	_, err := paper.ParseSpec("other-paper.yaml", []byte(`
name: OTHER
datasets: [cora]
rows: ["Ours"]
proposed: "Theirs"
`))
	fmt.Println(err)
	// Output:
	// other-paper.yaml:5: proposed: "Theirs" is not one of the rows
}
