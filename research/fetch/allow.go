package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// allowList is the set of origins ("scheme://host:port", canonical) that may
// reach blocked addresses.
type allowList map[string]struct{}

// parseAllow builds the allow list; invalid entries are left out and reported.
func parseAllow(entries []string) (allowList, error) {
	a := allowList{}
	var errs []error
	for _, e := range entries {
		u, err := parseURL(e)
		if err == nil {
			err = checkAllowEntry(u)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("fetch: allow %q: %w", e, err))
			continue
		}
		a[originKey(u)] = struct{}{}
	}
	return a, errors.Join(errs...)
}

// checkAllowEntry applies the URL syntax rules, not the host-range rules.
func checkAllowEntry(u *url.URL) error {
	return checkURL(u, allowList{originKey(u): {}})
}

// allows reports whether u's origin is allowed. Safe on a nil list.
func (a allowList) allows(u *url.URL) bool {
	if len(a) == 0 {
		return false
	}
	_, ok := a[originKey(u)]
	return ok
}

// originKey canonicalises u's scheme, host and port: lower case, IPv6
// literals in canonical form, default ports made explicit.
func originKey(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	return scheme + "://" + dialKey(scheme, u.Hostname(), u.Port())
}

// dialKey is "host:port" in the form guardedDialer compares against the
// address the transport asks it to dial.
func dialKey(scheme, host, port string) string {
	host = strings.ToLower(host)
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.String()
	}
	if port == "" {
		switch strings.ToLower(scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return net.JoinHostPort(host, port)
}

// allowedDialKey carries, from the transport wrapper to the dialer, the
// host:port of a request whose origin is allowed. It travels in the request
// context, which net/http passes (minus cancellation) to DialContext;
// connections are pooled per scheme and host:port, so a connection dialled
// under this permission is only reused for the same allowed origin.
type allowedDialKey struct{}

func withAllowedDial(ctx context.Context, u *url.URL) context.Context {
	return context.WithValue(ctx, allowedDialKey{}, dialKey(u.Scheme, u.Hostname(), u.Port()))
}

// dialAllowed reports whether the request behind ctx was granted permission
// to dial addr (as given to DialContext).
func dialAllowed(ctx context.Context, addr string) bool {
	want, _ := ctx.Value(allowedDialKey{}).(string)
	if want == "" {
		return false
	}
	host, port, err := net.SplitHostPort(addr)
	return err == nil && dialKey("", host, port) == want
}
