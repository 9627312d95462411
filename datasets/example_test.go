package datasets_test

import (
	"fmt"
	"log"

	"github.com/nagc-harness/nagc/datasets"
)

func ExampleSynthetic() {
	cfg := datasets.DefaultSynthetic()
	g, err := datasets.Synthetic(cfg)
	if err != nil {
		log.Fatal(err)
	}
	s := g.Stats()
	fmt.Println(s.Name, s.N, s.M, s.K, g.ClassSizes())
	fmt.Println("vertex cluster 0 draws its attributes from vocabularies", cfg.AttrMap(0))
	lo, hi := cfg.Vocabulary(1)
	fmt.Printf("vocabulary 1 is columns [%d, %d)\n", lo, hi)
	// Output:
	// synthetic 600 300 4 [150 150 150 150]
	// vertex cluster 0 draws its attributes from vocabularies [1 2]
	// vocabulary 1 is columns [50, 100)
}

func ExampleLoad() {
	// Load finds "cora" in the places of SearchPath ($NAGC_DATA, the download folder of
	// `nagc datasets fetch`, ../shared/datasets beside a checkout); a folder path works too.
	g, err := datasets.Load("cora")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Stats()
	fmt.Printf("%s: n=%d edges=%d m=%d k=%d density=%.2f%%\n",
		s.Name, s.N, s.Edges, s.M, s.K, 100*s.Density)
}

func ExampleParseError() {
	// A *ParseError names the file and line of the first malformed input:
	err := &datasets.ParseError{File: "cora/cora.content", Line: 12, Msg: `attribute column 3: "x" is not a number`}
	fmt.Println(err)
	// Output:
	// cora/cora.content:12: attribute column 3: "x" is not a number
}
