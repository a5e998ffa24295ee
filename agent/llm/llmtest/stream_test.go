package llmtest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestStreamTextThinkingUsage(t *testing.T) {
	tests := []struct {
		name      string
		turn      Turn
		body      string
		wantUsage bool
	}{
		{"usage when asked", Thinking("hm").Then(Text("a", "b")).WithUsage(3, 2), streamBody("m"), true},
		{"no usage when not asked",
			Text("a").WithUsage(3, 2), `{"model":"m","stream":true,"messages":[]}`, false},
		{"forced usage", Text("a").WithUsage(3, 2).ForceUsage(), `{"model":"m","stream":true,"messages":[]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(t)
			s.Enqueue(tt.turn)
			resp, body, err := post(t, t.Context(), s, "/chat/completions", tt.body, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("content type %q", ct)
			}
			lines := dataLines(body)
			if lines[len(lines)-1] != "[DONE]" {
				t.Fatalf("last line %q, want [DONE]", lines[len(lines)-1])
			}
			var text, thought, finish string
			var usage *Usage
			for _, c := range decodeChunks(t, lines) {
				if c.Usage != nil {
					usage = c.Usage
				}
				for _, ch := range c.Choices {
					text += ch.Delta.Content
					thought += ch.Delta.ReasoningContent
					if ch.FinishReason != nil {
						finish = *ch.FinishReason
					}
				}
				if c.Model != "m" {
					t.Errorf("chunk model %q, want m", c.Model)
				}
			}
			if !strings.HasPrefix(text, "a") || finish != "stop" {
				t.Errorf("text %q finish %q", text, finish)
			}
			if (usage != nil) != tt.wantUsage {
				t.Fatalf("usage %+v, want present=%v", usage, tt.wantUsage)
			}
			if usage != nil && *usage != (Usage{3, 2, 5}) {
				t.Errorf("usage %+v", *usage)
			}
		})
	}
}

func TestStreamToolCallFragments(t *testing.T) {
	tests := []struct {
		name      string
		turn      Turn
		wantOrder []int // index of every tool-call frame in order
		wantArgs  map[int]string
		wantIDs   map[int]string
	}{
		{
			name:      "sequential",
			turn:      ToolCalls(Call{ID: "c1", Name: "a", Args: `{"x":1}`}, Call{ID: "c2", Name: "b", Args: `{}`, ArgChunks: 1}),
			wantOrder: []int{0, 0, 0, 1},
			wantArgs:  map[int]string{0: `{"x":1}`, 1: `{}`},
			wantIDs:   map[int]string{0: "c1", 1: "c2"},
		},
		{
			name:      "parallel interleaved",
			turn:      ParallelToolCalls(Call{ID: "c1", Name: "a", Args: `{"x":1}`, ArgChunks: 2}, Call{Name: "b", Args: `{"y":2}`, ArgChunks: 2}),
			wantOrder: []int{0, 1, 0, 1},
			wantArgs:  map[int]string{0: `{"x":1}`, 1: `{"y":2}`},
			wantIDs:   map[int]string{0: "c1", 1: ""},
		},
		{
			name:      "then continues indices",
			turn:      ToolCalls(Call{ID: "c1", Name: "a", Args: "1", ArgChunks: 1}).Then(ToolCalls(Call{ID: "c2", Name: "b", Args: "2"})),
			wantOrder: []int{0, 1},
			wantArgs:  map[int]string{0: "1", 1: "2"},
			wantIDs:   map[int]string{0: "c1", 1: "c2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(t)
			s.Enqueue(tt.turn)
			_, body, err := post(t, t.Context(), s, "/chat/completions", streamBody("m"), nil)
			if err != nil {
				t.Fatal(err)
			}
			var order []int
			args, ids, seen := map[int]string{}, map[int]string{}, map[int]bool{}
			finish := ""
			for _, c := range decodeChunks(t, dataLines(body)) {
				for _, ch := range c.Choices {
					if ch.FinishReason != nil {
						finish = *ch.FinishReason
					}
					for _, tc := range ch.Delta.ToolCalls {
						order = append(order, tc.Index)
						first := !seen[tc.Index]
						seen[tc.Index] = true
						if !first && (tc.ID != "" || tc.Function.Name != "" || tc.Type != "") {
							t.Errorf("later fragment of call %d carries id/name/type: %+v", tc.Index, tc)
						}
						if first {
							ids[tc.Index] = tc.ID
							if tc.Function.Name == "" {
								t.Errorf("first fragment of call %d has no name", tc.Index)
							}
						}
						args[tc.Index] += tc.Function.Arguments
					}
				}
			}
			if finish != "tool_calls" {
				t.Errorf("finish %q", finish)
			}
			if len(order) != len(tt.wantOrder) {
				t.Fatalf("frame order %v, want %v", order, tt.wantOrder)
			}
			for i := range order {
				if order[i] != tt.wantOrder[i] {
					t.Fatalf("frame order %v, want %v", order, tt.wantOrder)
				}
			}
			for i, want := range tt.wantArgs {
				if args[i] != want || ids[i] != tt.wantIDs[i] {
					t.Errorf("call %d: id %q args %q, want %q %q", i, ids[i], args[i], tt.wantIDs[i], want)
				}
			}
		})
	}
}

func TestStreamEarlyEndings(t *testing.T) {
	tests := []struct {
		name       string
		turn       Turn
		wantReadEr bool   // the body read fails (connection cut)
		wantLast   string // last data line
	}{
		{"stream error", Text("a").Then(StreamError(APIError{Message: "boom", Type: "server_error", Code: "x"})), false,
			`{"error":{"code":"x","message":"boom","type":"server_error"}}`},
		{"eof", Text("a").Then(EOF()), false, ""},
		{"without done", Text("a").WithoutDone(), false, ""},
		{"invalid json", InvalidJSON(), false, "[DONE]"},
		{"cut", Text("a").Then(Cut()), true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(t)
			s.Enqueue(tt.turn)
			_, body, err := post(t, t.Context(), s, "/chat/completions", streamBody("m"), nil)
			if tt.wantReadEr {
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("read error %v, want unexpected EOF", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			lines := dataLines(body)
			last := lines[len(lines)-1]
			if tt.wantLast != "" && last != tt.wantLast {
				t.Errorf("last line %q, want %q", last, tt.wantLast)
			}
			if tt.wantLast != "[DONE]" && strings.Contains(string(body), "[DONE]") {
				t.Errorf("body has [DONE]: %s", body)
			}
		})
	}
}

func TestHTTPError(t *testing.T) {
	s := New(t)
	s.Enqueue(HTTPError(429, map[string]string{"Retry-After": "2"}, "rate limit reached"))
	resp, body, err := post(t, t.Context(), s, "/chat/completions", streamBody("m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("status %d retry-after %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	want := `{"error":{"code":null,"message":"rate limit reached","type":"invalid_request_error"}}`
	if got := compactJSON(t, body); got != want {
		t.Errorf("body %s, want %s", got, want)
	}
}

func TestDelayHonoursRequestContext(t *testing.T) {
	s := New(t)
	received := make(chan struct{})
	s.Handle(func(RecordedRequest) Turn {
		close(received)
		return Text("never").WithDelay(time.Hour, 0)
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, _, err := post(t, ctx, s, "/chat/completions", streamBody("m"), nil)
		done <- err
	}()
	<-received
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	// The server's cleanup would block on a handler stuck in the delay.
}

func TestNoTurnLeftFailsTest(t *testing.T) {
	rtb := &recordingTB{TB: t}
	s := New(rtb)
	resp, body, err := post(t, t.Context(), s, "/chat/completions", streamBody("m"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), "no scripted turn left") {
		t.Errorf("status %d body %s", resp.StatusCode, body)
	}
	if errs := rtb.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "no scripted turn left") {
		t.Errorf("test errors %q", errs)
	}
}

func TestSplitRunes(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want []string
	}{
		{"", 3, []string{""}},
		{"abc", 0, []string{"a", "b", "c"}},
		{"abcdefg", 3, []string{"abc", "def", "g"}},
		{"ab", 5, []string{"a", "b"}},
		{"héé", 2, []string{"hé", "é"}},
		{"abc", 1, []string{"abc"}},
	}
	for _, tt := range tests {
		got := splitRunes(tt.in, tt.n)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("splitRunes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestSentRecordsTextDeltas: every streamed text delta is recorded with
// the time it was flushed, in order.
func TestSentRecordsTextDeltas(t *testing.T) {
	s := New(t)
	s.Enqueue(Text("a", "b", "c"))
	before := time.Now()
	resp, err := s.Client().Post(s.URL()+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"q"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	got := s.Sent()
	if len(got) != 3 || got[0].Text != "a" || got[2].Text != "c" || got[0].At.Before(before) || got[2].At.Before(got[0].At) {
		t.Errorf("sent %+v", got)
	}
}
