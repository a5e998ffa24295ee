package ads

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Quota is ADS's account of the daily request quota for one endpoint, from
// the X-RateLimit-* headers of the most recent uncached response.
type Quota struct {
	// Endpoint is the API path the figures apply to, e.g. "/search/query".
	Endpoint string
	// Limit and Remaining are requests per day and requests left; -1 when
	// ADS did not say.
	Limit, Remaining int
	// Reset is when the quota refills; zero when ADS did not say.
	Reset time.Time
}

// quotaFrom reads the X-RateLimit-* headers.
func quotaFrom(h http.Header) Quota {
	q := Quota{Limit: headerInt(h, "X-RateLimit-Limit"), Remaining: headerInt(h, "X-RateLimit-Remaining")}
	if sec := headerInt(h, "X-RateLimit-Reset"); sec > 0 {
		q.Reset = time.Unix(int64(sec), 0).UTC()
	}
	return q
}

func headerInt(h http.Header, name string) int {
	n, err := strconv.Atoi(strings.TrimSpace(h.Get(name)))
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// noteQuota remembers the quota figures of an uncached response, when it
// has any.
func (c *Client) noteQuota(endpoint string, h http.Header) {
	q := quotaFrom(h)
	if q.Limit < 0 && q.Remaining < 0 {
		return
	}
	q.Endpoint = endpoint
	c.mu.Lock()
	defer c.mu.Unlock()
	c.quotas[endpoint] = q
}

// Quotas returns the last quota figures ADS reported, one per endpoint
// used so far, for display to administrators. Safe for concurrent use.
func (c *Client) Quotas() []Quota {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Quota, 0, len(c.quotas))
	for _, q := range c.quotas {
		out = append(out, q)
	}
	slices.SortFunc(out, func(a, b Quota) int { return strings.Compare(a.Endpoint, b.Endpoint) })
	return out
}
