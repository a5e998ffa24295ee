package handlers

import (
	"html"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/llm/llmtest"
)

func TestAdminOnly(t *testing.T) {
	a := newApp(t, nil)
	a.setupAdmin()
	m := a.member("edwin", "expanding-universe")
	res := m.get("/admin")
	expectStatus(t, "member on /admin", res, http.StatusForbidden)
	expectStatus(t, "member creates user", m.postForm("/admin/users", url.Values{"username": {"x"}, "password": {"longenough"}}), http.StatusForbidden)
	if home := m.get("/"); strings.Contains(home.body, `href="/admin"`) {
		t.Fatal("members must not see the admin link")
	}
}

func TestAdminUserManagement(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	res := admin.postForm("/admin/users", url.Values{"username": {"edwin"}, "password": {"expanding-universe"}, "role": {"member"}})
	expectStatus(t, "create", res, http.StatusSeeOther)
	page := admin.get("/admin")
	expectStatus(t, "admin page", page, http.StatusOK)
	for _, want := range []string{"edwin", "member", "Disable edwin", `data-testid="system-info"`} {
		if !strings.Contains(page.body, want) {
			t.Errorf("admin page lacks %q", want)
		}
	}
	if !strings.Contains(page.body, "User edwin created.") {
		t.Error("flash message missing")
	}
	res = admin.postForm("/admin/users", url.Values{"username": {"Edwin"}, "password": {"expanding-universe"}, "role": {"member"}})
	expectStatus(t, "duplicate", res, http.StatusConflict)
	res = admin.postForm("/admin/users", url.Values{"username": {"bad name"}, "password": {"expanding-universe"}, "role": {"member"}})
	expectStatus(t, "invalid name", res, http.StatusUnprocessableEntity)
	res = admin.postForm("/admin/users", url.Values{"username": {"x"}, "password": {"expanding-universe"}, "role": {"owner"}})
	expectStatus(t, "invalid role", res, http.StatusUnprocessableEntity)

	edwin := a.client()
	expectStatus(t, "edwin login", edwin.apiLogin("edwin", "expanding-universe"), http.StatusOK)
	res = admin.postForm("/admin/users/2/password", url.Values{"password": {"short"}})
	expectStatus(t, "short reset", res, http.StatusUnprocessableEntity)
	res = admin.postForm("/admin/users/2/password", url.Values{"password": {"hubble-constant"}})
	expectStatus(t, "reset", res, http.StatusSeeOther)
	if edwin.verify() != http.StatusUnauthorized {
		t.Fatal("password reset did not end the user's sessions")
	}
	expectStatus(t, "login with reset password", edwin.apiLogin("edwin", "hubble-constant"), http.StatusOK)

	expectStatus(t, "disable self", admin.postForm("/admin/users/1/disabled", url.Values{"disabled": {"true"}}), http.StatusConflict)
	expectStatus(t, "bad flag", admin.postForm("/admin/users/2/disabled", url.Values{"disabled": {"maybe"}}), http.StatusBadRequest)
	expectStatus(t, "unknown user", admin.postForm("/admin/users/99/disabled", url.Values{"disabled": {"true"}}), http.StatusNotFound)
	expectStatus(t, "disable", admin.postForm("/admin/users/2/disabled", url.Values{"disabled": {"true"}}), http.StatusSeeOther)
	if edwin.verify() != http.StatusUnauthorized {
		t.Fatal("disabled user still signed in")
	}
	expectStatus(t, "enable", admin.postForm("/admin/users/2/disabled", url.Values{"disabled": {"false"}}), http.StatusSeeOther)
	expectStatus(t, "login after enable", edwin.apiLogin("edwin", "hubble-constant"), http.StatusOK)
}

func TestAdminBackup(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	res := admin.postForm("/admin/backup", nil)
	expectStatus(t, "backup", res, http.StatusOK)
	m := regexp.MustCompile(`id="secret-value"[^>]*value="([^"]+)"`).FindStringSubmatch(res.body)
	if m == nil || !strings.Contains(res.body, `data-testid="backup-done"`) {
		t.Fatalf("backup path not shown:\n%s", res.body)
	}
	path := html.UnescapeString(m[1])
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("backup file %s: %v", path, err)
	}
}

func TestAdminSwitchesModel(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	page := admin.get("/admin")
	if !strings.Contains(page.body, `data-testid="model-info"`) || !strings.Contains(page.body, "test-model") {
		t.Fatalf("model section missing:\n%s", page.body)
	}
	expectStatus(t, "empty model", admin.postForm("/admin/model", url.Values{"model": {" "}}), http.StatusUnprocessableEntity)
	expectStatus(t, "switch", admin.postForm("/admin/model", url.Values{"model": {"qwen-max"}}), http.StatusSeeOther)
	if got := a.model.ActiveModel(); got != "qwen-max" {
		t.Fatalf("active model %q", got)
	}
	m := a.member("edwin", "expanding-universe")
	expectStatus(t, "member switch", m.postForm("/admin/model", url.Values{"model": {"x"}}), http.StatusForbidden)
}

// TestAdminShowsAgentTotals: the built-in metrics hook's counters since
// start are on the admin page (docs/features.md O4), tools most called first.
func TestAdminShowsAgentTotals(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	expectLacks(t, "admin page before any question", admin.get("/admin").body, `data-testid="agent-tools"`)
	s := newResearchSession(t, admin)
	a.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "todo_write", Args: `{"todos":[{"id":"t1","subject":"look up NGC 1275","status":"in_progress"}]}`}).WithUsage(120, 30),
		llmtest.Text("Done.").WithUsage(200, 5),
	)
	expectStatus(t, "ask", admin.postForm("/research/"+s+"/turns", url.Values{"question": {"plan it"}}), http.StatusSeeOther)
	a.waitTurn(t, s)
	doc := parseDoc(t, admin.get("/admin").body)
	totals := doc.Find(`[data-testid="agent-totals"]`).Text()
	for _, want := range []string{"Questions1", "Steps2", "Prompt tokens320", "Completion tokens35"} {
		if !strings.Contains(strings.Join(strings.Fields(totals), ""), strings.ReplaceAll(want, " ", "")) {
			t.Fatalf("agent totals lack %q: %q", want, totals)
		}
	}
	row := doc.Find(`[data-testid="agent-tools"] tbody tr`)
	if row.Length() != 1 || row.Find("td").First().Text() != "todo_write" || row.Find("td").Eq(1).Text() != "1" {
		t.Fatalf("tool rows: %q", row.Text())
	}
	m := a.member("edwin", "expanding-universe")
	expectStatus(t, "member", m.get("/admin"), http.StatusForbidden)
}
