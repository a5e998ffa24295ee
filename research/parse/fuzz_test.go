package parse

import (
	"strings"
	"testing"
)

// FuzzLayout feeds arbitrary bytes to the bbox reader and the layout: no
// panic, and the output stays proportional to the input.
func FuzzLayout(f *testing.F) {
	f.Add(`<doc><page width="600" height="800"><flow><block xMin="40" yMin="60" xMax="290" yMax="80"><line xMin="40" yMin="60" xMax="290" yMax="70"><word xMin="40" yMin="60" xMax="80" yMax="70">1 INTRO-</word></line><line xMin="40" yMin="71" xMax="290" yMax="80"><word xMin="40" yMin="71" xMax="80" yMax="80">duction</word></line></block></flow></page></doc>`)
	f.Add(`<page width="0" height="-1"><block><line><word xMin="NaN">x</word></line></block></page>`)
	f.Add("<page><block><line><word>\x0f\xff</word>")
	f.Fuzz(func(t *testing.T, in string) {
		pages, err := readBBox(strings.NewReader(in), 50)
		if err != nil {
			return
		}
		md := layoutMarkdown(pages)
		if len(md) > 4*len(in)+16 {
			t.Fatalf("output %d bytes from %d bytes of input", len(md), len(in))
		}
	})
}
