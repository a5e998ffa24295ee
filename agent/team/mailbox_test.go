package team

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func newTeam(t *testing.T) (*Mailbox, string) {
	t.Helper()
	root := t.TempDir()
	m, err := Open(root, "3f1c9a2e-7b7d-4f7e-9a55-0c1b2d3e4f50")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"lead", "reader", "critic"} {
		if err := m.AddMember(Member{Name: name, SessionID: "s-" + name}); err != nil {
			t.Fatal(err)
		}
	}
	return m, root
}

func TestConcurrentAppendsAreReadOnceEach(t *testing.T) {
	m, root := newTeam(t)
	// A second Mailbox on the same directory stands in for another writer
	// process: only O_APPEND keeps their lines apart.
	other, err := Open(root, "3f1c9a2e-7b7d-4f7e-9a55-0c1b2d3e4f50")
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for w := range writers {
		box := m
		if w%2 == 1 {
			box = other
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := box.Send(Message{From: "reader", To: "lead", Text: fmt.Sprintf("%d-%d %s", w, i, strings.Repeat("x", 3000))}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	// Read while they write: every message exactly once over all reads.
	seen := map[string]int{}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	read := func() {
		msgs, err := m.Unread("lead")
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range msgs {
			seen[msg.Text]++
		}
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
			read()
		}
	}
	read()
	total := 0
	for k, n := range seen {
		if len(k) > 100 {
			if n != 1 {
				t.Fatalf("a message was read %d times", n)
			}
			total++
		}
	}
	if total != writers*each {
		t.Fatalf("read %d messages, want %d", total, writers*each)
	}
	if msgs, _ := m.Unread("lead"); len(msgs) != 0 {
		t.Fatalf("%d messages read again", len(msgs))
	}
}

func TestPartialLineWaitsAndErrors(t *testing.T) {
	m, _ := newTeam(t)
	if err := m.Send(Message{From: "lead", To: "reader", Text: "one"}); err != nil {
		t.Fatal(err)
	}
	// A writer caught mid-line: the half line is not consumed.
	f, err := os.OpenFile(filepath.Join(m.dir, "inbox", "reader.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"from":"lead","to":"reader","te`)
	msgs, err := m.Unread("reader")
	if err != nil || len(msgs) != 1 || msgs[0].Text != "one" {
		t.Fatalf("%+v %v", msgs, err)
	}
	f.WriteString(`xt":"two"}` + "\n")
	f.Close()
	msgs, err = m.Unread("reader")
	if err != nil || len(msgs) != 1 || msgs[0].Text != "two" {
		t.Fatalf("after the line completed: %+v %v", msgs, err)
	}
	if err := m.Send(Message{From: "lead", To: "nobody", Text: "x"}); !errors.Is(err, ErrNoMember) {
		t.Fatalf("to a stranger: %v", err)
	}
	if err := m.Send(Message{From: "lead", To: "reader", Text: string(make([]byte, MaxMessageBytes+1))}); !errors.Is(err, ErrTooLong) {
		t.Fatalf("too long: %v", err)
	}
	if err := m.AddMember(Member{Name: "reader"}); !errors.Is(err, ErrMemberExists) {
		t.Fatalf("duplicate member: %v", err)
	}
	if _, err := m.Unread("../lead"); !errors.Is(err, ErrBadName) {
		t.Fatalf("path in a name: %v", err)
	}
	for i := range 3 {
		ok, err := m.Wake("reader", 2)
		if err != nil || ok != (i < 2) {
			t.Fatalf("wake %d: %v %v", i, ok, err)
		}
	}
}

func FuzzValidName(f *testing.F) {
	for _, s := range []string{"lead", "../x", "a/b", "", "UPPER", "x.jsonl", "-x", "a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidName(s) {
			return
		}
		if filepath.Base(s) != s || s == "." || s == ".." || len(s) > 40 {
			t.Fatalf("%q accepted as a file name", s)
		}
	})
}
