package compact

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
)

// checkAllLayers runs every layer and Compress on one random conversation
// and asserts the shared properties: the invariant, the system message
// first, no growth, and an untouched input.
func checkAllLayers(t *testing.T, seed1, seed2 uint64) {
	r := rand.New(rand.NewPCG(seed1, seed2))
	in := randomConversation(r)
	if err := Check(in); err != nil {
		t.Fatalf("generator made an invalid conversation: %v", err)
	}
	orig := clone(in)
	b := Budget{MaxMessages: 10 + r.IntN(60), CharLimit: 1000 + r.IntN(16000)}.withDefaults()
	sum := &fixedSummary{text: randomText(r, 900)}
	if r.IntN(3) == 0 {
		sum.err = errSummary
	}

	out, _ := snip(in, b)
	assertValid(t, "snip", in, out)
	out, _ = micro(in, MicroKeep)
	assertValid(t, "micro", in, out)
	out, _, _ = auto(context.Background(), in, sum)
	assertValid(t, "auto", in, out)
	out, _ = micro(in, AggressiveKeep)
	assertValid(t, "aggressive", in, out)
	if short, _ := snip(in, Budget{MaxMessages: 3}.withDefaults()); len(short) < len(in) {
		out, _ = identity(short, Options{Question: randomText(r, 100)})
		if err := Check(out); err != nil || out[0].Role != llm.RoleSystem {
			t.Fatalf("identity: %v", err)
		}
	}

	for _, force := range []bool{false, true} {
		res, err := Compress(context.Background(), in, Options{Budget: b, Summarizer: sum, Question: "q", Force: force})
		if err != nil {
			t.Fatal(err)
		}
		assertValid(t, "Compress "+res.Method, in, res.Messages)
		if res.Before != len(in) || res.After != len(res.Messages) {
			t.Fatalf("counts %d→%d for %d→%d messages", res.Before, res.After, len(in), len(res.Messages))
		}
		if res.Method == "" && !equalMsgs(in, res.Messages) {
			t.Fatal("no method named but the conversation changed")
		}
		if !force && res.Method == "" && Chars(in) > b.charCeiling() {
			// Over the size limit yet nothing done: only possible when no
			// layer can act. (Over MaxMessages alone may leave snip nothing
			// to remove between two safe cuts.)
			if m, ok := micro(in, AggressiveKeep); ok {
				t.Fatalf("over limits but untouched although aggressive micro could act (%d chars)", Chars(m))
			}
		}
	}
	if !equalMsgs(in, orig) {
		t.Fatal("input was modified")
	}
}

func TestLayersKeepInvariantOnRandomConversations(t *testing.T) {
	for seed := range uint64(500) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { checkAllLayers(t, seed, seed*7919+1) })
	}
}

func FuzzCompress(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(42), uint64(0))
	f.Add(uint64(1<<40), uint64(99))
	f.Fuzz(checkAllLayers)
}
