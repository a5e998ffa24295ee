package fetch

import (
	"context"
	"fmt"
	"net/http"
)

// doCached answers a cacheable GET from the cache or from one shared
// request. The shared request runs detached from any single caller's
// cancellation (bounded by the call timeout), so a caller giving up does not
// fail the others or waste the quota already being spent; the first caller's
// byte cap and timeout govern it. Each caller's own byte cap and expected
// types are then applied to its copy of the result.
func (c *Client) doCached(ctx context.Context, req *http.Request, co call) (*Response, error) {
	key := cacheKey(req)
	if r, ok := c.cache.get(key, c.opt.Now()); ok {
		return c.forCaller(req, r, co)
	}
	shared := co
	shared.types = nil
	r, err := c.flights.Do(ctx, key, func() (*Response, error) {
		// A flight that ended between the cache miss above and this one
		// starting has stored its answer: use it, not a second request.
		if r, ok := c.cache.get(key, c.opt.Now()); ok {
			return r, nil
		}
		r, err := c.exchange(context.WithoutCancel(ctx), req, shared, readAll(shared.maxBytes))
		if err == nil && r.Status == http.StatusOK {
			c.cache.put(key, r, c.opt.Now().Add(co.cacheTTL))
		}
		return r, err
	})
	if err != nil {
		if ctx.Err() != nil && err == ctx.Err() {
			return nil, fmt.Errorf("fetch: %s %s: %w", req.Method, redact(req.URL), err)
		}
		return nil, err
	}
	return c.forCaller(req, r.clone(), co)
}

// forCaller applies one caller's byte cap and expected types to a cached or
// shared response.
func (c *Client) forCaller(req *http.Request, r *Response, co call) (*Response, error) {
	if int64(len(r.Body)) > co.maxBytes {
		return nil, fmt.Errorf("fetch: %s %s: %w: %d bytes exceed %d", req.Method, redact(req.URL), ErrTooLarge, len(r.Body), co.maxBytes)
	}
	if len(co.types) > 0 && r.Status/100 == 2 {
		if err := expectType(r.Header, co.types); err != nil {
			return nil, fmt.Errorf("fetch: %s %s: %w", req.Method, redact(req.URL), err)
		}
	}
	return r, nil
}
