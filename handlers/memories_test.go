package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func TestMemoriesPage(t *testing.T) {
	a := newApp(t, nil)
	c := a.setupAdmin()
	ctx := context.Background()
	page := c.get("/settings/memories")
	expectStatus(t, "empty page", page, http.StatusOK)
	if !strings.Contains(page.body, `data-testid="no-memories"`) {
		t.Fatal("empty state missing")
	}
	m, err := a.memory.Save(ctx, 1, "user", "The user studies X-ray cavities in galaxy clusters with Chandra.", "agent")
	if err != nil {
		t.Fatal(err)
	}
	other := a.member("edwin", "expanding-universe")
	theirs, _ := a.memory.Save(ctx, 2, "user", "Edwin measures Cepheid periods in nearby spiral galaxies.", "agent")

	page = c.get("/settings/memories")
	if !strings.Contains(page.body, "X-ray cavities") || strings.Contains(page.body, "Cepheid") {
		t.Fatal("the page must list the caller's memories only")
	}
	if !strings.Contains(c.get("/settings").body, `href="/settings/memories"`) {
		t.Fatal("settings does not link the memories page")
	}
	id := strconv.FormatInt(m.ID, 10)
	res := c.postForm("/settings/memories/"+id, url.Values{"kind": {"project"}, "content": {"today"}})
	expectStatus(t, "gate", res, http.StatusUnprocessableEntity)
	if !strings.Contains(res.body, "Not saved: it is too short") {
		t.Fatalf("gate message missing:\n%s", res.body)
	}
	res = c.postForm("/settings/memories/"+id, url.Values{"kind": {"project"}, "content": {"The project measures cavity power in the Perseus cluster core."}})
	expectStatus(t, "edit", res, http.StatusSeeOther)
	list, _ := a.memory.List(ctx, 1, 0)
	if len(list) != 1 || list[0].Kind != "project" || !strings.Contains(list[0].Content, "cavity power") {
		t.Fatalf("after edit %+v", list)
	}
	expectStatus(t, "edit someone else's", other.postForm("/settings/memories/"+id, url.Values{"kind": {"user"}, "content": {"Hijacked memory content that is long enough."}}), http.StatusNotFound)
	expectStatus(t, "delete someone else's", c.postForm("/settings/memories/"+strconv.FormatInt(theirs.ID, 10)+"/delete", nil), http.StatusNotFound)
	expectStatus(t, "delete", c.postForm("/settings/memories/"+id+"/delete", nil), http.StatusSeeOther)
	if list, _ := a.memory.List(ctx, 1, 0); len(list) != 0 {
		t.Fatalf("not deleted: %+v", list)
	}
}
