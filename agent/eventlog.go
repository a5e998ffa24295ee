package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/astroresearch/astroresearch/store"
)

// EventLog assigns per-session sequence numbers, persists each event and
// then publishes it (docs/features.md R7: persisted before published). Events of one
// session are appended one at a time, so seq is gap-free and subscribers
// see them in order. Safe for concurrent use.
type EventLog struct {
	st     *store.Store
	broker *Broker

	mu       sync.Mutex
	sessions map[string]*sessionSeq
}

type sessionSeq struct {
	mu   sync.Mutex
	next int64 // 0 = not loaded yet
}

// NewEventLog returns an event log writing to st and publishing to broker.
func NewEventLog(st *store.Store, broker *Broker) *EventLog {
	return &EventLog{st: st, broker: broker, sessions: map[string]*sessionSeq{}}
}

// Broker returns the broker events are published to.
func (l *EventLog) Broker() *Broker { return l.broker }

func (l *EventLog) seqFor(session string) *sessionSeq {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.sessions[session]
	if s == nil {
		s = &sessionSeq{}
		l.sessions[session] = s
	}
	return s
}

// Forget drops the cached sequence of a session (after deletion).
func (l *EventLog) Forget(session string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.sessions, session)
}

// Append persists and publishes one event built from payload. It uses a
// context that outlives a cancelled turn for the write, so the events that
// report a cancellation are still recorded.
func (l *EventLog) Append(ctx context.Context, session string, turn int, agentName string, kind Kind, payload any) (Event, error) {
	data, err := json.Marshal(payload)
	if err != nil {
		return Event{}, fmt.Errorf("agent: encode %s event: %w", kind, err)
	}
	ctx = context.WithoutCancel(ctx)
	s := l.seqFor(session)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next == 0 {
		last, err := l.st.LastAgentEventSeq(ctx, session)
		if err != nil {
			return Event{}, err
		}
		s.next = last + 1
	}
	row := store.AgentEvent{SessionID: session, Seq: s.next, Turn: turn, Agent: agentName, Kind: string(kind), Data: string(data)}
	if err := l.st.AppendAgentEvent(ctx, &row); err != nil {
		return Event{}, err
	}
	s.next++
	e := Event{Seq: row.Seq, SessionID: session, Kind: kind, Turn: turn, Agent: agentName, Data: data, At: row.CreatedAt}
	l.broker.Publish(e)
	return e, nil
}

// After returns up to limit persisted events of a session with seq > after.
func (l *EventLog) After(ctx context.Context, session string, after int64, limit int) ([]Event, error) {
	rows, err := l.st.AgentEventsAfter(ctx, session, after, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Event, len(rows))
	for i, r := range rows {
		out[i] = Event{Seq: r.Seq, SessionID: r.SessionID, Kind: Kind(r.Kind), Turn: r.Turn, Agent: r.Agent, Data: json.RawMessage(r.Data), At: r.CreatedAt}
	}
	return out, nil
}
