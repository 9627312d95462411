// Package pdftext reads the page size and text of a PDF, as pdftotext would, for tests.
//
// It reads the one-page PDFs the project's canvas (internal/pdfcanvas) writes: fonts
// embedded as Type0 with two-byte codes (Identity-H) and a ToUnicode map, text shown with
// Tj and TJ. Parsing of the file and its content streams is rsc.io/pdf's; its own text
// extraction leaves two-byte codes undecoded, so this package decodes them through the
// fonts' ToUnicode maps.
package pdftext

import (
	"fmt"
	"strings"
	"unicode/utf16"

	"rsc.io/pdf"
)

// Page is a PDF page: its size in points (from the MediaBox, inherited from the page
// tree where the page has none), its text, one line per text object in drawing order,
// and the base names of its fonts with whether each is embedded.
type Page struct {
	Width, Height float64
	Text          string
	Fonts         map[string]bool
}

// Lines returns the page's non-empty text lines.
func (p Page) Lines() []string {
	var out []string
	for _, l := range strings.Split(p.Text, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Read reads page 1 of the PDF at path.
func Read(path string) (page Page, err error) {
	r, err := pdf.Open(path)
	if err != nil {
		return page, fmt.Errorf("%s: %w", path, err)
	}
	defer func() { // rsc.io/pdf panics on malformed input
		if e := recover(); e != nil {
			err = fmt.Errorf("%s: %v", path, e)
		}
	}()
	if r.NumPage() < 1 {
		return page, fmt.Errorf("%s: no page", path)
	}
	p := r.Page(1)
	box := p.V.Key("MediaBox")
	for n := p.V.Key("Parent"); box.IsNull() && !n.IsNull(); n = n.Key("Parent") {
		box = n.Key("MediaBox")
	}
	if box.Len() != 4 {
		return page, fmt.Errorf("%s: page 1 has no MediaBox", path)
	}
	page.Width = box.Index(2).Float64() - box.Index(0).Float64()
	page.Height = box.Index(3).Float64() - box.Index(1).Float64()

	page.Fonts = map[string]bool{}
	maps := map[string]map[string]string{}
	for _, name := range p.Resources().Key("Font").Keys() {
		font := p.Font(name)
		desc := font.V.Key("DescendantFonts").Index(0).Key("FontDescriptor")
		if desc.IsNull() {
			desc = font.V.Key("FontDescriptor")
		}
		embedded := false
		for _, k := range []string{"FontFile", "FontFile2", "FontFile3"} {
			embedded = embedded || desc.Key(k).Kind() == pdf.Stream
		}
		page.Fonts[font.BaseFont()] = embedded
		if tu := font.V.Key("ToUnicode"); !tu.IsNull() {
			maps[name] = toUnicode(tu, font.V)
		}
	}

	var b strings.Builder
	var cur map[string]string
	var fault error
	show := func(raw string) {
		for len(raw) >= 2 && fault == nil {
			s, ok := cur[raw[:2]]
			if !ok {
				fault = fmt.Errorf("%s: code %x is not in its font's ToUnicode map", path, raw[:2])
				return
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
			if cur = maps[args[0].Name()]; cur == nil && fault == nil {
				fault = fmt.Errorf("%s: font %s has no ToUnicode map: its text cannot be read", path, args[0].Name())
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
			b.WriteString("\n")
		}
	})
	page.Text = b.String()
	return page, fault
}

// toUnicode reads a ToUnicode CMap (bfchar and bfrange entries of two-byte codes) into a
// map from code to text. The CMap program's "findresource" and "begincmap" want a
// dictionary on the stack and rsc.io/pdf exports no way to make one: scratch, a
// dictionary of the document read before, stands in (the program's defs land in it).
func toUnicode(v, scratch pdf.Value) map[string]string {
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
				if len(lo) != 2 || len(hi) != 2 {
					continue
				}
				a, z := int(lo[0])<<8|int(lo[1]), int(hi[0])<<8|int(hi[1])
				for c := a; c <= z; c++ {
					code := string([]byte{byte(c >> 8), byte(c)})
					if dst.Kind() == pdf.Array {
						m[code] = utf16be(dst.Index(c - a).RawString())
						continue
					}
					d := []rune(utf16be(dst.RawString()))
					if len(d) > 0 {
						d[len(d)-1] += rune(c - a)
					}
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
