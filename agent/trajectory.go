package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// trajectoryLine is one line of a turn's JSONL trajectory (docs/features.md R9).
type trajectoryLine struct {
	Type    string `json:"type"` // "message" or "event"
	Message any    `json:"message,omitempty"`
	Event   *Event `json:"event,omitempty"`
}

// writeTrajectory exports the turn — its messages, then its events — to
// {data}/trajectories/{session}/turn-{n}.jsonl for debugging and audit.
func (t *turnRun) writeTrajectory(ctx context.Context) {
	if err := t.exportTrajectory(ctx); err != nil {
		t.log().Error("writing the trajectory failed", "err", err)
	}
}

func (t *turnRun) exportTrajectory(ctx context.Context) error {
	// Session ids are UUIDs we generated: safe as a directory name.
	dir := filepath.Join(t.r.cfg.DataDir, "trajectories", t.session.ID)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	path := filepath.Join(dir, fmt.Sprintf("turn-%04d-%s.jsonl", t.turn, strings.TrimSuffix(outputFileName(t.agent), ".txt")))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeTrajectoryTo(ctx, t, f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeTrajectoryTo(ctx context.Context, t *turnRun, f *os.File) error {
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	rows, err := t.r.d.Store.AllAgentMessages(ctx, t.session.ID)
	if err != nil {
		return err
	}
	for _, row := range rows {
		if row.Turn != t.turn || row.AgentName != t.agent {
			continue
		}
		if err := enc.Encode(trajectoryLine{Type: "message", Message: json.RawMessage(row.RawJSON)}); err != nil {
			return err
		}
	}
	after := t.firstSeq - 1
	for {
		evs, err := t.r.d.Events.After(ctx, t.session.ID, after, 1000)
		if err != nil {
			return err
		}
		for i := range evs {
			if evs[i].Turn == t.turn && evs[i].Agent == t.agent {
				if err := enc.Encode(trajectoryLine{Type: "event", Event: &evs[i]}); err != nil {
					return err
				}
			}
			after = evs[i].Seq
		}
		if len(evs) < 1000 {
			break
		}
	}
	return w.Flush()
}
