package handlers

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// trustedProxies are the peers whose X-Forwarded-* headers we believe
// (TRUSTED_PROXIES). With none configured, forwarded headers are ignored.
type trustedProxies []netip.Prefix

func peerAddr(r *http.Request) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

func (tp trustedProxies) trusts(a netip.Addr) bool {
	for _, p := range tp {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// fromTrustedPeer reports whether the direct peer is a trusted proxy.
func (tp trustedProxies) fromTrustedPeer(r *http.Request) bool {
	a, ok := peerAddr(r)
	return ok && tp.trusts(a)
}

// realIP returns the client address: the direct peer, or — when the peer is
// a trusted proxy — the right-most X-Forwarded-For entry that is not itself
// a trusted proxy (entries further left are client-controlled).
func (tp trustedProxies) realIP(r *http.Request) string {
	a, ok := peerAddr(r)
	if !ok {
		return r.RemoteAddr
	}
	if !tp.trusts(a) {
		return a.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		h = h.Unmap()
		if !tp.trusts(h) {
			return h.String()
		}
	}
	return a.String()
}

// isHTTPS reports whether the client reached us over HTTPS: directly over
// TLS, or through a trusted proxy that says so in X-Forwarded-Proto.
func (tp trustedProxies) isHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !tp.fromTrustedPeer(r) {
		return false
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// origin returns the request's own origin (scheme://host).
func (tp trustedProxies) origin(r *http.Request) string {
	scheme := "http"
	if tp.isHTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
