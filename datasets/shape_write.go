package datasets

import (
	"fmt"
	"io"
	"time"
)

// WriteShape generates the planted graph of shape s (SyntheticShape), writes it to path
// as .npz (WriteNPZ), and writes one line to w: the file, the graph's n, edges, m (with
// the attributes' form), k, and the seconds the generation and the writing took.
func WriteShape(w io.Writer, path string, s Shape) error {
	start := time.Now()
	g, err := SyntheticShape(s)
	if err != nil {
		return err
	}
	gen := time.Since(start)
	if err := WriteNPZ(path, g); err != nil {
		return err
	}
	st := g.Stats()
	kind := "sparse"
	if _, d := g.StoredX(); d != nil {
		kind = "dense float32"
	}
	_, err = fmt.Fprintf(w, "wrote %s: n=%d edges=%d m=%d (%s) k=%d, generated in %.1f s, written in %.1f s\n",
		path, st.N, st.Edges, st.M, kind, st.K, gen.Seconds(), (time.Since(start) - gen).Seconds())
	return err
}
