package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// benchHandler measures one route in-process (no network), signed in as the
// admin, so handler costs can be compared and profiled.
func benchHandler(b *testing.B, path string) {
	a := newAppForBench(b)
	c := a.setupAdmin()
	cookie := &http.Cookie{Name: "astro_session", Value: c.sessionCookie()}
	h := a.srv.Echo()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.AddCookie(cookie)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Errorf("%s = %d", path, rec.Code)
				return
			}
		}
	})
}

func BenchmarkHealthz(b *testing.B)  { benchHandler(b, "/healthz") }
func BenchmarkHomePage(b *testing.B) { benchHandler(b, "/") }
