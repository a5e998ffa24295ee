package triage

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// Summary settings.
const (
	summaryQueue   = 512
	summaryTimeout = 90 * time.Second
	// summaryPause is how long summaries stop after the model failed, so
	// an unreachable model is not asked again for every paper.
	summaryPause = 30 * time.Minute
	maxSummary   = 300
)

const summarySystem = "You write one-line summaries of new astronomy papers for a researcher's daily reading list. " +
	"Reply with a single sentence of at most 30 words saying what the paper does or finds. No preamble, no quotes."

// summarizer writes model summaries in the background, once per paper;
// nothing waits for it.
type summarizer struct {
	st    *store.Store
	gen   Generator
	log   *slog.Logger
	now   func() time.Time
	queue chan string

	mu     sync.Mutex
	queued map[string]bool
	pause  time.Time
}

func newSummarizer(st *store.Store, gen Generator, log *slog.Logger, now func() time.Time) *summarizer {
	return &summarizer{st: st, gen: gen, log: log, now: now, queue: make(chan string, summaryQueue), queued: map[string]bool{}}
}

// enqueue asks for a summary of the paper; it never blocks (a full queue
// drops the request: the paper is asked for again at its next ranking).
func (z *summarizer) enqueue(arxivID string) {
	if z.gen == nil {
		return
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.queued[arxivID] || z.now().Before(z.pause) {
		return
	}
	select {
	case z.queue <- arxivID:
		z.queued[arxivID] = true
	default:
	}
}

// run writes summaries until ctx ends.
func (z *summarizer) run(ctx context.Context) {
	if z.gen == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case id := <-z.queue:
			z.summarize(ctx, id)
			z.mu.Lock()
			delete(z.queued, id)
			z.mu.Unlock()
		}
	}
}

// summarize writes one paper's summary unless it has one or summaries are
// paused.
func (z *summarizer) summarize(ctx context.Context, id string) {
	z.mu.Lock()
	paused := z.now().Before(z.pause)
	z.mu.Unlock()
	if paused {
		return
	}
	have, err := z.st.TriageSummaries(ctx, []string{id})
	if err != nil || have[id] != "" {
		return
	}
	p, err := z.st.TriagePaper(ctx, id)
	if err != nil {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, summaryTimeout)
	defer cancel()
	text, err := z.gen.Generate(cctx, summarySystem, "Title: "+p.Title+"\n\nAbstract: "+p.Abstract)
	if err != nil {
		if ctx.Err() == nil {
			z.log.Warn("triage: summary failed; summaries paused", "paper", id, "pause", summaryPause, "err", err)
			z.mu.Lock()
			z.pause = z.now().Add(summaryPause)
			z.mu.Unlock()
		}
		return
	}
	if text = oneLine(text); text != "" {
		if err := z.st.SaveTriageSummary(ctx, id, text, ""); err != nil {
			z.log.Warn("triage: store summary", "paper", id, "err", err)
		}
	}
}

// oneLine keeps the first non-empty line of a model's reply, without
// surrounding quotes, at most maxSummary characters.
func oneLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.Trim(strings.TrimSpace(line), `"“”`)
		if line != "" {
			return clip(line, maxSummary)
		}
	}
	return ""
}
