package command

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
)

// GraphFile returns the path of the .npz file of in's graph in folder dir, writing it
// when no file of that content is there yet: NAME-FINGERPRINT.npz, where FINGERPRINT is
// the start of the SHA-256 of the file's bytes (datasets.EncodeNPZ), so that a graph is
// written once per results folder and a changed graph never reuses an old file. It holds
// the adjacency and attributes (the attributes a method would factorise are not
// transformed here: in.X), and in.Truth as labels when withLabels. The file
// is written under a temporary name and renamed, so that processes sharing dir (shards)
// never read half a file. Cost: one encoding of the graph to hash it, O(nnz + n·m), and a
// second to write it when it is new.
func GraphFile(in algorithms.Input, dir, name string, withLabels bool) (string, error) {
	g := &datasets.Graph{Adj: in.Adj, X: in.X}
	if withLabels && in.Truth != nil {
		g.Labels = in.Truth
		g.ClassNames = classNames(in.Truth)
	}
	h := sha256.New()
	if err := datasets.EncodeNPZ(h, g); err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s.npz", safeName(name), hex.EncodeToString(h.Sum(nil))[:16]))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, ".graph-*.npz")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	f.Close()
	if err := datasets.WriteNPZ(tmp, g); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return path, nil
}

// classNames names the classes of labels by their index ("0", "1", …).
func classNames(labels []int) []string {
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	names := make([]string, k)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	return names
}

// safeName turns a dataset's display name into a file name: path separators and spaces
// become '_'.
func safeName(name string) string {
	if name == "" {
		return "graph"
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '/', '\\', ' ', ':', 0:
			return '_'
		}
		return r
	}, name)
}
