package datasets

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// FetchSource says where one of the paper's datasets is published and what a download
// of it must be.
type FetchSource struct {
	// Name is the dataset's name and the folder it is stored in.
	Name string
	// Archive, when set, is the URL of a gzip-compressed tar archive holding the
	// dataset's .content and .cites files (LINQS publishes cora.tgz and citeseer.tgz so).
	Archive string
	// Files, when Archive is empty, are the dataset's files, downloaded one by one.
	Files []FetchFile
	// Paper holds the statistics of the paper's dataset table, which the downloaded graph
	// must have (as LoadLINQS counts them).
	Paper PaperStats
}

// FetchFile is one file of a dataset published file by file.
type FetchFile struct {
	// Name is the file's name in the dataset folder.
	Name string
	// URL is where it is downloaded from.
	URL string
	// SHA256 is the hex SHA-256 of its bytes; a download with another is refused.
	SHA256 string
}

// PaperStats are the statistics of a dataset in the paper's dataset table.
type PaperStats struct {
	N, Edges, M int
	// ClassSizes holds the number of vertices of each class, largest first.
	ClassSizes []int
}

// Base URLs of the public sources.
const (
	linqsBase = "https://linqs-data.soe.ucsc.edu/public/lbc/"
	nagcBase  = "https://raw.githubusercontent.com/seijimaekawa/NAGC/master/NAGC/data/"
)

// FetchSources returns where the four datasets of the paper are published:
//
//	dataset   source                                                   verified by
//	cora      LINQS  linqs-data.soe.ucsc.edu/public/lbc/cora.tgz       statistics
//	citeseer  LINQS  linqs-data.soe.ucsc.edu/public/lbc/citeseer.tgz   statistics
//	webkb     NAGC authors' repository, NAGC/data/WebKB_univ/*         SHA-256 + statistics
//	polblog   NAGC authors' repository, NAGC/data/polblog/*            SHA-256 + statistics
//
// The WebKB and polblog files are the ones the harness's own copies were taken from, so
// their SHA-256 is pinned. The LINQS archives are not pinned (their vertex ids differ
// from the copies the harness was developed with): a download of them is accepted only
// when its statistics (n, edges, m, class sizes) equal the paper's.
func FetchSources() []FetchSource {
	webkb := []FetchFile{
		{"cornell.cites", "", "9b553733f8621bde1e149b2570da31701d6c41ac1263a4d1e94bc9fd08054a13"},
		{"cornell.content", "", "b9125977b760b5f7067355f0e0b62b8ea716d5048bff9fc1385ab6316a03472e"},
		{"texas.cites", "", "c7b6cc42170870e4470dafd9ad9330422d42ae2a1f3a746aba93039dc8b41710"},
		{"texas.content", "", "ba9ae10d240975af78e225b810111208f19333a3300d870c93c1dec8df70f3ee"},
		{"washington.cites", "", "7aa0e59b0dcba44f63fe2248671bb4c551e7322ecb512284732a08a968759223"},
		{"washington.content", "", "44c9d29f9e6592114af086b8337be60dd5aecff385d1b3c10110a88c1c8cf0d0"},
		{"wisconsin.cites", "", "f5b60f45a277d93f4e883d8845b4e81fda632818ba0fe8ab8d118d9d2a9e9c73"},
		{"wisconsin.content", "", "34e364d9ef0b89043a65f706d415ffd11475a677285cf61bd1d1268aae7fd7d5"},
	}
	for i := range webkb {
		webkb[i].URL = nagcBase + "WebKB_univ/" + webkb[i].Name
	}
	polblog := []FetchFile{
		{"polblog.cites", nagcBase + "polblog/polblog.cites", "ae1281da9b4336f21f01890da40315fcc8bd93cdd3f55f78fa161398b0d6a534"},
		{"polblog.content", nagcBase + "polblog/polblog.content", "51dbd248189510a92e6577353084775341714873670fe5998e063c67cbf09637"},
	}
	return []FetchSource{
		{Name: "webkb", Files: webkb,
			Paper: PaperStats{N: 877, Edges: 1480, M: 1703, ClassSizes: []int{265, 230, 195, 187}}},
		{Name: "citeseer", Archive: linqsBase + "citeseer.tgz",
			Paper: PaperStats{N: 3312, Edges: 4660, M: 3703, ClassSizes: []int{701, 668, 596, 590, 508, 249}}},
		{Name: "cora", Archive: linqsBase + "cora.tgz",
			Paper: PaperStats{N: 2708, Edges: 5278, M: 1433, ClassSizes: []int{818, 426, 418, 351, 298, 217, 180}}},
		{Name: "polblog", Files: polblog,
			Paper: PaperStats{N: 1490, Edges: 16630, M: 7, ClassSizes: []int{758, 732}}},
	}
}

// FetchOptions control Fetch. The zero value fetches into DefaultDir() from the public
// sources.
type FetchOptions struct {
	// Dir is the folder the dataset folder is created in (default DefaultDir()).
	Dir string
	// BaseURL, when set, replaces the scheme and host of every source URL (a mirror, or
	// a test server): "http://127.0.0.1:8080" fetches
	// http://127.0.0.1:8080/public/lbc/cora.tgz for LINQS's cora.tgz.
	BaseURL string
	// Client makes the requests (default: a client with a 10-minute timeout).
	Client *http.Client
	// Attempts is how often a failed, truncated or corrupt download is tried in all
	// (default 3); Backoff is the wait before the first retry, doubled for each next one
	// (default 1 s).
	Attempts int
	Backoff  time.Duration
	// MaxBytes bounds each download and the bytes an archive may expand to
	// (default 512 MiB).
	MaxBytes int64
	// Log receives one line per step (nil: none).
	Log io.Writer
}

// FetchResult describes a fetched dataset.
type FetchResult struct {
	// Dir is the dataset's folder.
	Dir string
	// Stats are the loaded graph's statistics.
	Stats Stats
	// Present is true when the folder already held the dataset and nothing was
	// downloaded.
	Present bool
}

// FetchError is a failed fetch: the dataset, and why.
type FetchError struct {
	Name string
	Err  error
}

func (e *FetchError) Error() string { return fmt.Sprintf("fetch %s: %v", e.Name, e.Err) }
func (e *FetchError) Unwrap() error { return e.Err }

// fetchDefaults returns opt with its defaults filled in.
func fetchDefaults(opt FetchOptions) (FetchOptions, error) {
	if opt.Dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return opt, err
		}
		opt.Dir = d
	}
	if opt.Client == nil {
		opt.Client = &http.Client{Timeout: 10 * time.Minute}
	}
	if opt.Attempts < 1 {
		opt.Attempts = 3
	}
	if opt.Backoff <= 0 {
		opt.Backoff = time.Second
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 512 << 20
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	return opt, nil
}

// Fetch downloads the paper's dataset name (see FetchSources) into opt.Dir/name.
//
// Everything is downloaded into a hidden staging folder inside opt.Dir (each file first
// to a ".part" file), checked, and only then renamed into place, so that opt.Dir/name is
// either absent or the whole verified dataset: a failed, interrupted or refused fetch
// leaves nothing behind but, after a kill, a hidden staging folder that the next Fetch
// of the same dataset removes. Each download is tried opt.Attempts times, with backoff,
// when it fails, is truncated (fewer bytes than announced) or has the wrong SHA-256.
// An archive is extracted without ever writing outside the staging folder: it is
// refused whole if an entry has an absolute path, a ".." element, a backslash, is a
// link or anything but a regular file or folder, or if it expands beyond opt.MaxBytes;
// only its *.content and *.cites files are kept. The downloaded graph must load and
// have the paper's statistics (n, edges, m, class sizes), else it is deleted and the
// error says which statistic differs.
//
// The folder opt.Dir is created if missing (with its parents).
//
// When opt.Dir/name already exists, Fetch downloads nothing: it returns the folder
// with Present set if it holds the paper's dataset, else an error (it never replaces
// a folder it did not create). Two fetches of the same dataset into the same folder
// must not run at once.
func Fetch(ctx context.Context, name string, opt FetchOptions) (*FetchResult, error) {
	opt, err := fetchDefaults(opt)
	if err != nil {
		return nil, &FetchError{name, err}
	}
	var src *FetchSource
	for _, s := range FetchSources() {
		if s.Name == name {
			src = &s
			break
		}
	}
	if src == nil {
		return nil, &FetchError{name, fmt.Errorf("unknown dataset (fetchable: %s)", strings.Join(PaperNames(), ", "))}
	}
	res, err := fetch(ctx, src, opt)
	if err != nil {
		return nil, &FetchError{name, err}
	}
	return res, nil
}

func fetch(ctx context.Context, src *FetchSource, opt FetchOptions) (res *FetchResult, err error) {
	final := filepath.Join(opt.Dir, src.Name)
	if _, err := os.Lstat(final); err == nil {
		g, err := LoadLINQS(final)
		if err == nil {
			err = src.Paper.check(g)
		}
		if err != nil {
			return nil, fmt.Errorf("%s already exists and does not hold the paper's dataset (%v); remove it to fetch again", final, err)
		}
		fmt.Fprintf(opt.Log, "%s: already present in %s\n", src.Name, final)
		return &FetchResult{Dir: final, Stats: g.Stats(), Present: true}, nil
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, err
	}
	// What an earlier, killed fetch of this dataset left.
	stale, _ := filepath.Glob(filepath.Join(opt.Dir, stagingPrefix(src.Name)+"*"))
	for _, s := range stale {
		fmt.Fprintf(opt.Log, "%s: removing %s, left by an interrupted fetch\n", src.Name, s)
		if err := os.RemoveAll(s); err != nil {
			return nil, err
		}
	}
	staging, err := os.MkdirTemp(opt.Dir, stagingPrefix(src.Name))
	if err != nil {
		return nil, err
	}
	defer func() {
		if rmErr := os.RemoveAll(staging); rmErr != nil && err == nil {
			err = rmErr
		}
	}()
	data := filepath.Join(staging, src.Name)
	if err := os.Mkdir(data, 0o755); err != nil {
		return nil, err
	}

	if src.Archive != "" {
		archive := filepath.Join(staging, path.Base(src.Archive))
		if err := download(ctx, opt, sourceURL(src.Archive, opt.BaseURL), archive, ""); err != nil {
			return nil, err
		}
		if err := extractTarGz(archive, data, opt.MaxBytes); err != nil {
			return nil, fmt.Errorf("%s: %w", sourceURL(src.Archive, opt.BaseURL), err)
		}
		if err := os.Remove(archive); err != nil {
			return nil, err
		}
	} else {
		for _, f := range src.Files {
			if err := download(ctx, opt, sourceURL(f.URL, opt.BaseURL), filepath.Join(data, f.Name), f.SHA256); err != nil {
				return nil, err
			}
		}
	}

	g, err := LoadLINQS(data)
	if err != nil {
		return nil, fmt.Errorf("the download is not a LINQS dataset, deleted it: %w", err)
	}
	if err := src.Paper.check(g); err != nil {
		return nil, fmt.Errorf("the download does not match the paper's dataset table, deleted it: %w", err)
	}
	if err := os.Rename(data, final); err != nil {
		return nil, err
	}
	st := g.Stats()
	st.Name = src.Name
	fmt.Fprintf(opt.Log, "%s: verified (n=%d, edges=%d, m=%d, k1=%d) → %s\n", src.Name, st.N, st.Edges, st.M, st.K, final)
	return &FetchResult{Dir: final, Stats: st}, nil
}

// stagingPrefix is the name prefix of the staging folders of dataset name.
func stagingPrefix(name string) string { return "." + name + ".fetch-" }

// check compares g's statistics with the paper's.
func (p PaperStats) check(g *Graph) error {
	var diffs []string
	if n := g.N(); n != p.N {
		diffs = append(diffs, fmt.Sprintf("n = %d, want %d", n, p.N))
	}
	if e := g.Edges(); e != p.Edges {
		diffs = append(diffs, fmt.Sprintf("edges = %d, want %d", e, p.Edges))
	}
	if m := g.M(); m != p.M {
		diffs = append(diffs, fmt.Sprintf("m = %d, want %d", m, p.M))
	}
	sizes := g.ClassSizes()
	sort.Sort(sort.Reverse(sort.IntSlice(sizes)))
	if !slices.Equal(sizes, p.ClassSizes) {
		diffs = append(diffs, fmt.Sprintf("class sizes %v, want %v", sizes, p.ClassSizes))
	}
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

// sourceURL returns u with its scheme and host replaced by base's (and base's path, if
// any, put before u's path), or u itself when base is empty.
func sourceURL(u, base string) string {
	if base == "" {
		return u
	}
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return strings.TrimSuffix(base, "/") + p.EscapedPath()
}

// permanentError marks a download failure that retrying cannot mend.
type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }

// download fetches url into dst, trying opt.Attempts times. The bytes go to dst.part
// first, which is renamed to dst only once complete and, when sum is set, of SHA-256 sum.
func download(ctx context.Context, opt FetchOptions, url, dst, sum string) error {
	wait := opt.Backoff
	var err error
	for attempt := 1; attempt <= opt.Attempts; attempt++ {
		fmt.Fprintf(opt.Log, "downloading %s\n", url)
		if err = downloadOnce(ctx, opt, url, dst, sum); err == nil {
			return nil
		}
		var perm permanentError
		if errors.As(err, &perm) || ctx.Err() != nil || attempt == opt.Attempts {
			break
		}
		fmt.Fprintf(opt.Log, "attempt %d of %d failed: %v; retrying in %s\n", attempt, opt.Attempts, err, wait)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
		wait *= 2
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// downloadOnce makes one attempt of download.
func downloadOnce(ctx context.Context, opt FetchOptions, url, dst, sum string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return permanentError{err}
	}
	resp, err := opt.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("%s: HTTP %s", url, resp.Status)
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusRequestTimeout &&
			resp.StatusCode != http.StatusTooManyRequests {
			return permanentError{err}
		}
		return err
	}
	if resp.ContentLength > opt.MaxBytes {
		return permanentError{fmt.Errorf("%s: %d bytes, more than the %d allowed", url, resp.ContentLength, opt.MaxBytes)}
	}
	part := dst + ".part"
	f, err := os.OpenFile(part, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return permanentError{err}
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(resp.Body, opt.MaxBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		err = fmt.Errorf("%s: after %d bytes: %w", url, n, err)
	case n > opt.MaxBytes:
		err = permanentError{fmt.Errorf("%s: more than the %d bytes allowed", url, opt.MaxBytes)}
	case resp.ContentLength >= 0 && n != resp.ContentLength:
		err = fmt.Errorf("%s: truncated: %d of %d bytes", url, n, resp.ContentLength)
	case sum != "" && hex.EncodeToString(h.Sum(nil)) != sum:
		err = fmt.Errorf("%s: SHA-256 %s, want %s", url, hex.EncodeToString(h.Sum(nil)), sum)
	}
	if err != nil {
		os.Remove(part)
		return err
	}
	return os.Rename(part, dst)
}

// maxArchiveEntries bounds the number of entries of an archive.
const maxArchiveEntries = 10000

// extractTarGz writes the *.content and *.cites files of the gzip-compressed tar archive
// into dir (by base name), refusing the whole archive when an entry is unsafe: an
// absolute path, a ".." element, a backslash, a link or special file, two entries of
// the same kept name, more than maxArchiveEntries entries, or more than limit bytes of
// content. Nothing is ever written outside dir; files are created, never overwritten.
func extractTarGz(archive, dir string, limit int64) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("not a gzip archive: %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	var total int64
	kept := 0
	for entries := 0; ; entries++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("corrupt archive: %w", err)
		}
		if entries >= maxArchiveEntries {
			return fmt.Errorf("unsafe archive: more than %d entries", maxArchiveEntries)
		}
		name := hdr.Name
		if err := checkEntryName(name); err != nil {
			return fmt.Errorf("unsafe archive: entry %q: %w", name, err)
		}
		switch hdr.Typeflag {
		case tar.TypeDir, tar.TypeXGlobalHeader:
			continue
		case tar.TypeReg:
		case tar.TypeSymlink, tar.TypeLink:
			return fmt.Errorf("unsafe archive: entry %q is a link (to %q); links are not extracted", name, hdr.Linkname)
		default:
			return fmt.Errorf("unsafe archive: entry %q is not a regular file (type %q)", name, hdr.Typeflag)
		}
		if hdr.Size < 0 || hdr.Size > limit-total {
			return fmt.Errorf("unsafe archive: it expands beyond %d bytes", limit)
		}
		base := path.Base(path.Clean(name))
		ext := path.Ext(base)
		if (ext != ".content" && ext != ".cites") || strings.HasPrefix(base, ".") || strings.Count(path.Clean(name), "/") > 1 {
			continue // a README, a hidden file, or a file in a sub-folder: not the dataset
		}
		out, err := os.OpenFile(filepath.Join(dir, base), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("unsafe archive: two entries named %s", base)
		}
		if err != nil {
			return err
		}
		n, err := io.Copy(out, io.LimitReader(tr, hdr.Size))
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("corrupt archive: entry %q: %w", name, err)
		}
		if n != hdr.Size {
			return fmt.Errorf("corrupt archive: entry %q: %d of %d bytes", name, n, hdr.Size)
		}
		total += n
		kept++
	}
	if kept == 0 {
		return errors.New("the archive holds no .content or .cites file")
	}
	return nil
}

// checkEntryName refuses archive entry names that could lead outside the folder they
// are extracted to.
func checkEntryName(name string) error {
	switch {
	case name == "":
		return errors.New("empty name")
	case strings.HasPrefix(name, "/") || filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return errors.New("absolute path")
	case strings.ContainsAny(name, "\\\x00"):
		return errors.New("backslash or NUL in the name")
	}
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return errors.New(`".." in the path`)
		}
	}
	return nil
}
