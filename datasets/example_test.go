package datasets_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

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

func ExampleOpen() {
	// A weighted edge list with a header, a dense feature file and a label file, in a
	// folder: Open finds edges.csv, features.csv and labels.csv there. One edge line of
	// five names an unknown id: more than 1 %, so the load must allow it.
	dir, err := os.MkdirTemp("", "mygraph")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"edges.csv":    "source,target,weight\nann,bob,2\nbob,cat,1\ncat,ann,0.5\ndan,eve,1\nbob,zed,1\n",
		"features.csv": "id,w1,w2\nann,0.5,0\nbob,1,0\ncat,0.25,0.25\ndan,0,1\neve,0,2\n",
		"labels.csv":   "ann,red\nbob,red\ncat,red\ndan,blue\neve,blue\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	g, report, err := datasets.Open(datasets.Spec{Name: "mygraph", Path: dir, AllowDropped: true})
	if err != nil {
		log.Fatal(err) // e.g. "…/features.csv:3: attribute column 2: "x" is not a number"
	}
	fmt.Println(strings.ReplaceAll(report.String(), dir, "DIR"))
	fmt.Println("classes", g.ClassNames, "weight of ann–bob", g.Adj.At(0, 1))
	// Output:
	// mygraph (edgelist): n=5 edges=4 m=2 nnz=6 k=2 self-loops=0 isolated=0 weighted
	//   dropped 1 line: edge names an id with no feature line (first at DIR/edges.csv:6)
	//     edges.csv:6: bob,zed,1
	//   note: DIR/features.csv:1 read as a header row ("id,w1,w2")
	//   note: DIR/edges.csv:1 read as a header row ("source,target,weight")
	// classes [blue red] weight of ann–bob 2
}
