package paperplot

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"rsc.io/pdf"
)

// pdfPage returns the size in points (from the MediaBox) and the text of page 1 of a
// PDF, as pdftotext would read it (the text layer, decoded through the fonts' ToUnicode
// maps), in drawing order.
func pdfPage(t *testing.T, path string) (w, h float64, text string) {
	t.Helper()
	r, err := pdf.Open(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if r.NumPage() != 1 {
		t.Fatalf("%s: %d pages, want 1", path, r.NumPage())
	}
	p := r.Page(1)
	box := p.V.Key("MediaBox")
	for n := p.V.Key("Parent"); box.IsNull() && !n.IsNull(); n = n.Key("Parent") {
		box = n.Key("MediaBox") // inherited from the page tree
	}
	if box.Len() != 4 {
		t.Fatalf("%s: MediaBox %v", path, box)
	}
	w, h = box.Index(2).Float64()-box.Index(0).Float64(), box.Index(3).Float64()-box.Index(1).Float64()
	fonts := map[string]map[string]string{}
	for _, name := range p.Resources().Key("Font").Keys() {
		font := p.Font(name)
		if font.V.Key("DescendantFonts").Index(0).Key("FontDescriptor").Key("FontFile2").Kind() != pdf.Stream {
			t.Errorf("%s: font %s is not embedded", path, font.BaseFont())
		}
		fonts[name] = toUnicode(t, font.V.Key("ToUnicode"), font.V)
	}
	// The text-showing operators of the content stream: Tf selects a font by resource
	// name, Tj and TJ show strings of two-byte codes (Identity-H).
	var b strings.Builder
	var cur map[string]string
	show := func(raw string) {
		for len(raw) >= 2 {
			s, ok := cur[raw[:2]]
			if !ok {
				t.Fatalf("%s: code %x not in its font's ToUnicode map", path, raw[:2])
			}
			b.WriteString(s)
			raw = raw[2:]
		}
	}
	pdf.Interpret(p.V.Key("Contents"), func(stk *pdf.Stack, op string) {
		n := stk.Len()
		args := make([]pdf.Value, n)
		for i := n - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		switch op {
		case "Tf":
			cur = fonts[args[0].Name()]
			if cur == nil {
				t.Fatalf("%s: font %s has no ToUnicode map: its text cannot be extracted", path, args[0].Name())
			}
		case "Tj":
			show(args[0].RawString())
		case "TJ":
			for i := 0; i < args[0].Len(); i++ {
				if a := args[0].Index(i); a.Kind() == pdf.String {
					show(a.RawString())
				}
			}
		case "ET":
			b.WriteString("\n") // one line per text object
		}
	})
	return w, h, b.String()
}

// toUnicode reads a ToUnicode CMap (bfchar and bfrange entries of two-byte codes) into
// a map from code to text. The CMap program's "findresource" and "begincmap" want a
// dictionary on the stack and rsc.io/pdf exports no way to make one: scratch, a dictionary
// of the document read before, stands in (the program's defs land in it).
func toUnicode(t *testing.T, v, scratch pdf.Value) map[string]string {
	t.Helper()
	m := map[string]string{}
	n := 0
	pdf.Interpret(v, func(stk *pdf.Stack, op string) {
		switch op {
		case "beginbfchar", "beginbfrange", "begincodespacerange":
			n = int(stk.Pop().Int64())
		case "endbfchar":
			for range n {
				dst, src := stk.Pop().RawString(), stk.Pop().RawString()
				m[src] = utf16be(dst)
			}
		case "endbfrange":
			for range n {
				dst, hi, lo := stk.Pop(), stk.Pop().RawString(), stk.Pop().RawString()
				a, z := int(lo[0])<<8|int(lo[1]), int(hi[0])<<8|int(hi[1])
				for c := a; c <= z; c++ {
					code := string([]byte{byte(c >> 8), byte(c)})
					if dst.Kind() == pdf.Array {
						m[code] = utf16be(dst.Index(c - a).RawString())
						continue
					}
					d := []rune(utf16be(dst.RawString()))
					d[len(d)-1] += rune(c - a)
					m[code] = string(d)
				}
			}
		case "endcodespacerange":
			for range 2 * n {
				stk.Pop()
			}
		case "findresource":
			stk.Pop()
			stk.Pop()
			stk.Push(scratch)
		case "begincmap":
			stk.Push(scratch)
		case "endcmap":
			stk.Pop()
		case "defineresource":
			stk.Pop()
			v := stk.Pop()
			stk.Pop()
			stk.Push(v)
		}
	})
	if len(m) == 0 {
		t.Fatalf("empty ToUnicode map")
	}
	return m
}

// utf16be decodes UTF-16BE text.
func utf16be(s string) string {
	u := make([]uint16, len(s)/2)
	for i := range u {
		u[i] = uint16(s[2*i])<<8 | uint16(s[2*i+1])
	}
	return string(utf16.Decode(u))
}

// TestPDFSizeAndText writes each figure kind as PDF and reads back, as pdftotext would,
// its page size (the style's, to a hundredth of a point), its embedded fonts and its
// text: the Greek parameter names, the metric's axis label, exponents as text after
// their base, the scale factor on the loss axis.
func TestPDFSizeAndText(t *testing.T) {
	dir := outDir(t)
	figs := figureKinds(t)
	for _, tc := range []struct {
		name string
		w, h float64
		want []string
	}{
		{"sensitivity", 237.6, 148.5, []string{"λ", "ARI", "ρ = 0.1", "ρ = 0.9", "SNMF", "10\n−10", "10\n−2", "0.30\n0.35\n0.40\n0.45\n0.50"}},
		{"sensitivity_band_page", 504, 168, []string{"λ", "ARI", "ρ = 0.5"}},
		{"heatmap", 237.6, 148.5, []string{"k\n2", "λ", "NMI", "0.250", "10\n−6"}},
		{"objective", 237.6, 148.5, []string{"iteration", "objective (×10\n6\n)", "5.575\n5.580"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := figs[tc.name].Save(filepath.Join(dir, tc.name), PDF)
			if err != nil {
				t.Fatal(err)
			}
			w, h, text := pdfPage(t, files[0])
			if math.Abs(w-tc.w) > 0.01 || math.Abs(h-tc.h) > 0.01 {
				t.Errorf("page %.2f × %.2f pt, want %.2f × %.2f", w, h, tc.w, tc.h)
			}
			var lines []string
			for _, l := range strings.Split(text, "\n") {
				if l != "" {
					lines = append(lines, l)
				}
			}
			joined := strings.Join(lines, "\n")
			for _, s := range tc.want {
				if !strings.Contains(joined, s) {
					t.Errorf("text has no %q:\n%s", s, joined)
				}
			}
		})
	}
}
