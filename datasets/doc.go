// Package datasets loads the attributed graphs a clustering method works on, from files or
// from a seeded generator.
//
// It reads the four LINQS-format graphs of the NAGC paper (WebKB, Citeseer, Cora,
// polblog) and a user's own graph (an edge list with feature and label files, Matrix
// Market, NumPy .npz or .npy, an OGB node-property folder), and generates a synthetic
// graph with planted vertex and attribute clusters, or one of a given shape
// (SyntheticShape: ogbn-arxiv's, ogbn-products', …).
//
// A Graph holds a symmetric non-negative adjacency matrix (0/1 for an unweighted graph),
// an attribute matrix, and, when the data has them, a ground-truth class per vertex. The
// adjacency is stored sparse; the attributes are sparse (Graph.X) or, where the file
// stores them dense (an .npz attr_matrix, a .npy feature file, OGB node features, dense
// synthetic shapes), dense (a dense.Matrix, float32 when the file holds float32). No
// function of this package allocates an n×n matrix or a dense copy of sparse attributes,
// and none makes a sparse copy of dense ones.
//
// Open reads a graph in any of the supported formats (LINQS, edge list with features,
// Matrix Market, NumPy .npz, OGB dataset folders); see Spec and the sections below for the formats and how
// each clustering method uses edge weights. docs/your-graph.md in the repository shows
// how to write each format from PyTorch Geometric, DGL, OGB, networkx and pandas.
//
// # Formats
//
// Open(Spec) reads five formats; Spec.Format names one, or Open infers it from Path.
//
//   - linqs: a folder of *.content files ("id v1 … vm label" a line) and *.cites files
//     ("id_a id_b" a line), as the paper's four graphs are distributed (see LoadLINQS).
//     Labels "none" reads a file without a label column: every field after the id is an
//     attribute. A first line of column names, or a last column that looks like an
//     attribute rather than a class, is warned about in the LoadReport.
//   - edgelist: an edge file ("a b" or "a b weight" a line; CSV with quoted fields, TSV,
//     spaces, or semicolons with decimal commas as spreadsheets write them; or
//     networkx's write_edgelist lines "a b {'weight': 2.5}", other keys ignored) with an
//     optional feature file, dense ("id v1 … vm", optionally with a label column) or
//     sparse ("id column value" triplets; columns numbered from 0, or named: then in
//     sorted name order), and an optional label file ("id label").
//     Name it by its edge file (Spec.Path, with Spec.Features and Spec.LabelFile) or by a
//     folder holding edges.csv, features.csv and labels.csv (.tsv or .txt work too).
//   - mtx: Matrix Market adjacency (adj.mtx) and attributes (features.mtx), coordinate or
//     array, real, integer or pattern, general or symmetric; labels from a label file.
//   - npz: a NumPy archive in the scipy-CSR layout of PyG, DGL and the GNN benchmarks
//     (adj_data, adj_indices, adj_indptr, adj_shape, attr_*, labels, node_names,
//     class_names), read with github.com/sbinet/npyio; or with the attributes as one
//     dense array attr_matrix (float32 or float64, C or Fortran order), kept dense; or,
//     without adj_ arrays, as edge arrays (edge_index 2 × E as PyG's, edges E × 2, or
//     src and dst; with x or node_features, y or node_labels; see npz_edges.go).
//   - ogb: an Open Graph Benchmark node-property dataset folder as the OGB library
//     downloads it (raw/edge.csv.gz, node-feat.csv.gz, node-label.csv.gz,
//     num-node-list.csv.gz, num-edge-list.csv.gz; see openOGB).
//
// An edge list's feature file may also be a NumPy .npy array (row i is vertex i, whose
// id is "i"), kept dense.
//
// Edge-list, label and Matrix Market files may be gzip-compressed (FILE.gz: SNAP's
// .txt.gz edge lists, .mtx.gz matrices); a folder's edges.csv.gz,
// adj.mtx.gz, … are found like their uncompressed names.
//
// # Input you can trust
//
// A reader gives the graph the files meant, with a note or warning in the LoadReport for
// every choice it made, or an error naming the file, the line and the fix
// (docs/your-graph-checks.md): pandas' to_csv() headers and unnamed index columns are
// recognised; ids written as floats (12.0) are the integer ids; a dense feature file
// without an id column is read by position (FeatureLayout "rows"); edge ids one off from
// the feature ids are read shifted; more than MaxDroppedShare (1 %) of an edge or label
// file's lines naming unknown ids fails the load unless Spec.AllowDropped; control
// characters in text files are refused. A label file may label only some vertices
// (Unlabeled marks the others). No size read from a file (a Matrix Market size line, an
// npz header, a sparse feature column) is used for an allocation before it is checked
// against what the file can hold and against memory.Limit; gzip data is decompressed
// under a cap of a quarter of that budget.
//
// Vertex order is file order: the vertex lines of a LINQS folder, the lines of an edge
// list's feature file (or, without one, the ids of the edge file in order of first
// appearance; after a sparse one, whose file has no line for a vertex without
// attributes, the edge file's other ids follow, with a warning), the rows of a Matrix
// Market or npz matrix. The same graph written in the
// four formats with its vertices in the same order loads to identical matrices and the
// same Graph.Fingerprint.
//
// # Edge weights
//
// Adj is symmetric. An edge given more than once, in either direction, keeps the largest
// weight given; an unweighted graph is 0/1. Attribute values are kept as read (tf-idf
// and counts stay real numbers). What each method does with the values of Adj, as the
// algorithms package implements them:
//
//   - nagc: uses the pattern of stored entries only, in its updates and its objective
//     (the PU mask W and the target S = c·W with one constant c = ΣX/nnz(A), computed by
//     sparse.PatternSumGramMul and PatternDots, which ignore values): a weighted graph
//     is clustered as its 0/1 pattern. On a 0/1 graph this is the paper's S = A·ΣX/ΣA
//     exactly.
//   - snmf and jwnmf: factorise the weighted A (jwnmf after scaling by 1/ΣA; snmf's
//     normalize option uses weighted degrees).
//   - sgc-kmeans: the low-pass filter uses weighted degrees and weights.
//   - bagc and metis: use the pattern only (an edge is an edge, whatever its weight).
//   - kmeans and nmf: use the attributes only.
//
// Among the metrics, modularity and the other graph scores weigh edges by their values;
// a vertex counts as connected (ARIConnected) when it has any stored edge to another.
//
// # Unlabeled graphs
//
// A graph without labels has Labels and ClassNames nil and K() = 0; Stats, ClassSizes,
// HoldOutEdges and Fingerprint work on it unchanged.
package datasets
