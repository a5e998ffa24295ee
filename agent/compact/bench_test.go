package compact

import (
	"fmt"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// longSession is a recorded-shape session: a question, then rounds of one
// or two tool calls with results of a few KB, and short assistant notes.
func longSession(n int) []llm.Message {
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: strings.Repeat("system prompt ", 100)},
		{Role: llm.RoleUser, Content: "Survey the literature on the Perseus cluster cool core."}}
	for i := 0; len(msgs) < n; i++ {
		calls := []llm.ToolCall{{ID: fmt.Sprint("a", i), Name: "search_papers", Arguments: `{"query":"perseus cool core"}`}}
		if i%3 == 0 {
			calls = append(calls, llm.ToolCall{ID: fmt.Sprint("b", i), Name: "read_file", Arguments: `{"path":"library/x.md"}`})
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: "Looking further.", ToolCalls: calls})
		for _, c := range calls {
			msgs = append(msgs, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name,
				Content: strings.Repeat("2019ApJ...871...23F  The cooling time in the core is ... ", 60)})
		}
	}
	return msgs[:SafeCut(msgs, n)]
}

// BenchmarkLayers500 times each size layer on a 500-message conversation
// and reports the tokens it saves (estimated).
func BenchmarkLayers500(b *testing.B) {
	msgs := longSession(500)
	budget := DefaultBudget()
	before := Estimate(msgs)
	layers := []struct {
		name string
		run  func() []llm.Message
	}{
		{"L0-snip", func() []llm.Message { out, _ := snip(msgs, budget); return out }},
		{"L1-micro", func() []llm.Message { out, _ := micro(msgs, MicroKeep); return out }},
		{"L3-aggressive", func() []llm.Message { out, _ := micro(msgs, AggressiveKeep); return out }},
	}
	for _, l := range layers {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			var out []llm.Message
			for i := 0; i < b.N; i++ {
				out = l.run()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/op")
			b.ReportMetric(float64(before-Estimate(out)), "tokens-saved")
			b.ReportMetric(float64(before), "tokens-before")
		})
	}
	b.Run("Compress", func(b *testing.B) {
		b.ReportAllocs()
		var res Result
		for i := 0; i < b.N; i++ {
			res, _ = Compress(b.Context(), msgs, Options{Budget: budget})
		}
		b.ReportMetric(float64(before-Estimate(res.Messages)), "tokens-saved")
	})
}
