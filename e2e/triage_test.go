package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTriageThroughTheAPI drives the daily arXiv triage of the real binary
// through its JSON API against a local arXiv stand-in: an unknown category
// is refused, a refresh fetches each day of the followed category once
// (paced by the server itself), and yesterday's digest lists the
// stand-in's papers with scores and reasons, highest first.
func TestTriageThroughTheAPI(t *testing.T) {
	feed, err := os.ReadFile("../research/arxiv/testdata/search_astroph.xml")
	if err != nil {
		t.Fatal(err)
	}
	feed = bytes.Replace(feed, []byte(">1523<"), []byte(">2<"), 1)
	feed = bytes.ReplaceAll(feed, []byte("astro-ph/0601001"), []byte("2401.05678"))
	feed = bytes.ReplaceAll(feed, []byte(`term="astro-ph"`), []byte(`term="astro-ph.GA"`))
	empty := []byte(`<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><opensearch:totalResults>0</opensearch:totalResults><opensearch:startIndex>0</opensearch:startIndex><opensearch:itemsPerPage>0</opensearch:itemsPerPage></feed>`)
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	var mu sync.Mutex
	asked := map[string]int{}
	ax := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("search_query") + " start=" + r.URL.Query().Get("start")
		mu.Lock()
		asked[q]++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/atom+xml")
		if strings.Contains(q, "cat:astro-ph.GA AND submittedDate:["+yesterday.Format("20060102")+"0000 TO ") {
			w.Write(feed)
			return
		}
		w.Write(empty)
	}))
	defer ax.Close()
	const user, password = "vera", "galaxy-rotation"
	a := startApp(t, map[string]string{"ADMIN_USER": user, "ADMIN_PASSWORD": password, "ARXIV_API_URL": ax.URL + "/api/query"})
	c := signIn(t, a.URL, user, password)

	put := func(body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPut, a.URL+"/api/triage/settings", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if status, body := put(`{"categories":["astro-ph.NOPE"],"keywords":[],"objects":[],"authors":[]}`); status != http.StatusBadRequest ||
		!strings.Contains(body, "unknown_category") {
		t.Fatalf("unknown category: %d %s", status, body)
	}
	if status, body := put(`{"categories":["astro-ph.GA"],"keywords":["dwarf"],"objects":[],"authors":["Nowak"]}`); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, body)
	}
	c.post("/api/triage/refresh", ``, http.StatusAccepted, nil)

	type item struct {
		ArxivID   string   `json:"arxiv_id"`
		Score     float64  `json:"score"`
		Reasons   []string `json:"reasons"`
		InLibrary bool     `json:"in_library"`
	}
	var d struct {
		Date  string `json:"date"`
		Items []item `json:"items"`
	}
	day := yesterday.Format("2006-01-02")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		c.get("/api/triage?date="+day, &d)
		if len(d.Items) == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	if d.Date != day || len(d.Items) != 2 || d.Items[0].ArxivID != "2401.01234" || d.Items[0].Score <= d.Items[1].Score ||
		!strings.Contains(strings.Join(d.Items[0].Reasons, " "), "by Tomasz Nowak") {
		out, _ := json.Marshal(d)
		t.Fatalf("digest of %s: %s", day, out)
	}
	mu.Lock()
	defer mu.Unlock()
	for q, n := range asked {
		if n != 1 {
			t.Errorf("%q asked %d times; each category-day page is fetched once", q, n)
		}
	}
}
