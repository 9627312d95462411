#!/usr/bin/python3
"""Side-by-side reference for nagc's dense k-means (docs/kmeans.md).

  kmeans_sklearn.py make DIR [--n 169343] [--m 128] [--k 40] [--noise 1.55] [--seed 1]
      writes DIR/x64.npy, DIR/x32.npy (n x m attributes: |class mean + Gaussian noise|,
      class means N(0, 1) per column, labels uniform over k) and DIR/labels.npy.
  kmeans_sklearn.py fit DIR/x32.npy DIR/labels.npy [--k 40] [--n-init 10] [--seed 0] [--csr]
      runs scikit-learn's KMeans(n_clusters=k, n_init=n_init) (its defaults otherwise:
      k-means++ with 2 + ln k local trials, max_iter 300, tol 1e-4, algorithm "lloyd")
      and prints JSON: fit seconds, inertia, iterations, ARI against the labels.
      --csr fits the same values as a float64 scipy CSR matrix (as a .npz's
      attr_data/indices/indptr hold them).
  kmeans_sklearn.py csr IN.npz OUT.npz
      writes a copy of a graph .npz (as `nagc datasets synth` writes it) whose dense
      attr_matrix is stored as a float64 CSR (attr_data, attr_indices, attr_indptr,
      attr_shape), as scipy writes a sparse matrix that happens to be full; also
      x32.npy and labels.npy beside OUT.npz, for fit.
Threads: OpenBLAS and OpenMP use every core unless OMP_NUM_THREADS / OPENBLAS_NUM_THREADS say.
Needs Debian's python3-sklearn."""
import argparse, json, os, time
import numpy as np

p = argparse.ArgumentParser()
p.add_argument("cmd", choices=["make", "fit", "csr"])
p.add_argument("paths", nargs="+")
p.add_argument("--n", type=int, default=169343)
p.add_argument("--m", type=int, default=128)
p.add_argument("--k", type=int, default=40)
p.add_argument("--noise", type=float, default=1.55)
p.add_argument("--seed", type=int, default=1)
p.add_argument("--n-init", type=int, default=10)
p.add_argument("--csr", action="store_true")
a = p.parse_args()

if a.cmd == "make":
    d = a.paths[0]
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    means = rng.standard_normal((a.k, a.m))
    y = rng.integers(0, a.k, a.n)
    x = np.abs(means[y] + a.noise * rng.standard_normal((a.n, a.m)))
    np.save(os.path.join(d, "x64.npy"), x)
    np.save(os.path.join(d, "x32.npy"), x.astype(np.float32))
    np.save(os.path.join(d, "labels.npy"), y.astype(np.int64))
elif a.cmd == "csr":
    import scipy.sparse
    z = np.load(a.paths[0])
    x = z["attr_matrix"]
    c = scipy.sparse.csr_matrix(x.astype(np.float64))
    d = {k: z[k] for k in z.files if k != "attr_matrix"}
    d.update(attr_data=c.data, attr_indices=c.indices, attr_indptr=c.indptr, attr_shape=np.array(c.shape))
    np.savez(a.paths[1], **d)
    out = os.path.dirname(os.path.abspath(a.paths[1]))
    np.save(os.path.join(out, "x32.npy"), x.astype(np.float32))
    np.save(os.path.join(out, "labels.npy"), z["labels"].astype(np.int64))
else:
    from sklearn.cluster import KMeans
    from sklearn.metrics import adjusted_rand_score
    x, y = np.load(a.paths[0]), np.load(a.paths[1])
    if a.csr:
        import scipy.sparse
        x = scipy.sparse.csr_matrix(x.astype(np.float64))
    t = time.perf_counter()
    km = KMeans(n_clusters=a.k, n_init=a.n_init, random_state=a.seed).fit(x)
    t = time.perf_counter() - t
    print(json.dumps({"fit_seconds": round(t, 3), "dtype": str(x.dtype), "inertia": float(km.inertia_),
                      "iterations": int(km.n_iter_), "ari": round(adjusted_rand_score(y, km.labels_), 4)}))
