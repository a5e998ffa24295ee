package handlers

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestSettingsPermissionRules(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()

	res := c.get("/settings")
	expectStatus(t, "settings", res, http.StatusOK)
	expectContains(t, "settings", res.body, `data-testid="no-rules"`, `data-testid="rule-form"`,
		`action="/settings/permissions"`, `<label for="rule_tool">`, `id="rule_pattern" name="pattern" maxlength="500" value="*"`,
		`<option value="deny">deny</option>`)

	res = c.postForm("/settings/permissions", url.Values{"tool": {" run_bash "}, "pattern": {`*"rm *`}, "decision": {"deny"}})
	expectStatus(t, "add", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/settings#permission-rules" {
		t.Fatalf("add went to %q", loc)
	}
	// Pattern left empty means "*".
	expectStatus(t, "add wildcard", c.postForm("/settings/permissions", url.Values{"tool": {"*"}, "pattern": {""}, "decision": {"ask"}}), http.StatusSeeOther)
	// The same tool and pattern again replaces the decision.
	expectStatus(t, "replace", c.postForm("/settings/permissions", url.Values{"tool": {"*"}, "pattern": {"*"}, "decision": {"allow"}}), http.StatusSeeOther)

	res = c.get("/settings")
	rows := regexp.MustCompile(`(?s)<tr data-testid="rule-row">.*?</tr>`).FindAllString(res.body, -1)
	if len(rows) != 2 {
		t.Fatalf("%d rule rows, want 2:\n%s", len(rows), res.body)
	}
	expectContains(t, "rule *", rows[0], "<code>*</code>", "<td>allow</td>", "2026-11-30 09:00 UTC")
	expectContains(t, "rule run_bash", rows[1], "<code>run_bash</code>", "<code>*&#34;rm *</code>", "<td>deny</td>", `aria-label="Remove rule deny run_bash *&#34;rm *"`)
	expectLacks(t, "settings", res.body, `data-testid="no-rules"`)

	u, err := a.store.UserByName(context.Background(), adminName)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := a.store.PermissionRules(context.Background(), u.ID)
	if err != nil || len(rules) != 2 {
		t.Fatalf("rules %v %v", rules, err)
	}
	bash := rules[1]
	if bash.Tool != "run_bash" || bash.Pattern != `*"rm *` || bash.Decision != "deny" {
		t.Fatalf("stored %+v", bash)
	}

	// Bad input: the page again, 422, the message beside the field and the
	// typed values kept.
	for _, tc := range []struct {
		form  url.Values
		field string
		msg   string
	}{
		{url.Values{"tool": {""}, "decision": {"allow"}}, "tool", "Write a tool name"},
		{url.Values{"tool": {"rm -rf"}, "decision": {"allow"}}, "tool", "A tool name is letters"},
		{url.Values{"tool": {strings.Repeat("a", 65)}, "decision": {"allow"}}, "tool", "A tool name is letters"},
		{url.Values{"tool": {"read_file"}, "pattern": {strings.Repeat("p", 501)}, "decision": {"allow"}}, "pattern", "The pattern is longer than 500"},
		{url.Values{"tool": {"read_file"}, "pattern": {"a\nb"}, "decision": {"allow"}}, "pattern", "The pattern cannot contain control"},
		{url.Values{"tool": {"read_file"}, "decision": {"always"}}, "decision", "Choose allow, ask or deny."},
		{url.Values{"tool": {"read_file"}}, "decision", "Choose allow, ask or deny."},
	} {
		res := c.postForm("/settings/permissions", tc.form)
		expectStatus(t, "bad rule "+tc.msg, res, http.StatusUnprocessableEntity)
		expectContains(t, "bad rule", res.body, `<p class="field-error" id="rule-`+tc.field+`-error">`+tc.msg, `aria-invalid="true"`)
	}
	res = c.postForm("/settings/permissions", url.Values{"tool": {"rm -rf"}, "pattern": {"x*"}, "decision": {"deny"}})
	expectContains(t, "kept values", res.body, `value="rm -rf"`, `value="x*"`, `<option value="deny" selected>`)
	if rules, _ := a.store.PermissionRules(context.Background(), u.ID); len(rules) != 2 {
		t.Fatalf("bad input stored a rule: %v", rules)
	}

	// Someone else cannot remove the rule; unknown and malformed ids are 404.
	other := a.member("edwin", "expanding-universe")
	del := "/settings/permissions/" + strconv.FormatInt(bash.ID, 10) + "/delete"
	expectStatus(t, "other user's remove", other.postForm(del, nil), http.StatusNotFound)
	expectStatus(t, "unknown remove", c.postForm("/settings/permissions/99999/delete", nil), http.StatusNotFound)
	expectStatus(t, "malformed remove", c.postForm("/settings/permissions/x/delete", nil), http.StatusNotFound)
	expectContains(t, "other user's settings", other.get("/settings").body, `data-testid="no-rules"`)

	res = c.postForm(del, nil)
	expectStatus(t, "remove", res, http.StatusSeeOther)
	page := c.get("/settings").body
	expectContains(t, "after remove", page, "Rule removed.")
	expectLacks(t, "after remove", page, "<code>run_bash</code>")
	if rules, _ := a.store.PermissionRules(context.Background(), u.ID); len(rules) != 1 {
		t.Fatalf("after remove: %v", rules)
	}
	expectStatus(t, "remove twice", c.postForm(del, nil), http.StatusNotFound)
}
