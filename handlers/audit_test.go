package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

var auditRowRE = regexp.MustCompile(`(?s)<tr data-testid="audit-row">.*?</tr>`)

func auditRows(t *testing.T, body string) []string {
	t.Helper()
	return auditRowRE.FindAllString(body, -1)
}

func addAudit(t *testing.T, a *testApp, session string, n int, tool, status, preview string) {
	t.Helper()
	for i := range n {
		err := a.store.AppendAudit(context.Background(), &store.AuditEntry{SessionID: session, Turn: 1, Step: i + 1,
			AgentName: "lead", Tool: tool, ToolCallID: fmt.Sprintf("%s-%d", tool, i), Status: status, ElapsedMS: 12, OutputPreview: preview})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestAuditPage(t *testing.T) {
	a := newApp(t, nil)
	admin := a.setupAdmin()
	m := a.member("edwin", "expanding-universe")
	s1 := newResearchSession(t, m)
	s2 := newResearchSession(t, m)
	adminSession := newResearchSession(t, admin)

	res := m.get("/audit")
	expectStatus(t, "empty", res, http.StatusOK)
	expectContains(t, "empty", res.body, `href="/audit" aria-current="page"`, `data-testid="audit-filter"`, `data-testid="audit-empty"`,
		`<label for="audit-session">Session</label>`, `<option value="`+s1+`">Perseus cluster</option>`)
	expectLacks(t, "member page", res.body, `data-testid="audit-all"`, `data-testid="audit-pager"`)

	addAudit(t, a, s1, 70, "read_file", "ok", "<b>contents</b> "+strings.Repeat("x", 300))
	addAudit(t, a, s2, 50, "run_bash", "error", "exit status 1")
	addAudit(t, a, adminSession, 3, "search_ads", "ok", "admin's secret")

	// Page 1 of 120: 50 newest rows, a next link only.
	res = m.get("/audit")
	rows := auditRows(t, res.body)
	if len(rows) != 50 {
		t.Fatalf("page 1: %d rows", len(rows))
	}
	expectContains(t, "first row", rows[0], "<code>run_bash</code>", ">error</td>", `<td data-label="Elapsed">12 ms</td>`, "exit status 1",
		`<td data-label="Agent" data-testid="audit-agent">lead</td>`,
		`href="/audit?session=`+s2+`"`, "2026-11-30 09:00 UTC")
	expectContains(t, "pager", res.body, `href="/audit?page=2" rel="next">Next page`, "Page 1")
	expectLacks(t, "page 1", res.body, `rel="prev"`, "admin&#39;s secret", "search_ads")

	res = m.get("/audit?page=3")
	rows = auditRows(t, res.body)
	if len(rows) != 20 {
		t.Fatalf("page 3: %d rows", len(rows))
	}
	expectContains(t, "page 3", res.body, `href="/audit?page=2" rel="prev">Previous page`, "Page 3")
	expectLacks(t, "page 3", res.body, `rel="next"`)
	// Long previews are escaped and folded.
	expectContains(t, "preview", rows[0], `<details data-testid="audit-output-more"><summary><span class="audit-clip">&lt;b&gt;contents&lt;/b&gt; xxx`,
		`…</span> <span class="audit-show-all">show all</span></summary>`)
	expectLacks(t, "preview", rows[0], "<b>contents")

	// Filters, kept in the page links.
	res = m.get("/audit?tool=read_file&status=ok")
	if rows := auditRows(t, res.body); len(rows) != 50 || strings.Contains(strings.Join(rows, ""), "run_bash") {
		t.Fatalf("tool filter: %d rows", len(rows))
	}
	expectContains(t, "filter links", res.body, `href="/audit?page=2&amp;status=ok&amp;tool=read_file" rel="next"`,
		`<option value="read_file" selected>`, `<option value="ok" selected>`)
	res = m.get("/audit?session=" + s2)
	if rows := auditRows(t, res.body); len(rows) != 50 {
		t.Fatalf("session filter: %d rows", len(rows))
	}
	expectContains(t, "session filter", res.body, `<option value="`+s2+`" selected>`)
	expectLacks(t, "session filter", res.body, `data-testid="audit-pager"`)
	res = m.get("/audit?status=denied")
	expectContains(t, "no match", res.body, `data-testid="audit-empty"`)

	// Bad input.
	for _, q := range []string{"page=0", "page=x", "page=100001", "status=fine", "tool=" + url.QueryEscape("rm -rf"), "session=" + strings.Repeat("s", 65)} {
		res := m.get("/audit?" + q)
		expectStatus(t, "bad "+q, res, http.StatusBadRequest)
		expectContains(t, "bad "+q, res.body, `role="alert"`)
		if len(auditRows(t, res.body)) != 0 {
			t.Fatalf("bad %s lists rows", q)
		}
	}

	// Someone else's session: 404; all=1 is ignored for members.
	expectStatus(t, "other's session", m.get("/audit?session="+adminSession), http.StatusNotFound)
	expectStatus(t, "unknown session", m.get("/audit?session=nope"), http.StatusNotFound)
	res = m.get("/audit?all=1&tool=search_ads")
	expectStatus(t, "member all", res, http.StatusOK)
	expectContains(t, "member all", res.body, `data-testid="audit-empty"`)

	// Admins: their own rows by default, everyone's with all=1.
	res = admin.get("/audit")
	if rows := auditRows(t, res.body); len(rows) != 3 {
		t.Fatalf("admin own: %d rows", len(rows))
	}
	expectContains(t, "admin", res.body, `data-testid="audit-all"`)
	expectStatus(t, "admin, member's session without all", admin.get("/audit?session="+s1), http.StatusNotFound)
	res = admin.get("/audit?all=1&session=" + s1)
	expectStatus(t, "admin all", res, http.StatusOK)
	rows = auditRows(t, res.body)
	if len(rows) != 50 {
		t.Fatalf("admin all, session: %d rows", len(rows))
	}
	expectContains(t, "admin all", rows[0], `<td data-label="User">edwin</td>`, `href="/audit?all=1&amp;session=`+s1+`"`)
	expectContains(t, "admin all", res.body, `<th scope="col">User</th>`, `<label for="audit-session">Session id</label>`,
		`href="/audit?all=1&amp;page=2&amp;session=`+s1+`" rel="next"`)
	res = admin.get("/audit?all=1")
	expectContains(t, "admin all tools", res.body, `<option value="search_ads">`, `<option value="run_bash">`)

	expectStatus(t, "anonymous", a.client().get("/audit"), http.StatusSeeOther)
}
