package handlers

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent"
)

// heartbeatEvery keeps idle event streams (and proxies) alive.
const heartbeatEvery = 15 * time.Second

// replayBatch is how many persisted events are read per query on replay.
const replayBatch = 500

// apiEvents is GET /api/sessions/{id}/events: text/event-stream of the
// session's events as JSON (docs/features.md R7, §9).
func (s *Server) apiEvents(c echo.Context) error {
	a, err := s.ownSession(c)
	if err != nil {
		return err
	}
	after, err := resumePoint(c.Request())
	if err != nil {
		return apiError(http.StatusBadRequest, "invalid_request", "Last-Event-ID and after must be non-negative integers.")
	}
	return s.streamEvents(c, a.ID, after, writeJSONFrame)
}

// writeJSONFrame writes one event of the JSON stream: the kind as the
// event name, seq as the id, the event object as data.
func writeJSONFrame(w io.Writer, e agent.Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Kind, b)
	return err
}

// frameWriter writes the SSE frame of one event. It is called for every
// event in seq order, from one goroutine.
type frameWriter func(w io.Writer, e agent.Event) error

// streamEvents serves a session's events after seq `after` as
// text/event-stream until the client leaves. It subscribes first, then
// replays persisted events, then streams live ones, skipping any already
// sent, so a reconnect (Last-Event-ID) loses nothing and repeats nothing.
// Both event streams (JSON and HTML) are this loop with their own frames.
func (s *Server) streamEvents(c echo.Context, session string, after int64, write frameWriter) error {
	ctx := c.Request().Context()
	sub := s.events.Broker().Subscribe(session)
	defer s.events.Broker().Unsubscribe(sub)

	w := c.Response()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	// The server's ReadTimeout would end a long stream (its expiry cancels
	// the request context); this route lives until the client leaves.
	_ = rc.SetReadDeadline(time.Time{})
	w.WriteHeader(http.StatusOK)
	send := func(e agent.Event) error {
		if err := write(w, e); err != nil {
			return err
		}
		after = e.Seq
		return nil
	}
	for {
		evs, err := s.events.After(ctx, session, after, replayBatch)
		if err != nil {
			return nil // the response has started; the client reconnects
		}
		for _, e := range evs {
			if err := send(e); err != nil {
				return nil
			}
		}
		if len(evs) < replayBatch {
			break
		}
	}
	if err := rc.Flush(); err != nil {
		return nil
	}
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-sub.C:
			if !ok {
				return nil // dropped (too slow) or server stopping: the client resumes
			}
			if e.Seq <= after {
				continue // already replayed
			}
			if err := send(e); err != nil {
				return nil
			}
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return nil
			}
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
	}
}

// resumePoint reads Last-Event-ID, else ?after=, else 0.
func resumePoint(r *http.Request) (int64, error) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("after")
	}
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad resume point %q", v)
	}
	return n, nil
}
