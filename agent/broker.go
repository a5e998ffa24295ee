package agent

import "sync"

// subscriberBuffer is how many events a subscriber may fall behind before
// it is dropped. A dropped subscriber's channel is closed; the client
// reconnects with Last-Event-ID and replays from the log, so nothing is lost
// and a slow client never stalls a turn.
// 128 events of ~90 bytes keep an idle subscriber small; streamed text is
// coalesced, so bursts rarely come near it.
const subscriberBuffer = 128

// Broker fans events out to live subscribers per session without ever
// blocking the publisher. It is safe for concurrent use.
type Broker struct {
	mu     sync.Mutex
	subs   map[string]map[*Subscription]struct{}
	closed bool // after CloseAll, new subscriptions start closed
}

// Subscription receives a session's events in order on C until it is
// closed by Unsubscribe or because it fell behind (Dropped reports which).
type Subscription struct {
	C       <-chan Event
	c       chan Event
	session string
	dropped bool
}

// Dropped reports whether the subscription was closed for falling behind.
// Only meaningful after C is closed.
func (s *Subscription) Dropped() bool { return s.dropped }

// NewBroker returns an empty broker.
func NewBroker() *Broker {
	return &Broker{subs: map[string]map[*Subscription]struct{}{}}
}

// Subscribe starts receiving the session's events published from now on.
func (b *Broker) Subscribe(session string) *Subscription {
	c := make(chan Event, subscriberBuffer)
	s := &Subscription{C: c, c: c, session: session}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		close(c)
		return s
	}
	if b.subs[session] == nil {
		b.subs[session] = map[*Subscription]struct{}{}
	}
	b.subs[session][s] = struct{}{}
	return s
}

// Unsubscribe stops and closes the subscription; safe to call twice.
func (b *Broker) Unsubscribe(s *Subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.remove(s)
}

func (b *Broker) remove(s *Subscription) {
	set := b.subs[s.session]
	if _, ok := set[s]; !ok {
		return
	}
	delete(set, s)
	if len(set) == 0 {
		delete(b.subs, s.session)
	}
	close(s.c)
}

// Publish delivers e to every subscriber of its session. A subscriber whose
// buffer is full is dropped instead of waited for.
func (b *Broker) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs[e.SessionID] {
		select {
		case s.c <- e:
		default:
			s.dropped = true
			b.remove(s)
		}
	}
}

// CloseSession closes every subscription of a session (deleted session).
func (b *Broker) CloseSession(session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs[session] {
		b.remove(s)
	}
}

// CloseAll closes every subscription (server shutdown: streams end cleanly).
func (b *Broker) CloseAll() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for _, set := range b.subs {
		for s := range set {
			b.remove(s)
		}
	}
}

// Subscribers returns the number of live subscriptions (metrics, tests).
func (b *Broker) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, set := range b.subs {
		n += len(set)
	}
	return n
}
