// Package cliflag parses a command's options with the standard flag package and reports
// every fault in the user's words: an unknown option with the nearest known one, a
// missing or malformed value with what is wanted, options after positional arguments.
package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/internal/suggest"
)

// ErrUsage marks an error already reported together with the usage text.
var ErrUsage = errors.New("usage")

// NewSet returns the flag set of command name of the program prog ("nagc"), which
// reports errors and its usage, "usage: prog usageLine" and the options, on stderr.
func NewSet(prog, name, usageLine string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(prog+" "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s %s\n\noptions:\n", prog, usageLine)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args, allowing options after positional arguments, and returns the
// positional arguments. A bad option is reported in the user's words (Message), then
// the usage, and is ErrUsage; -h prints the usage and is flag.ErrHelp.
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseQuietly(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
		if len(pos) > 0 && strings.HasPrefix(pos[len(pos)-1], "-") {
			return nil, fmt.Errorf("unexpected %q", pos[len(pos)-1])
		}
	}
}

// ParseOne is Parse for commands taking exactly one positional argument, which it
// returns; any other count prints the usage and is ErrUsage.
func ParseOne(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := Parse(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		fs.Usage()
		return "", ErrUsage
	}
	return pos[0], nil
}

// parseQuietly runs fs.Parse(args), but reports a bad option as Message does instead of
// in the flag package's words, then the usage.
func parseQuietly(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		usage()
		return err
	}
	fmt.Fprintf(out, "%s: %s\n", fs.Name(), Message(fs, err))
	usage()
	return ErrUsage
}

// hints maps options a user may type to the option of another name that does it, with
// the value it takes.
var hints = map[string][2]string{
	"label-file":    {"labels", "FILE"},
	"label_file":    {"labels", "FILE"},
	"results-dir":   {"results", "DIR"},
	"out-dir":       {"out", "DIR"},
	"threads":       {"workers", "N"},
	"jobs":          {"workers", "N"},
	"attributes":    {"features", "FILE"},
	"attrs":         {"features", "FILE"},
	"node-features": {"features", "FILE"},
	"feat":          {"features", "FILE"},
}

// Message rewrites an error of fs.Parse (the flag package's wording, such as "flag
// provided but not defined: -x") as a message naming the option as typed (--x) with
// what is wrong and, for an unknown option, the nearest known one.
func Message(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimLeft(name, "-")
		if name == "results" {
			// run and status take CONFIG --results DIR; report, merge and summary the
			// folder itself.
			return fmt.Sprintf("unknown option --results: %s takes the results folder itself as its argument (%s RESULTS_DIR)", fs.Name(), fs.Name())
		}
		if hint, ok := hints[name]; ok && fs.Lookup(hint[0]) != nil {
			return fmt.Sprintf("unknown option --%s (did you mean --%s %s?)", name, hint[0], hint[1])
		}
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
		if c := suggest.Closest(strings.ReplaceAll(name, "_", "-"), known); c != "" {
			return fmt.Sprintf("unknown option --%s (did you mean --%s?)", name, c)
		}
		return fmt.Sprintf("unknown option --%s (the options are listed below)", name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Sprintf("--%s needs a value (--%s VALUE)", strings.TrimLeft(name, "-"), strings.TrimLeft(name, "-"))
	}
	if rest, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return fmt.Sprintf("bad option %q: write --name or --name=value", rest)
	}
	// invalid value "V" for flag -NAME: WHY, and invalid boolean value "V" for -NAME: WHY.
	var value, name, why string
	if strings.HasPrefix(msg, "invalid ") {
		if q := strings.Index(msg, `"`); q >= 0 {
			if v, err := strconv.QuotedPrefix(msg[q:]); err == nil {
				value, _ = strconv.Unquote(v)
				rest := msg[q+len(v):]
				if i := strings.Index(rest, "-"); i >= 0 {
					name, why, _ = strings.Cut(rest[i+1:], ": ")
				}
			}
		}
	}
	f := fs.Lookup(name)
	if f == nil {
		return msg
	}
	want := ""
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case bool:
			want = "want true or false (or --" + name + " alone for true)"
		case int, int64, uint, uint64:
			want = "want a whole number"
		case float64:
			want = "want a number"
		}
	}
	if want == "" {
		want = why
	}
	return fmt.Sprintf("--%s %q: %s", name, value, want)
}

// KeyValues collects repeated key=value options (--opt k=v), each value read as a bool,
// an int, a float or else a string (Scalar).
type KeyValues map[string]any

// String implements flag.Value.
func (kv KeyValues) String() string { return fmt.Sprint(map[string]any(kv)) }

// Set implements flag.Value.
func (kv KeyValues) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	kv[k] = Scalar(v)
	return nil
}

// Scalar reads a command-line value as a bool ("true", "false"), an int, a float or,
// failing those, the string itself.
func Scalar(v string) any {
	if b, err := strconv.ParseBool(v); err == nil && (v == "true" || v == "false") {
		return b
	}
	if i, err := strconv.Atoi(v); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}

// List splits a comma-separated list, dropping empty items.
func List(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// Quote returns args as a shell reads them back: joined by spaces, each argument that
// holds a space, tab, quote or $ put in single quotes, a single quote inside it written
// as a quote that closes, an escaped quote and a quote that reopens.
func Quote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " \t'\"$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
