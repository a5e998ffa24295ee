package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// loadTarget is the request every load client repeats.
type loadTarget struct {
	URL    string
	Cookie *http.Cookie // sent when non-nil
}

// loadResult summarises one load run.
type loadResult struct {
	Latencies []time.Duration // of the successful requests, sorted ascending
	Errors    int             // failed requests (transport error or status ≠ 200)
	FirstErr  error
	Elapsed   time.Duration
}

// RPS returns successful requests per second.
func (r loadResult) RPS() float64 { return float64(len(r.Latencies)) / r.Elapsed.Seconds() }

// Percentile returns the latency below which the fraction p of successful
// requests completed (nearest rank), or 0 when there were none.
func (r loadResult) Percentile(p float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := min(len(r.Latencies)-1, max(0, int(float64(len(r.Latencies))*p+0.5)-1))
	return r.Latencies[i]
}

func (r loadResult) String() string {
	return fmt.Sprintf("%d ok, %d failed in %v: %.0f req/s, p50 %v, p99 %v, max %v",
		len(r.Latencies), r.Errors, r.Elapsed.Round(time.Millisecond), r.RPS(),
		r.Percentile(0.5), r.Percentile(0.99), r.Percentile(1))
}

// loadClient returns an HTTP client for n concurrent workers: enough idle
// connections that each keeps its own, and no redirect following, so a
// redirect (say, to the login page) counts as a failure.
func loadClient(n int) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 2 * n
	tr.MaxIdleConnsPerHost = n
	return &http.Client{
		Transport: tr,
		Timeout:   10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// runLoad has n workers repeat the target request back to back for d,
// recording every latency. Requests cut off by the end of d are not
// counted.
func runLoad(ctx context.Context, client *http.Client, target loadTarget, n int, d time.Duration) loadResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	parts := make([]loadResult, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range parts {
		wg.Go(func() { parts[i] = loadWorker(ctx, client, target) })
	}
	wg.Wait()
	total := loadResult{Elapsed: time.Since(start)}
	for _, p := range parts {
		total.Latencies = append(total.Latencies, p.Latencies...)
		total.Errors += p.Errors
		if total.FirstErr == nil {
			total.FirstErr = p.FirstErr
		}
	}
	slices.Sort(total.Latencies)
	return total
}

// loadWorker is one client of runLoad, until ctx ends.
func loadWorker(ctx context.Context, client *http.Client, target loadTarget) loadResult {
	var r loadResult
	r.Latencies = make([]time.Duration, 0, 4096)
	for ctx.Err() == nil {
		start := time.Now()
		err := hit(ctx, client, target)
		lat := time.Since(start)
		switch {
		case ctx.Err() != nil: // cut off by the deadline
		case err != nil:
			r.Errors++
			if r.FirstErr == nil {
				r.FirstErr = err
			}
		default:
			r.Latencies = append(r.Latencies, lat)
		}
	}
	return r
}

// hit sends one request and reads the whole response body.
func hit(ctx context.Context, client *http.Client, target loadTarget) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.URL, nil)
	if err != nil {
		return err
	}
	if target.Cookie != nil {
		req.AddCookie(target.Cookie)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %s", target.URL, resp.Status)
	}
	return nil
}

// sessionCookie is the name of the session cookie on plain HTTP.
const sessionCookie = "astro_session"

// apiLogin signs in through POST /api/auth/login and returns the session
// cookie.
func apiLogin(ctx context.Context, baseURL, user, password string) (*http.Cookie, error) {
	body, err := json.Marshal(map[string]string{"username": user, "password": password})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/api/auth/login", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("login: status %s: %s", resp.Status, msg)
	}
	for _, c := range resp.Cookies() {
		if c.Name == sessionCookie {
			return c, nil
		}
	}
	return nil, errors.New("login: no " + sessionCookie + " cookie in the response")
}
