// Package team keeps the file inboxes of agent teams (docs/features.md T24): one
// directory per team under a root (DATA_DIR/teams), one append-only JSON
// Lines inbox per member, one read cursor per member and a member list.
//
//	{root}/{team}/members.json          [{"name","session_id","role"}], replaced atomically
//	{root}/{team}/inbox/{member}.jsonl  one Message per line, appended with O_APPEND
//	{root}/{team}/cursor/{member}       the byte offset read so far, replaced atomically
//
// A message is written with one write(2) on a file opened O_APPEND, so
// appends from several writers never interleave, and a reader only consumes
// complete lines, so a message being written is never half-read. Within a
// process a Mailbox also serialises its own writers and readers.
package team

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Errors of the mailbox, matched with errors.Is.
var (
	// ErrBadName: a team or member name that is not a safe file name.
	ErrBadName = errors.New("team: names are 1-40 characters a-z, 0-9, '_' or '-', starting with a letter or digit")
	// ErrNoMember: the member is not in the team.
	ErrNoMember = errors.New("team: no such member")
	// ErrMemberExists: AddMember of a name already taken.
	ErrMemberExists = errors.New("team: member already exists")
	// ErrTooLong: a message over MaxMessageBytes.
	ErrTooLong = errors.New("team: message too long")
)

// MaxMessageBytes bounds one message's text.
const MaxMessageBytes = 16 << 10

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// ValidName reports whether s can name a team or a member.
func ValidName(s string) bool { return nameRE.MatchString(s) }

// Member is one agent of a team.
type Member struct {
	Name      string `json:"name"`
	SessionID string `json:"session_id"`
	Role      string `json:"role,omitempty"`
	// Wakes counts the turns started in the member's session because a
	// message arrived while it was idle.
	Wakes int `json:"wakes,omitempty"`
}

// Message is one inbox entry.
type Message struct {
	From      string    `json:"from"`
	To        string    `json:"to"`
	Text      string    `json:"text"`
	Broadcast bool      `json:"broadcast,omitempty"`
	Time      time.Time `json:"time"`
}

// Mailbox is one team's directory. Safe for concurrent use.
type Mailbox struct {
	dir string
	mu  sync.Mutex
}

// Open returns the mailbox of team under root, creating its directories.
func Open(root, team string) (*Mailbox, error) {
	if !ValidName(team) {
		return nil, fmt.Errorf("team %q: %w", team, ErrBadName)
	}
	dir := filepath.Join(root, team)
	for _, sub := range []string{"inbox", "cursor"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("team: %w", err)
		}
	}
	return &Mailbox{dir: dir}, nil
}

// Members returns the team's members in the order they joined.
func (m *Mailbox) Members() ([]Member, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.members()
}

func (m *Mailbox) members() ([]Member, error) {
	b, err := os.ReadFile(filepath.Join(m.dir, "members.json"))
	if errors.Is(err, os.ErrNotExist) {
		return []Member{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("team: members: %w", err)
	}
	var out []Member
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("team: members.json: %w", err)
	}
	return out, nil
}

// AddMember adds a member; ErrMemberExists when the name is taken.
func (m *Mailbox) AddMember(mem Member) error {
	if !ValidName(mem.Name) {
		return fmt.Errorf("member %q: %w", mem.Name, ErrBadName)
	}
	return m.updateMembers(func(list []Member) ([]Member, error) {
		if slices.ContainsFunc(list, func(x Member) bool { return x.Name == mem.Name }) {
			return nil, fmt.Errorf("member %q: %w", mem.Name, ErrMemberExists)
		}
		return append(list, mem), nil
	})
}

// Wake counts a wake of member name if it has had fewer than limit, and
// reports whether it did.
func (m *Mailbox) Wake(name string, limit int) (bool, error) {
	woke := false
	err := m.updateMembers(func(list []Member) ([]Member, error) {
		i := slices.IndexFunc(list, func(x Member) bool { return x.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("member %q: %w", name, ErrNoMember)
		}
		if list[i].Wakes < limit {
			list[i].Wakes++
			woke = true
		}
		return list, nil
	})
	return woke, err
}

func (m *Mailbox) updateMembers(change func([]Member) ([]Member, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	list, err := m.members()
	if err != nil {
		return err
	}
	list, err = change(list)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return fmt.Errorf("team: members: %w", err)
	}
	return writeAtomic(filepath.Join(m.dir, "members.json"), b)
}

// Member returns the named member; ErrNoMember when there is none.
func (m *Mailbox) Member(name string) (Member, error) {
	list, err := m.Members()
	if err != nil {
		return Member{}, err
	}
	for _, x := range list {
		if x.Name == name {
			return x, nil
		}
	}
	return Member{}, fmt.Errorf("member %q: %w", name, ErrNoMember)
}

// Send appends msg to the inbox of msg.To, which must be a member.
func (m *Mailbox) Send(msg Message) error {
	if len(msg.Text) > MaxMessageBytes {
		return fmt.Errorf("%d bytes: %w", len(msg.Text), ErrTooLong)
	}
	if _, err := m.Member(msg.To); err != nil {
		return err
	}
	line, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("team: encode message: %w", err)
	}
	line = append(line, '\n')
	m.mu.Lock()
	defer m.mu.Unlock()
	f, err := os.OpenFile(m.inbox(msg.To), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("team: open inbox: %w", err)
	}
	if _, err := f.Write(line); err != nil { // one write: appends never interleave
		f.Close()
		return fmt.Errorf("team: append to inbox: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("team: append to inbox: %w", err)
	}
	return nil
}

// Unread returns member's messages after its read cursor and moves the
// cursor past them (each message is read once). Only complete lines are
// consumed.
func (m *Mailbox) Unread(member string) ([]Message, error) {
	if !ValidName(member) {
		return nil, fmt.Errorf("member %q: %w", member, ErrBadName)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	offset, err := m.cursor(member)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(m.inbox(member))
	if errors.Is(err, os.ErrNotExist) {
		return []Message{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("team: open inbox: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("team: read inbox: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("team: read inbox: %w", err)
	}
	end := bytes.LastIndexByte(data, '\n') + 1 // complete lines only
	out := []Message{}
	for line := range bytes.SplitSeq(data[:end], []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var msg Message
		if err := json.Unmarshal(line, &msg); err != nil {
			continue // a damaged line is skipped, never blocks the inbox
		}
		out = append(out, msg)
	}
	if end > 0 {
		if err := writeAtomic(m.cursorPath(member), []byte(strconv.FormatInt(offset+int64(end), 10))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (m *Mailbox) cursor(member string) (int64, error) {
	b, err := os.ReadFile(m.cursorPath(member))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("team: read cursor: %w", err)
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("team: cursor of %s is damaged: %q", member, b)
	}
	return n, nil
}

func (m *Mailbox) inbox(member string) string {
	return filepath.Join(m.dir, "inbox", member+".jsonl")
}

func (m *Mailbox) cursorPath(member string) string { return filepath.Join(m.dir, "cursor", member) }

// writeAtomic replaces path with data: a temporary file in the same
// directory, synced, then renamed over it.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("team: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("team: write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("team: replace %s: %w", filepath.Base(path), err)
	}
	return nil
}

// Binding says which team and member an agent session is.
type Binding struct {
	Team   string `json:"team"`
	Member string `json:"member"`
}

// Bind records that session is member of team (root/by-session/{session}).
func Bind(root, session string, b Binding) error {
	if !ValidName(session) || !ValidName(b.Team) || !ValidName(b.Member) {
		return fmt.Errorf("bind %q: %w", session, ErrBadName)
	}
	dir := filepath.Join(root, "by-session")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("team: %w", err)
	}
	data, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("team: %w", err)
	}
	return writeAtomic(filepath.Join(dir, session+".json"), data)
}

// Lookup returns the binding of session; ok is false for a session that
// joined no team as a teammate.
func Lookup(root, session string) (Binding, bool, error) {
	if !ValidName(session) {
		return Binding{}, false, fmt.Errorf("lookup %q: %w", session, ErrBadName)
	}
	data, err := os.ReadFile(filepath.Join(root, "by-session", session+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return Binding{}, false, nil
	}
	if err != nil {
		return Binding{}, false, fmt.Errorf("team: %w", err)
	}
	var b Binding
	if err := json.Unmarshal(data, &b); err != nil {
		return Binding{}, false, fmt.Errorf("team: binding of %s: %w", session, err)
	}
	return b, true, nil
}
