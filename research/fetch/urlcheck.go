package fetch

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// CheckURL reports whether raw may be fetched by a Client with an empty allow
// list, judging the URL alone: scheme, userinfo, host syntax, numeric host
// forms and literal IPs. Host names pass here and are judged again at dial
// time by the addresses they resolve to, so a nil error is necessary, not
// sufficient. The error wraps ErrBadURL, ErrBadScheme, ErrUserinfo,
// ErrNumericHost or ErrBlockedAddress. It never panics.
func CheckURL(raw string) error {
	u, err := parseURL(raw)
	if err == nil {
		err = checkURL(u, nil)
	}
	if err != nil {
		return fmt.Errorf("fetch: check URL: %w", err)
	}
	return nil
}

// parseURL parses an absolute URL, refusing backslashes, which browsers and
// some servers read as '/' and which make "http://a\@b/" mean different
// hosts to different parsers.
func parseURL(raw string) (*url.URL, error) {
	if strings.ContainsRune(raw, '\\') {
		return nil, fmt.Errorf("%w: backslash in URL", ErrBadURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadURL, err)
	}
	return u, nil
}

// checkURL applies the URL rules to u; an origin in allow skips only the
// host-range rules, never the scheme, userinfo and syntax rules.
func checkURL(u *url.URL, allow allowList) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return fmt.Errorf("%w: relative URL", ErrBadURL)
	default:
		return fmt.Errorf("%w: %q", ErrBadScheme, u.Scheme)
	}
	if u.User != nil {
		return ErrUserinfo
	}
	if u.Opaque != "" || u.Host == "" {
		return fmt.Errorf("%w: no host", ErrBadURL)
	}
	host, err := splitHost(u.Host)
	if err != nil {
		return err
	}
	if allow.allows(u) {
		return nil
	}
	return checkHost(host)
}

// splitHost validates the syntax of a URL authority without userinfo
// ("host", "host:port", "[v6]", "[v6]:port") and returns the host part
// without brackets. It re-checks what url.Parse checks, because Do also
// takes URLs built by hand.
func splitHost(hostport string) (string, error) {
	host, port := hostport, ""
	if strings.HasPrefix(hostport, "[") {
		end := strings.IndexByte(hostport, ']')
		if end < 0 {
			return "", fmt.Errorf("%w: unclosed '[' in host", ErrBadURL)
		}
		host, port = hostport[1:end], hostport[end+1:]
		if _, err := netip.ParseAddr(host); err != nil || !strings.Contains(host, ":") {
			return "", fmt.Errorf("%w: bad IPv6 literal %q", ErrBadURL, host)
		}
	} else if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		host, port = hostport[:i], hostport[i:]
	}
	if port != "" && port != ":" { // "host:" means the default port
		n, err := strconv.ParseUint(strings.TrimPrefix(port, ":"), 10, 16)
		if !strings.HasPrefix(port, ":") || err != nil || n == 0 {
			return "", fmt.Errorf("%w: bad port %q", ErrBadURL, port)
		}
	}
	if host == "" {
		return "", fmt.Errorf("%w: empty host", ErrBadURL)
	}
	return host, nil
}

// checkHost applies the host rules to a host without brackets or port.
func checkHost(host string) error {
	if strings.Contains(host, ":") { // IPv6 literal, validated by splitHost
		addr, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("%w: bad IPv6 literal %q", ErrBadURL, host)
		}
		return checkAddr(addr)
	}
	if err := checkHostName(host); err != nil {
		return err
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if endsInNumber(name) {
		// A canonical dotted quad is the only numeric form we accept; the
		// rest (2130706433, 0177.0.0.1, 0x7f.1, 127.1, "1.2.3.4.") mean an
		// IPv4 address to some resolver or browser but not to netip.
		addr, err := netip.ParseAddr(host)
		if err != nil || !addr.Is4() {
			return fmt.Errorf("%w: %q", ErrNumericHost, host)
		}
		return checkAddr(addr)
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		// RFC 6761: resolvers may answer these with loopback without DNS.
		return fmt.Errorf("%w: %q is a loopback name", ErrBlockedAddress, host)
	}
	return nil
}

// checkAddr wraps ErrBlockedAddress when addr is blocked.
func checkAddr(addr netip.Addr) error {
	if r := blockReason(addr); r != "" {
		return fmt.Errorf("%w: %s is a %s", ErrBlockedAddress, addr, r)
	}
	return nil
}

// checkHostName accepts DNS names in ASCII: labels of letters, digits, '-'
// and '_' separated by single dots, with at most one trailing dot. Non-ASCII
// names must arrive in punycode, so that no Unicode folding ("127。0。0。1")
// can turn a name into a numeric address after this check.
func checkHostName(host string) error {
	name := strings.TrimSuffix(host, ".")
	if name == "" || len(name) > 253 {
		return fmt.Errorf("%w: bad host name length", ErrBadURL)
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > 63 {
			return fmt.Errorf("%w: empty or overlong label in host %q", ErrBadURL, host)
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fmt.Errorf("%w: character %q in host %q", ErrBadURL, c, host)
			}
		}
	}
	return nil
}

// endsInNumber reports whether a lower-case host name without trailing dot
// would be parsed as an IPv4 address by the WHATWG URL standard (and, near
// enough, by inet_aton): its last label is all decimal digits or is "0x"
// followed by hex digits.
func endsInNumber(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if strings.HasPrefix(last, "0x") {
		return strings.Trim(last[2:], "0123456789abcdef") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}
