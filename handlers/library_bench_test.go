package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/astroresearch/astroresearch/store"
)

// BenchmarkLibraryPage measures the library list page with 10,000 papers
// under 64 concurrent clients (in-process, no network): requests/s and p99.
func BenchmarkLibraryPage(b *testing.B) {
	a := newAppForBench(b)
	c := a.setupAdmin()
	ctx := context.Background()
	for i := 0; i < 10_000; i++ {
		id := fmt.Sprintf("2401.%05d", i)
		y := 2000 + i%25
		if _, _, err := a.store.UpsertPaper(ctx, store.Paper{Title: fmt.Sprintf("Paper %d on galaxy clusters", i), ArxivID: &id, Year: &y,
			Abstract: "We study the intracluster medium.", Authors: []string{"Smith, J.", "Doe, A.", "Roe, B."}, Keywords: []string{"clusters"}}); err != nil {
			b.Fatal(err)
		}
	}
	cookie := &http.Cookie{Name: "astro_session", Value: c.sessionCookie()}
	h := a.srv.Echo()
	for _, path := range []string{"/library", "/library?q=galaxy+clusters"} {
		b.Run(path, func(b *testing.B) {
			const clients, perClient = 64, 20
			var mu sync.Mutex
			var lat []time.Duration
			start := time.Now()
			var wg sync.WaitGroup
			for w := 0; w < clients; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < perClient; i++ {
						req := httptest.NewRequest(http.MethodGet, path, nil)
						req.AddCookie(cookie)
						rec := httptest.NewRecorder()
						t0 := time.Now()
						h.ServeHTTP(rec, req)
						d := time.Since(t0)
						if rec.Code != http.StatusOK {
							b.Errorf("%s = %d", path, rec.Code)
							return
						}
						mu.Lock()
						lat = append(lat, d)
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		})
	}
}
