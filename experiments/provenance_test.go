package experiments

import (
	"runtime/debug"
	"testing"
)

func TestBuildCommit(t *testing.T) {
	for _, c := range []struct {
		name     string
		bi       *debug.BuildInfo
		want     string
		ok       bool
		wantVers string
	}{
		{name: "no build info", bi: nil},
		{name: "no vcs", bi: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}},
		{name: "clean", bi: &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, want: "abc", ok: true},
		{name: "dirty", bi: &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, {Key: "vcs.revision", Value: "abc"}}}, want: "abc-dirty", ok: true},
		{name: "installed at a version", bi: &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, wantVers: "v1.2.3"},
	} {
		got, ok := buildCommit(c.bi)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: buildCommit = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
		if v := moduleVersion(c.bi); v != c.wantVers {
			t.Errorf("%s: moduleVersion = %q, want %q", c.name, v, c.wantVers)
		}
	}
}

// TestGitCommitOutsideCheckout checks that a sweep started in another git repository does
// not record that repository's commit as nagc's.
func TestGitCommitOutsideCheckout(t *testing.T) {
	inside := gitCommit()
	if inside == "unknown" || len(inside) < 40 {
		t.Skipf("no git checkout to compare with (got %q)", inside)
	}
	t.Chdir(t.TempDir())
	if got := gitCommit(); got != "unknown" {
		t.Errorf("outside the checkout gitCommit() = %q, want unknown (test binaries carry no build stamp)", got)
	}
}

// TestMaximisers checks the algorithms a sweep's provenance records as maximising their
// objective: each once, sorted.
func TestMaximisers(t *testing.T) {
	cfg := &Config{Methods: []MethodSpec{{Algorithm: posString{Value: "nagc"}}, {Algorithm: posString{Value: "bagc"}},
		{Algorithm: posString{Value: "sa-cluster"}}, {Algorithm: posString{Value: "bagc"}}}}
	if got := maximisers(cfg); len(got) != 2 || got[0] != "bagc" || got[1] != "sa-cluster" {
		t.Errorf("maximisers = %v, want [bagc sa-cluster]", got)
	}
}
