package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/astroresearch/astroresearch/agent/team"
	"github.com/astroresearch/astroresearch/agent/textcut"
	"github.com/astroresearch/astroresearch/agent/tools"
)

// Teams (docs/features.md T24): a lead spawns teammates — agent runs in sessions of
// their own, listed with the user's other sessions — and the members talk
// through file inboxes under DATA_DIR/teams (package team). A session's
// team is the lead's session id; the lead is member "lead". A message to
// an idle teammate starts a turn in its session so it reads it, at most
// teammateWakes times per teammate (two agents cannot ping-pong forever).

// teammateWakes bounds the turns a teammate gets from incoming messages.
const teammateWakes = 3

// leadMember is the lead's name in its team.
const leadMember = "lead"

// teams holds the mailboxes of the teams in use. Safe for concurrent use.
type teams struct {
	root  string
	mu    sync.Mutex
	boxes map[string]*team.Mailbox
}

func newTeams(dataDir string) *teams {
	if dataDir == "" {
		return nil
	}
	return &teams{root: filepath.Join(dataDir, "teams"), boxes: map[string]*team.Mailbox{}}
}

func (s *teams) box(teamID string) (*team.Mailbox, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.boxes[teamID]; ok {
		return b, nil
	}
	b, err := team.Open(s.root, teamID)
	if err != nil {
		return nil, err
	}
	s.boxes[teamID] = b
	return b, nil
}

// identity is the team and member name of a session: its binding for a
// teammate, its own team as lead otherwise.
func (s *teams) identity(session string) (team.Binding, error) {
	b, ok, err := team.Lookup(s.root, session)
	if err != nil || ok {
		return b, err
	}
	return team.Binding{Team: session, Member: leadMember}, nil
}

// teamContext is what every team tool starts from.
func teamContext(ctx context.Context, tc *tools.Context) (*turnRun, team.Binding, *team.Mailbox, error) {
	t := turnFrom(ctx)
	if t == nil || t.r.teams == nil {
		return nil, team.Binding{}, nil, errors.New("teams are not available here")
	}
	me, err := t.r.teams.identity(tc.SessionID)
	if err != nil {
		return nil, team.Binding{}, nil, err
	}
	box, err := t.r.teams.box(me.Team)
	if err != nil {
		return nil, team.Binding{}, nil, err
	}
	return t, me, box, nil
}

// SpawnArgs are spawn_teammate's arguments.
type SpawnArgs struct {
	Name string `json:"name" desc:"The teammate's name: lowercase letters, digits, '-' or '_'" minLength:"1" maxLength:"40"`
	Role string `json:"role" desc:"Its role in one line, e.g. 'reads the X-ray papers'" maxLength:"300"`
	Task string `json:"task" desc:"Its task, complete in itself" minLength:"1" maxLength:"20000"`
}

const teammateBrief = `You are teammate %q (%s) in a research team led by "lead". Your task:

%s

Work on it with your tools. Send your findings, with sources, to the lead with send_teammate_message (to "lead");
read what the team sends you with check_team_inbox. End with a short summary of what you did.`

func spawnTeammate() tools.Tool {
	return tools.New("spawn_teammate",
		"Start a teammate: an agent with a session of its own that works on a task while you go on, and reports to you "+
			"through your team inbox (check_team_inbox). Only the lead spawns teammates.",
		func(ctx context.Context, tc *tools.Context, a SpawnArgs) (tools.Result, error) {
			t, me, box, err := teamContext(ctx, tc)
			if err != nil {
				return tools.Result{}, err
			}
			if me.Member != leadMember {
				return tools.Errorf("Only the lead spawns teammates; ask the lead with send_teammate_message."), nil
			}
			if !team.ValidName(a.Name) || a.Name == leadMember {
				return tools.Errorf("%q cannot name a teammate: use lowercase letters, digits, '-' or '_' (and not %q).", a.Name, leadMember), nil
			}
			if err := box.AddMember(team.Member{Name: leadMember, SessionID: tc.SessionID}); err != nil && !errors.Is(err, team.ErrMemberExists) {
				return tools.Result{}, err
			}
			if _, err := box.Member(a.Name); err == nil {
				return tools.Errorf("There already is a teammate named %q; message it with send_teammate_message.", a.Name), nil
			}
			sess, err := t.r.d.Store.CreateAgentSession(ctx, t.userID, textcut.Ellipsize("Teammate "+a.Name+": "+a.Role, 120))
			if err != nil {
				return tools.Result{}, err
			}
			if err := box.AddMember(team.Member{Name: a.Name, SessionID: sess.ID, Role: a.Role}); errors.Is(err, team.ErrMemberExists) {
				_ = t.r.d.Store.DeleteAgentSession(context.WithoutCancel(ctx), t.userID, sess.ID)
				return tools.Errorf("There already is a teammate named %q; message it with send_teammate_message.", a.Name), nil
			} else if err != nil {
				return tools.Result{}, err
			}
			if err := team.Bind(t.r.teams.root, sess.ID, team.Binding{Team: me.Team, Member: a.Name}); err != nil {
				return tools.Result{}, err
			}
			role := a.Role
			if role == "" {
				role = "no particular role"
			}
			if _, err := t.r.StartTurn(ctx, t.userID, sess.ID, TurnRequest{Question: fmt.Sprintf(teammateBrief, a.Name, role, a.Task)}); err != nil {
				return tools.Errorf("Teammate %s was created but could not start: %v", a.Name, err), nil
			}
			return tools.Result{
				Output: fmt.Sprintf("Teammate %s is working in its own session (%s). What it sends you arrives in your team inbox: "+
					"read it with check_team_inbox.", a.Name, sess.ID),
				Metadata: map[string]any{"teammate": a.Name, "session_id": sess.ID},
			}, nil
		},
		tools.WithDeferred(),
	)
}

// MessageArgs are send_teammate_message's arguments.
type MessageArgs struct {
	To   string `json:"to" desc:"The member's name (the lead is \"lead\")" minLength:"1" maxLength:"40"`
	Text string `json:"text" desc:"The message" minLength:"1" maxLength:"16000"`
}

func sendTeammateMessage() tools.Tool {
	return tools.New("send_teammate_message",
		"Send a message to one member of your team; an idle teammate is started to read it.",
		func(ctx context.Context, tc *tools.Context, a MessageArgs) (tools.Result, error) {
			t, me, box, err := teamContext(ctx, tc)
			if err != nil {
				return tools.Result{}, err
			}
			if a.To == me.Member {
				return tools.Errorf("That is you; send the message to another member."), nil
			}
			return t.deliver(ctx, box, me, []string{a.To}, a.Text, false)
		},
		tools.WithDeferred(),
	)
}

// BroadcastArgs are team_broadcast's arguments.
type BroadcastArgs struct {
	Text string `json:"text" desc:"The message for every other member" minLength:"1" maxLength:"16000"`
}

func teamBroadcast() tools.Tool {
	return tools.New("team_broadcast",
		"Send a message to every other member of your team.",
		func(ctx context.Context, tc *tools.Context, a BroadcastArgs) (tools.Result, error) {
			t, me, box, err := teamContext(ctx, tc)
			if err != nil {
				return tools.Result{}, err
			}
			members, err := box.Members()
			if err != nil {
				return tools.Result{}, err
			}
			var to []string
			for _, m := range members {
				if m.Name != me.Member {
					to = append(to, m.Name)
				}
			}
			if len(to) == 0 {
				return tools.Errorf("Your team has no other members yet (spawn_teammate adds one)."), nil
			}
			return t.deliver(ctx, box, me, to, a.Text, true)
		},
		tools.WithDeferred(),
	)
}

// deliver appends the message to each recipient's inbox and wakes idle
// teammates.
func (t *turnRun) deliver(ctx context.Context, box *team.Mailbox, me team.Binding, to []string, text string, broadcast bool) (tools.Result, error) {
	var sent, woke []string
	for _, name := range to {
		err := box.Send(team.Message{From: me.Member, To: name, Text: text, Broadcast: broadcast, Time: t.r.d.Now().UTC()})
		switch {
		case errors.Is(err, team.ErrNoMember):
			return tools.Errorf("There is no member %q in your team.", name), nil
		case errors.Is(err, team.ErrTooLong):
			return tools.Errorf("The message is too long (at most %d bytes).", team.MaxMessageBytes), nil
		case err != nil:
			return tools.Result{}, err
		}
		sent = append(sent, name)
		if name != leadMember && t.wake(ctx, box, name) {
			woke = append(woke, name)
		}
	}
	out := "Sent to " + strings.Join(sent, ", ") + "."
	if len(woke) > 0 {
		out += " Started " + strings.Join(woke, ", ") + " to read it."
	}
	return tools.Result{Output: out, Metadata: map[string]any{"to": sent}}, nil
}

const wakePrompt = "New messages in your team inbox: read them with check_team_inbox and act on them."

// wake starts a turn in an idle teammate's session, within its wake budget.
func (t *turnRun) wake(ctx context.Context, box *team.Mailbox, name string) bool {
	m, err := box.Member(name)
	if err != nil {
		return false
	}
	if _, running := t.r.Running(m.SessionID); running {
		return false // it will see the message when it checks its inbox
	}
	if ok, err := box.Wake(name, teammateWakes); err != nil || !ok {
		return false
	}
	_, err = t.r.StartTurn(ctx, t.userID, m.SessionID, TurnRequest{Question: wakePrompt})
	return err == nil
}

func checkTeamInbox() tools.Tool {
	return tools.New("check_team_inbox",
		"Read the new messages your teammates sent you (each is shown once).",
		func(ctx context.Context, tc *tools.Context, _ struct{}) (tools.Result, error) {
			_, me, box, err := teamContext(ctx, tc)
			if err != nil {
				return tools.Result{}, err
			}
			msgs, err := box.Unread(me.Member)
			if err != nil {
				return tools.Result{}, err
			}
			if len(msgs) == 0 {
				return tools.Result{Output: "No new messages."}, nil
			}
			var b strings.Builder
			for _, m := range msgs {
				kind := "message"
				if m.Broadcast {
					kind = "broadcast"
				}
				fmt.Fprintf(&b, "[%s from %s, %s]\n%s\n\n", kind, m.From, m.Time.Format("15:04:05"), m.Text)
			}
			return tools.Result{Output: strings.TrimSpace(b.String()), Metadata: map[string]any{"messages": len(msgs)}}, nil
		},
		tools.WithReadOnly(), tools.WithDeferred(),
	)
}

// forget removes what the team files hold for a deleted session: its
// team's directory when it led one, its binding when it was a teammate.
// Teammates of a deleted lead keep their own sessions; their inbox is gone
// with the team.
func (s *teams) forget(session string) error {
	if !team.ValidName(session) {
		return nil // no file was ever made for it
	}
	s.mu.Lock()
	delete(s.boxes, session)
	s.mu.Unlock()
	if err := os.RemoveAll(filepath.Join(s.root, session)); err != nil {
		return fmt.Errorf("team %s: %w", session, err)
	}
	err := os.Remove(filepath.Join(s.root, "by-session", session+".json"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("team binding of %s: %w", session, err)
	}
	return nil
}
