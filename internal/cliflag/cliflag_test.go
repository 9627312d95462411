package cliflag

import (
	"bytes"
	"errors"
	"flag"
	"reflect"
	"strings"
	"testing"
)

// TestParse checks the messages of bad options, as the user reads them, and options
// given after positional arguments.
func TestParse(t *testing.T) {
	tests := []struct {
		args []string
		pos  []string
		msg  string // "" for no error
	}{
		{args: []string{"a", "--k1", "3", "b"}, pos: []string{"a", "b"}},
		{args: []string{"--kl", "3"}, msg: "nagc x: unknown option --kl (did you mean --k1?)"},
		{args: []string{"--label-file", "f"}, msg: "nagc x: unknown option --label-file (did you mean --labels FILE?)"},
		{args: []string{"--attributes", "f"}, msg: "nagc x: unknown option --attributes (did you mean --features FILE?)"},
		{args: []string{"--results", "r"}, msg: "nagc x: unknown option --results: nagc x takes the results folder itself as its argument (nagc x RESULTS_DIR)"},
		{args: []string{"--zzzzzz"}, msg: "nagc x: unknown option --zzzzzz (the options are listed below)"},
		{args: []string{"--k1"}, msg: "nagc x: --k1 needs a value (--k1 VALUE)"},
		{args: []string{"--k1", "two"}, msg: `nagc x: --k1 "two": want a whole number`},
		{args: []string{"--rho", "high"}, msg: `nagc x: --rho "high": want a number`},
		{args: []string{"--json=maybe"}, msg: `nagc x: --json "maybe": want true or false (or --json alone for true)`},
		{args: []string{"---k1", "3"}, msg: `nagc x: bad option "---k1": write --name or --name=value`},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			fs := NewSet("nagc", "x", "x [options]", &out)
			fs.Int("k1", 0, "clusters")
			fs.Float64("rho", 0, "weight")
			fs.Bool("json", false, "JSON")
			fs.String("labels", "", "labels")
			fs.String("features", "", "features")
			pos, err := Parse(fs, tc.args)
			if tc.msg == "" {
				if err != nil || !reflect.DeepEqual(pos, tc.pos) {
					t.Fatalf("%q, %v; want %q", pos, err, tc.pos)
				}
				return
			}
			if !errors.Is(err, ErrUsage) {
				t.Fatalf("error %v, want ErrUsage", err)
			}
			first, _, _ := strings.Cut(out.String(), "\n")
			if first != tc.msg {
				t.Errorf("message %q, want %q", first, tc.msg)
			}
			if !strings.Contains(out.String(), "usage: nagc x [options]") {
				t.Errorf("no usage after the message:\n%s", out.String())
			}
		})
	}
}

// TestParseOne checks that a count of positional arguments other than one is ErrUsage.
func TestParseOne(t *testing.T) {
	for _, args := range [][]string{nil, {"a", "b"}} {
		fs := NewSet("nagc", "x", "x ARG", &bytes.Buffer{})
		if _, err := ParseOne(fs, args); !errors.Is(err, ErrUsage) {
			t.Errorf("%q: %v, want ErrUsage", args, err)
		}
	}
	fs := NewSet("nagc", "x", "x ARG", &bytes.Buffer{})
	if a, err := ParseOne(fs, []string{"a"}); a != "a" || err != nil {
		t.Errorf("%q, %v", a, err)
	}
	if _, err := Parse(NewSet("nagc", "x", "x", &bytes.Buffer{}), []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
}

// TestKeyValues checks --opt key=value and how values are read.
func TestKeyValues(t *testing.T) {
	kv := KeyValues{}
	for _, s := range []string{"a=true", "b=3", "c=0.5", "d=kmeans", "e=1e-4", "f=True"} {
		if err := kv.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	want := KeyValues{"a": true, "b": 3, "c": 0.5, "d": "kmeans", "e": 1e-4, "f": "True"}
	if !reflect.DeepEqual(kv, want) {
		t.Errorf("%v, want %v", kv, want)
	}
	for _, bad := range []string{"novalue", "=3"} {
		if err := kv.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := List(" a, ,b,"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("List: %q", got)
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"res", "--rule", "two-view"}, "res --rule two-view"},
		{[]string{"my results", "--out", "a\tb"}, "'my results' --out 'a\tb'"},
		{[]string{"it's", `say "x"`, "$HOME"}, `'it'\''s' 'say "x"' '$HOME'`},
	} {
		if got := Quote(tc.args); got != tc.want {
			t.Errorf("Quote(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
