package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

// latencyTokens is how many tokens TestBrowserTokenLatency streams, and
// latencyGap the fake model's pause between them.
const (
	latencyTokens = 300
	latencyGap    = 10 * time.Millisecond
)

// TestBrowserTokenLatency measures (and prints; it asserts nothing about
// time) how long a streamed token takes from leaving the fake model
// (llmtest records each flush) to being in the page (a MutationObserver on
// the timeline records when the token's text node is added): the latency
// the whole path adds — LLM client, event log write, broker, fragment
// rendering, SSE, htmx swap. It also reads the turn's HTML event stream
// again and reports the bytes it takes. Run it alone for stable figures:
//
//	go test -tags sqlite_fts5 ./e2e/ -run TestBrowserTokenLatency -v
func TestBrowserTokenLatency(t *testing.T) {
	w := signedIn(t, "annie", "harvard-classification")
	a, ctx, fake, console := w.app, w.ctx, w.fake, w.console
	session := newSessionPage(t, ctx, a, "Latency")

	// Each token is unique, so the page's record matches the model's.
	tokens := make([]string, latencyTokens)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("w%04d ", i)
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => {
		window.__seen = {};
		const tl = document.getElementById("timeline");
		new MutationObserver(records => {
			const at = performance.timeOrigin + performance.now();
			for (const r of records) for (const n of r.addedNodes) {
				for (const w of (n.textContent || "").match(/w\d{4} /g) || []) {
					if (!(w in window.__seen)) window.__seen[w] = at;
				}
			}
		}).observe(tl, {childList: true, subtree: true});
	})()`))
	fake.Enqueue(llmtest.Text(tokens...).WithDelay(0, latencyGap))
	askQuestion(t, ctx, "Stream many tokens")
	waitUntil(t, ctx, "the end of the turn", `!!document.querySelector('#timeline [data-testid="done"]')`)

	seen, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`window.__seen`))
	if err != nil {
		t.Fatal(err)
	}
	var lat []time.Duration
	missing := 0
	// perFrame is, for each arrival in the page, the latency of the last
	// token it carried: the path's own cost without the coalescing wait.
	perFrame := map[float64]time.Duration{}
	for _, s := range fake.Sent() {
		ms, ok := seen[s.Text]
		if !ok {
			missing++
			continue
		}
		d := time.UnixMicro(int64(ms * 1000)).Sub(s.At)
		lat = append(lat, d)
		if old, ok := perFrame[ms]; !ok || d < old {
			perFrame[ms] = d
		}
	}
	if len(lat) == 0 {
		t.Fatalf("no token was seen in the page (%d sent)", len(fake.Sent()))
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	// The runtime coalesces deltas for up to 50 ms (agent/delta.go) so a
	// fast model does not cost one database row per token: that wait is
	// part of these figures.
	t.Logf("token latency, model flush → in the page, over %d tokens (%d never seen): p50 %v, p95 %v, p99 %v, max %v, mean %v",
		len(lat), missing, q(0.50).Round(10*time.Microsecond), q(0.95).Round(10*time.Microsecond),
		q(0.99).Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond), (sum / time.Duration(len(lat))).Round(10*time.Microsecond))

	frames := slices.Sorted(maps.Values(perFrame))
	t.Logf("the same for the last token of each of the %d page updates (no coalescing wait): p50 %v, p95 %v, max %v",
		len(frames), frames[len(frames)/2].Round(10*time.Microsecond), frames[min(len(frames)-1, len(frames)*95/100)].Round(10*time.Microsecond),
		frames[len(frames)-1].Round(10*time.Microsecond))

	// The bytes of the turn on the HTML event stream: the same frames the
	// page received live (a replay renders the very same fragments).
	stream, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(async () => {
		const r = await fetch(`+strconv.Quote(a.BasePath+"/research/"+session+"/stream?after=0")+`);
		const rd = r.body.getReader(), dec = new TextDecoder();
		let bytes = 0, text = "";
		for (;;) {
			const {value, done} = await rd.read();
			if (done) break;
			bytes += value.length;
			text += dec.decode(value, {stream: true});
			const i = text.indexOf('data-testid="done"');
			if (i >= 0 && text.indexOf("\n\n", i) >= 0) break;
		}
		rd.cancel();
		return [bytes, (text.match(/^event: timeline$/gm) || []).length];
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("HTML event stream for the turn: %d bytes in %d frames for %d tokens (%.0f bytes per token; the answer's text is %d bytes)",
		stream[0], stream[1], latencyTokens, float64(stream[0])/latencyTokens, len(strings.Join(tokens, "")))

	if bad := console.problems(); len(bad) > 0 {
		t.Errorf("the page reported %d console problem(s), first: %s", len(bad), bad[0])
	}
}
