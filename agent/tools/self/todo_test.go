package self

import (
	"strings"
	"testing"
)

func TestCheckTodos(t *testing.T) {
	ok := func(id, status string, blocked ...string) TodoItem {
		return TodoItem{ID: id, Subject: "task " + id, Status: status, BlockedBy: blocked}
	}
	cases := []struct {
		name    string
		items   []TodoItem
		problem string
	}{
		{"valid DAG", []TodoItem{ok("a", "completed"), ok("b", "in_progress", "a"), ok("c", "pending", "a", "b")}, ""},
		{"two in progress", []TodoItem{ok("a", "in_progress"), ok("b", "in_progress")}, "only one task"},
		{"duplicate id", []TodoItem{ok("a", "pending"), ok("a", "pending")}, "used twice"},
		{"unknown blocker", []TodoItem{ok("a", "pending", "zz")}, "not in the list"},
		{"self block", []TodoItem{ok("a", "pending", "a")}, "cannot block itself"},
		{"cycle", []TodoItem{ok("a", "pending", "c"), ok("b", "pending", "a"), ok("c", "pending", "b")}, "cycle: a → c → b → a"},
		{"in progress before blocker", []TodoItem{ok("a", "pending"), ok("b", "in_progress", "a")}, "is not completed"},
		{"empty subject", []TodoItem{{ID: "a", Status: "pending"}}, "needs an id and a subject"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tasks, problem := checkTodos(tc.items)
			if tc.problem == "" {
				if problem != "" || len(tasks) != len(tc.items) {
					t.Fatalf("problem %q", problem)
				}
				return
			}
			if !strings.Contains(problem, tc.problem) {
				t.Fatalf("problem = %q, want it to contain %q", problem, tc.problem)
			}
		})
	}
}

func TestRender(t *testing.T) {
	tasks, _ := checkTodos([]TodoItem{{ID: "a", Subject: "read", Status: "completed"}, {ID: "b", Subject: "write", Status: "in_progress", BlockedBy: []string{"a"}}})
	got := Render(tasks)
	want := "- [x] a: read\n- [>] b: write (blocked by a)\n"
	if got != want {
		t.Fatalf("Render = %q, want %q", got, want)
	}
}
