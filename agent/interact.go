package agent

import (
	"context"
	"errors"
	"sync"

	"github.com/google/uuid"
)

// ErrNoSuchRequest is returned when an answer names a question or
// permission request that is not waiting (unknown, answered, expired, or of
// another session).
var ErrNoSuchRequest = errors.New("no such pending request")

// pending tracks questions and permission requests that block a turn until
// the user answers through the UI or API. The first answer wins. Safe for
// concurrent use.
type pending struct {
	mu    sync.Mutex
	items map[string]*pendingItem
}

type pendingItem struct {
	session string
	kind    string // "question" or "permission"
	answer  chan string
	once    sync.Once
}

func newPending() *pending { return &pending{items: map[string]*pendingItem{}} }

// open registers a new request and returns its id.
func (p *pending) open(session, kind string) (string, *pendingItem) {
	id := uuid.NewString()
	it := &pendingItem{session: session, kind: kind, answer: make(chan string, 1)}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.items[id] = it
	return id, it
}

// close forgets a request (answered, expired or abandoned).
func (p *pending) close(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.items, id)
}

// answer delivers value to the waiting request id of session and kind.
func (p *pending) answer(session, kind, id, value string) error {
	p.mu.Lock()
	it, ok := p.items[id]
	if ok && (it.session != session || it.kind != kind) {
		ok = false
	}
	if ok {
		delete(p.items, id)
	}
	p.mu.Unlock()
	if !ok {
		return ErrNoSuchRequest
	}
	it.once.Do(func() { it.answer <- value })
	return nil
}

// wait blocks until the request is answered or ctx ends.
func (it *pendingItem) wait(ctx context.Context) (string, error) {
	select {
	case v := <-it.answer:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ErrQuestionExpired is returned to ask_user when the user did not answer
// in time.
var ErrQuestionExpired = errors.New("the question expired")
