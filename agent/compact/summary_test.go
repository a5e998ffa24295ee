package compact

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm"
	"github.com/astroresearch/astroresearch/agent/textcut"
)

type fakeCompleter struct {
	req  llm.Request
	resp llm.Response
	err  error
}

func (f *fakeCompleter) Complete(_ context.Context, req llm.Request) (llm.Response, error) {
	f.req = req
	return f.resp, f.err
}

func TestModelSummarizer(t *testing.T) {
	c := &fakeCompleter{resp: llm.Response{Message: llm.Message{Content: "  用户想知道 M31 的距离。 "}}}
	msgs := conv(user("M31 的距离是多少？"), step("bibcode 2005MNRAS.356..979M", "a"))
	got, err := ModelSummarizer(c).Summarize(context.Background(), msgs, 500)
	if err != nil || got != "用户想知道 M31 的距离。" {
		t.Fatalf("%q, %v", got, err)
	}
	if len(c.req.Tools) != 0 || c.req.Thinking || len(c.req.Messages) != 2 {
		t.Errorf("request %+v", c.req)
	}
	sysMsg, body := c.req.Messages[0].Content, c.req.Messages[1].Content
	if !strings.Contains(sysMsg, "at most 500 characters") || !strings.Contains(sysMsg, "language the user writes in") {
		t.Errorf("system prompt %q", sysMsg)
	}
	for _, want := range []string{"USER: M31 的距离是多少？", "called search(", "RESULT of search: bibcode 2005MNRAS.356..979M"} {
		if !strings.Contains(body, want) {
			t.Errorf("transcript lacks %q:\n%s", want, body)
		}
	}

	c.resp.Message.Content = " "
	if _, err := ModelSummarizer(c).Summarize(context.Background(), msgs, 500); err == nil {
		t.Error("empty answer accepted")
	}
	c.err = errors.New("boom")
	if _, err := ModelSummarizer(c).Summarize(context.Background(), msgs, 500); err == nil || !errors.Is(err, c.err) {
		t.Errorf("err = %v", err)
	}
}

func TestTranscriptIsBounded(t *testing.T) {
	var msgs []llm.Message
	for range 200 {
		msgs = append(msgs, step(strings.Repeat("r", 5000), "a")...)
	}
	body := SummaryPrompt(msgs, 500)[1].Content
	if n := len([]rune(body)); n > transcriptMax+200 {
		t.Errorf("transcript has %d characters", n)
	}
	if !strings.Contains(body, "characters omitted") {
		t.Error("no omission marker")
	}
}

func TestTruncateRunes(t *testing.T) {
	if got := textcut.Ellipsize("星系星系", 3); got != "星系…" {
		t.Errorf("%q", got)
	}
	if got := textcut.Ellipsize("abc", 3); got != "abc" {
		t.Errorf("%q", got)
	}
}
