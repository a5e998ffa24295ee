package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func TestResearchRename(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)

	page := c.get("/research/" + s).body
	expectContains(t, "session page", page, `data-testid="rename-form"`, `action="/research/`+s+`/rename"`,
		`name="return" value="session"`, `value="Perseus cluster"`, `data-testid="delete-link"`)
	list := c.get("/research").body
	expectContains(t, "list", list, `data-testid="rename-form"`, `name="return" value="list"`,
		`<label for="rename-list-`+s+`" class="visually-hidden">Rename Perseus cluster</label>`,
		`href="/research/`+s+`/delete"`)

	// From the session page, back to the session page.
	res := c.postForm("/research/"+s+"/rename", url.Values{"title": {"  Abell 426 <core>  "}, "return": {"session"}})
	expectStatus(t, "rename", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/research/"+s {
		t.Fatalf("rename went to %q", loc)
	}
	page = c.get("/research/" + s).body
	expectContains(t, "renamed page", page, "<h1>Abell 426 &lt;core&gt;</h1>", "Session renamed.")

	// From the list, back to the list.
	res = c.postForm("/research/"+s+"/rename", url.Values{"title": {"Perseus again"}, "return": {"list"}})
	expectStatus(t, "rename from list", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/research" {
		t.Fatalf("rename from list went to %q", loc)
	}
	expectContains(t, "list", c.get("/research").body, "Perseus again")

	for _, tc := range []struct{ title, ret, msg string }{
		{"", "session", "Write a title."},
		{"   ", "list", "Write a title."},
		{strings.Repeat("x", 201), "session", "longer than 200"},
		{"a\x00b", "list", "control characters"},
	} {
		res := c.postForm("/research/"+s+"/rename", url.Values{"title": {tc.title}, "return": {tc.ret}})
		expectStatus(t, "bad title "+tc.msg, res, http.StatusBadRequest)
		expectContains(t, "bad title", res.body, tc.msg, `aria-invalid="true"`, `aria-describedby="rename-`+tc.ret+`-`+s+`-error"`)
	}
	expectContains(t, "list after refusals", c.get("/research").body, "Perseus again")

	other := a.member("edwin", "expanding-universe")
	expectStatus(t, "other user's rename", other.postForm("/research/"+s+"/rename", url.Values{"title": {"mine"}}), http.StatusNotFound)
	expectStatus(t, "unknown rename", c.postForm("/research/nope/rename", url.Values{"title": {"x"}}), http.StatusNotFound)
}

func TestResearchDelete(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	keep := newResearchSession(t, c)

	other := a.member("edwin", "expanding-universe")
	expectStatus(t, "other user's confirm", other.get("/research/"+s+"/delete"), http.StatusNotFound)
	expectStatus(t, "other user's delete", other.postForm("/research/"+s+"/delete", nil), http.StatusNotFound)
	expectStatus(t, "unknown delete", c.postForm("/research/nope/delete", nil), http.StatusNotFound)

	res := c.get("/research/" + s + "/delete")
	expectStatus(t, "confirm", res, http.StatusOK)
	expectLacks(t, "idle confirm", res.body, `role="alert"`)
	expectContains(t, "confirm", res.body, `data-testid="delete-confirm"`,
		"<strong>Delete “Perseus cluster”?</strong> This removes its messages and events.",
		`action="/research/`+s+`/delete"`, `data-testid="delete-button"`, `href="/research/`+s+`" data-testid="cancel-delete">Cancel`)

	// Team files the session's agent left (docs/features.md T24) go with it.
	inbox := filepath.Join(a.dir, "teams", s, "inbox", "lead.jsonl")
	if err := os.MkdirAll(filepath.Dir(inbox), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inbox, []byte(`{"from":"reader","to":"lead","text":"done"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// A live stream of the session ends when it is deleted.
	stream := c.openTimeline(t, s, "?after=0")
	res = c.postForm("/research/"+s+"/delete", nil)
	expectStatus(t, "delete", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/research" {
		t.Fatalf("delete went to %q", loc)
	}
	for stream.scan.Scan() {
	}
	list := c.get("/research").body
	expectContains(t, "list", list, "Deleted Perseus cluster.", `href="/research/`+keep+`"`)
	expectLacks(t, "list", list, `href="/research/`+s+`"`)
	expectStatus(t, "deleted page", c.get("/research/"+s), http.StatusNotFound)
	expectStatus(t, "delete twice", c.postForm("/research/"+s+"/delete", nil), http.StatusNotFound)
	if _, err := os.Stat(filepath.Join(a.dir, "teams", s)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the deleted session's team files remain: %v", err)
	}
}

// TestResearchDeleteWhileRunning: a turn waiting for a permission decision
// keeps its session from being deleted.
func TestResearchDeleteWhileRunning(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	s := newResearchSession(t, c)
	u, err := a.store.UserByName(context.Background(), adminName)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.PutPermissionRule(context.Background(), u.ID, "todo_write", "*", "ask"); err != nil {
		t.Fatal(err)
	}
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "w1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"x","status":"pending"}]}`}),
		llmtest.Text("done"),
	)
	stream := c.openTimeline(t, s, "?after=0")
	expectStatus(t, "ask", c.postForm("/research/"+s+"/turns", url.Values{"question": {"plan"}}), http.StatusSeeOther)
	for {
		if f := stream.next(); regexp.MustCompile(`name="request_id"`).MatchString(f.Data) {
			break
		}
	}
	res := c.get("/research/" + s + "/delete")
	expectStatus(t, "confirm while running", res, http.StatusOK)
	expectContains(t, "confirm while running", res.body, `role="alert">A turn is running in this session`)
	res = c.postForm("/research/"+s+"/delete", nil)
	expectStatus(t, "delete while running", res, http.StatusConflict)
	expectContains(t, "delete while running", res.body, "A turn is running in this session", `data-testid="delete-confirm"`)

	expectStatus(t, "cancel", c.postForm("/research/"+s+"/cancel", nil), http.StatusSeeOther)
	a.waitTurn(t, s)
	expectStatus(t, "delete after the turn", c.postForm("/research/"+s+"/delete", nil), http.StatusSeeOther)
	expectStatus(t, "deleted", c.get("/research/"+s), http.StatusNotFound)
}
