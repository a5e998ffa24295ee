package e2e

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// settle is how long the server sits idle before its resident memory is
// read: start-up and sign-in garbage is collected by then.
const settle = 2 * time.Second

// BenchmarkResidentMemory reports the real binary's resident memory
// (VmRSS) after start-up on an empty DATA_DIR ("MB-rss-startup", target
// ≤ 40) and after the first account is created and signs in, which runs
// argon2id twice with its 19 MiB work area ("MB-rss-signin", target ≤ 48:
// the work area must not stay with the process). Figures only, nothing is
// asserted. It measures once per b.N.
//
//	go test -tags sqlite_fts5 ./e2e/ -run '^$' -bench ResidentMemory -benchtime 1x
func BenchmarkResidentMemory(b *testing.B) {
	var startup, signin float64
	for range b.N {
		a := startApp(b, nil)
		time.Sleep(settle)
		rss, err := residentBytes(a.Pid())
		if err != nil {
			b.Fatal(err)
		}
		startup += float64(rss)

		const user, password = "vera", "galaxy-rotation-curve"
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.PostForm(a.URL+"/setup", url.Values{"username": {user}, "password": {password}})
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			b.Fatalf("setup: %s", resp.Status)
		}
		if _, err := apiLogin(context.Background(), a.URL, user, password); err != nil {
			b.Fatal(err)
		}
		time.Sleep(settle)
		if rss, err = residentBytes(a.Pid()); err != nil {
			b.Fatal(err)
		}
		signin += float64(rss)
		if err := a.stop(); err != nil {
			b.Fatalf("stop: %v", err)
		}
	}
	b.ReportMetric(startup/float64(b.N)/megabyte, "MB-rss-startup")
	b.ReportMetric(signin/float64(b.N)/megabyte, "MB-rss-signin")
	b.ReportMetric(0, "ns/op")
}
