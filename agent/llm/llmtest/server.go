// Package llmtest is a scripted fake OpenAI-compatible server for tests that
// need a model. Each chat completion request consumes the next enqueued Turn
// (or, when the queue is empty, the answer of the Handle function); a
// request with nothing to answer it gets HTTP 500 and fails the test. Every
// request is recorded with its decoded body.
//
//	s := llmtest.New(t)
//	s.Enqueue(llmtest.Thinking("let me see").Then(llmtest.Text("M31 is ", "a galaxy")).WithUsage(12, 5))
//	client := llm.New(llm.Config{BaseURL: s.URL(), Model: "test-model"})
//
// Endpoints: POST /v1/chat/completions (SSE when "stream": true, JSON
// otherwise), GET /v1/models, POST /v1/embeddings.
package llmtest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// DefaultModel is the one model a new Server lists.
const DefaultModel = "test-model"

// DefaultEmbeddingDim is the vector length of a new Server's embeddings.
const DefaultEmbeddingDim = 8

// Server is a fake OpenAI-compatible endpoint. Its methods are safe for
// concurrent use, also while requests are being served.
type Server struct {
	t   testing.TB
	srv *httptest.Server

	mu       sync.Mutex
	turns    []Turn
	handle   func(RecordedRequest) Turn
	requests []RecordedRequest // every request, in arrival order
	sent     []SentText        // streamed text deltas, in the order flushed
	models   []string
	dim      int

	realistic bool   // usage computed from requests (see Realistic)
	window    Window // enforced when realistic
	refused   int
	truncated int
	modelInfo map[string]ModelInfo // extra /v1/models fields per model
	ollama    *OllamaInfo          // native Ollama endpoints when set
}

// New starts a server that is shut down when the test ends (open client
// connections are closed first, so no scripted delay can hold it up).
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, models: []string{DefaultModel}, dim: DefaultEmbeddingDim}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
	return s
}

// URL returns the base URL of the API, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Client returns an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Enqueue appends turns to the script; chat requests consume them in order.
func (s *Server) Enqueue(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// Handle sets a function that answers chat requests once the queue is
// empty; use it when concurrent callers make the request order
// unpredictable. fn may be called concurrently; nil removes it.
func (s *Server) Handle(fn func(RecordedRequest) Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handle = fn
}

// SetModels sets the names GET /v1/models lists, in order.
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = slices.Clone(names)
}

// SetEmbeddingDim sets the length of embedding vectors.
func (s *Server) SetEmbeddingDim(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dim = n
}

// Pending returns how many enqueued turns no request has consumed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns)
}

// Requests returns the chat completion requests received so far, in
// arrival order.
func (s *Server) Requests() []RecordedRequest {
	return s.filter(func(r RecordedRequest) bool { return r.Path == chatPath })
}

// AllRequests returns every request received so far (chat, models,
// embeddings, unknown paths), in arrival order.
func (s *Server) AllRequests() []RecordedRequest {
	return s.filter(func(RecordedRequest) bool { return true })
}

func (s *Server) filter(keep func(RecordedRequest) bool) []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []RecordedRequest
	for _, r := range s.requests {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

const (
	chatPath       = "/v1/chat/completions"
	modelsPath     = "/v1/models"
	embeddingsPath = "/v1/embeddings"
)

// serve records the request and routes it.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rec, err := s.record(r)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || r.Context().Err() != nil {
			// The client hung up mid-request (a cancelled turn): nobody
			// is waiting for an answer, and it is no scripting mistake.
			return
		}
		s.fail(w, http.StatusBadRequest, "llmtest: %s %s: %v", r.Method, r.URL.Path, err)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == chatPath:
		s.serveChat(w, r, rec)
	case r.Method == http.MethodGet && r.URL.Path == modelsPath:
		s.serveModels(w)
	case r.Method == http.MethodPost && r.URL.Path == embeddingsPath:
		s.serveEmbeddings(w, rec)
	case s.serveOllama(w, r, rec):
	case r.URL.Path == ollamaPS || r.URL.Path == ollamaShow:
		http.NotFound(w, r) // not an Ollama server: a probe, no scripting mistake
	default:
		s.fail(w, http.StatusNotFound, "llmtest: no endpoint %s %s", r.Method, r.URL.Path)
	}
}

// record reads and decodes the body and appends the request to the log.
func (s *Server) record(r *http.Request) (RecordedRequest, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return RecordedRequest{}, fmt.Errorf("read body: %w", err)
	}
	rec := RecordedRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	decodeErr := decodeBody(&rec, body)
	s.mu.Lock()
	rec.Seq = len(s.requests)
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	return rec, decodeErr
}

// serveChat answers with the next turn, waiting the turn's first-byte delay.
func (s *Server) serveChat(w http.ResponseWriter, r *http.Request, rec RecordedRequest) {
	rec, prompt, refused := s.admit(w, rec)
	if refused {
		return
	}
	turn, ok := s.next(rec)
	if !ok {
		s.fail(w, http.StatusInternalServerError,
			"llmtest: no scripted turn left for chat request #%d (model %q); Enqueue more turns or set Handle",
			rec.Seq, rec.Model)
		return
	}
	if !wait(r.Context(), turn.firstDelay) {
		return
	}
	s.mu.Lock()
	realistic := s.realistic
	s.mu.Unlock()
	if limit := requestedCompletion(rec); realistic && limit > 0 && turn.completionTokens() > limit {
		turn = turn.cutTo(limit) // the output hits max_tokens
	}
	if realistic && turn.usage == nil {
		turn = turn.WithUsage(prompt, turn.completionTokens())
	}
	switch {
	case turn.httpErr != nil:
		writeHTTPError(w, turn.httpErr)
	case rec.Stream:
		writeStream(r.Context(), w, rec, turn, s.noteSent)
	default:
		writeJSON(r.Context(), w, rec, turn)
	}
}

// SentText is one streamed text delta and when it was flushed to the client.
type SentText struct {
	Text string
	At   time.Time
}

// Sent returns the text deltas streamed so far, each with the time it was
// flushed: the start of a token's way to the page, for latency figures.
// Safe for concurrent use.
func (s *Server) Sent() []SentText {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SentText(nil), s.sent...)
}

func (s *Server) noteSent(text string, at time.Time) {
	s.mu.Lock()
	s.sent = append(s.sent, SentText{Text: text, At: at})
	s.mu.Unlock()
}

// next pops the next queued turn, else asks the handler (outside the lock).
func (s *Server) next(rec RecordedRequest) (Turn, bool) {
	s.mu.Lock()
	if len(s.turns) > 0 {
		t := s.turns[0]
		s.turns = s.turns[1:]
		s.mu.Unlock()
		return t, true
	}
	handle := s.handle
	s.mu.Unlock()
	if handle == nil {
		return Turn{}, false
	}
	return handle(rec), true
}

// fail reports a scripting mistake to the test and to the client.
func (s *Server) fail(w http.ResponseWriter, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.t.Errorf("%s", msg)
	writeHTTPError(w, &httpError{status: status, body: string(errorJSON(APIError{Message: msg, Type: "llmtest_error"}))})
}
