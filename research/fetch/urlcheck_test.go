package fetch

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// ssrfCases are URLs and the sentinel CheckURL must wrap (nil: accepted).
var ssrfCases = []struct {
	url  string
	want error
}{
	// Literal addresses in blocked ranges.
	{"http://127.0.0.1/", ErrBlockedAddress},
	{"http://127.0.0.1:8080/admin", ErrBlockedAddress},
	{"http://127.9.9.9/", ErrBlockedAddress},
	{"http://10.1.2.3/", ErrBlockedAddress},
	{"http://172.16.0.1/", ErrBlockedAddress},
	{"http://172.31.255.254/", ErrBlockedAddress},
	{"http://192.168.0.1/", ErrBlockedAddress},
	{"http://169.254.169.254/latest/meta-data/", ErrBlockedAddress},
	{"http://100.100.100.200/latest/meta-data/", ErrBlockedAddress},
	{"http://0.0.0.0/", ErrBlockedAddress},
	{"http://255.255.255.255/", ErrBlockedAddress},
	{"http://[::1]/", ErrBlockedAddress},
	{"http://[::1]:9000/", ErrBlockedAddress},
	{"http://[::]/", ErrBlockedAddress},
	{"http://[::ffff:127.0.0.1]/", ErrBlockedAddress},
	{"http://[::ffff:7f00:1]/", ErrBlockedAddress},
	{"http://[0:0:0:0:0:ffff:7f00:0001]/", ErrBlockedAddress},
	{"http://[::ffff:169.254.169.254]/", ErrBlockedAddress},
	{"http://[::127.0.0.1]/", ErrBlockedAddress},
	{"http://[fe80::1%25eth0]/", ErrBlockedAddress},
	{"http://[fe80::1]/", ErrBlockedAddress},
	{"http://[fd00:ec2::254]/", ErrBlockedAddress},
	{"http://[fc00::1]/", ErrBlockedAddress},
	{"http://[64:ff9b::7f00:1]/", ErrBlockedAddress},
	{"http://[2002:7f00:1::1]/", ErrBlockedAddress},
	{"http://[ff02::1]/", ErrBlockedAddress},
	{"http://localhost/", ErrBlockedAddress},
	{"http://LOCALHOST:80/", ErrBlockedAddress},
	{"http://localhost./", ErrBlockedAddress},
	{"http://api.localhost/", ErrBlockedAddress},
	// Numeric shorthands for IPv4 addresses.
	{"http://2130706433/", ErrNumericHost},
	{"http://0/", ErrNumericHost},
	{"http://0177.0.0.1/", ErrNumericHost},
	{"http://0177.1/", ErrNumericHost},
	{"http://0x7f.1/", ErrNumericHost},
	{"http://0x7f.0x0.0x0.0x1/", ErrNumericHost},
	{"http://0x7f000001/", ErrNumericHost},
	{"http://0X7F000001/", ErrNumericHost},
	{"http://127.1/", ErrNumericHost},
	{"http://127.0.1/", ErrNumericHost},
	{"http://127.0.0.1./", ErrNumericHost},
	{"http://127.000.000.001/", ErrNumericHost},
	{"http://017700000001/", ErrNumericHost},
	{"http://1.2.3.4.5/", ErrNumericHost},
	{"http://134744072/", ErrNumericHost}, // 8.8.8.8, refused all the same
	{"http://example.0x10/", ErrNumericHost},
	{"http://example.123/", ErrNumericHost},
	// Userinfo and parser-confusion tricks.
	{"http://evil.com@127.0.0.1/", ErrUserinfo},
	{"http://user:pass@example.org/", ErrUserinfo},
	{"http://user@example.org/", ErrUserinfo},
	{"http://@example.org/", ErrUserinfo},
	{"http://127.0.0.1#@evil.com", ErrBlockedAddress},
	{"http://127.0.0.1?@evil.com", ErrBlockedAddress},
	{"http://127.0.0.1\\@evil.com/", ErrBadURL},
	{"http://evil.com\\@127.0.0.1/", ErrBadURL},
	{"http:\\\\127.0.0.1\\", ErrBadURL},
	{"http://evil.com\\.127.0.0.1/", ErrBadURL},
	{"http://127。0。0。1/", ErrBadURL},
	{"http://bücher.example/", ErrBadURL},
	{"http://exa mple.org/", ErrBadURL},
	{"http://example..org/", ErrBadURL},
	{"http://.example.org/", ErrBadURL},
	{"http://example.org:0/", ErrBadURL},
	{"http://example.org:99999/", ErrBadURL},
	{"http://example.org:/", nil}, // empty port means the default
	{"http://[::1/", ErrBadURL},
	{"http://%31%32%37.0.0.1/", ErrBadURL},
	{"http:127.0.0.1", ErrBadURL},
	{"http:///127.0.0.1", ErrBadURL},
	{"//127.0.0.1/x", ErrBadURL},
	{"/just/a/path", ErrBadURL},
	{"", ErrBadURL},
	// Schemes.
	{"file:///etc/passwd", ErrBadScheme},
	{"FILE:///etc/passwd", ErrBadScheme},
	{"gopher://127.0.0.1:6379/_INFO", ErrBadScheme},
	{"ftp://example.org/", ErrBadScheme},
	{"dict://127.0.0.1:11211/stat", ErrBadScheme},
	{"javascript:alert(1)", ErrBadScheme},
	{"data:text/html,hi", ErrBadScheme},
	{"ws://example.org/", ErrBadScheme},
	// Fine.
	{"https://arxiv.org/abs/2101.00001", nil},
	{"https://api.adsabs.harvard.edu/v1/search/query?q=author%3Ax", nil},
	{"http://export.arxiv.org/api/query?search_query=all:electron", nil},
	{"HTTPS://Example.ORG/", nil},
	{"http://example.org./", nil},
	{"http://evil.com#@127.0.0.1", nil}, // the host really is evil.com
	{"http://xn--bcher-kva.example/", nil},
	{"http://ex_ample.org/", nil},
	{"http://0xcafe.com/", nil},
	{"http://127.0.0.1.nip.io/", nil}, // a name: judged at dial time
	{"http://8.8.8.8/", nil},
	{"http://8.8.8.8:8080/", nil},
	{"http://[2606:4700:4700::1111]/", nil},
	{"http://[::ffff:8.8.8.8]/", nil},
	{"http://[64:ff9b::808:808]/", nil},
}

func TestCheckURL(t *testing.T) {
	for _, tt := range ssrfCases {
		t.Run(tt.url, func(t *testing.T) {
			err := CheckURL(tt.url)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("CheckURL(%q) = %v, want nil", tt.url, err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("CheckURL(%q) = %v, want %v", tt.url, err, tt.want)
			}
		})
	}
}

func TestClientCheckURLAllow(t *testing.T) {
	c := New(testOptions("http://127.0.0.1:8081/v1", "https://API.fake.test", "http://[::1]:9000"))
	tests := []struct {
		url  string
		want error
	}{
		{"http://127.0.0.1:8081/v1/search", nil},
		{"http://127.0.0.1:8081/other/path", nil}, // paths are not part of the origin
		{"https://api.fake.test/x", nil},
		{"https://api.fake.test:443/x", nil},
		{"http://[0:0:0:0:0:0:0:1]:9000/", nil},
		{"http://127.0.0.1:8082/", ErrBlockedAddress},  // other port
		{"https://127.0.0.1:8081/", ErrBlockedAddress}, // other scheme
		{"http://127.0.0.1/", ErrBlockedAddress},       // default port
		{"http://localhost:8081/", ErrBlockedAddress},  // other host, same machine
		{"http://user@127.0.0.1:8081/", ErrUserinfo},   // allowed origin, still no userinfo
		{"gopher://127.0.0.1:8081/", ErrBadScheme},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := c.CheckURL(tt.url)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("CheckURL(%q) = %v, want %v", tt.url, err, tt.want)
			}
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		allow []string
		ok    bool
	}{
		{nil, true},
		{[]string{"http://127.0.0.1:8081", "https://api.adsabs.harvard.edu/v1"}, true},
		{[]string{"ftp://127.0.0.1"}, false},
		{[]string{"http://user@127.0.0.1"}, false},
		{[]string{"127.0.0.1:8080"}, false},
		{[]string{"http://0177.0.0.1"}, true}, // host rules do not apply to allow entries
		{[]string{"http://127.0.0.1:8081", "not a url"}, false},
	}
	for _, tt := range tests {
		err := Options{Allow: tt.allow}.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("Validate(%q) = %v, want ok=%v", tt.allow, err, tt.ok)
		}
	}
}

// FuzzCheckURL: the guard never panics, and never accepts a URL whose host
// means a blocked IP to netip or to a lenient inet_aton-style parser.
func FuzzCheckURL(f *testing.F) {
	for _, tt := range ssrfCases {
		f.Add(tt.url)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if CheckURL(raw) != nil {
			return
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("accepted unparsable %q: %v", raw, err)
		}
		if s := strings.ToLower(u.Scheme); s != "http" && s != "https" || u.User != nil {
			t.Fatalf("accepted scheme %q / userinfo %v in %q", u.Scheme, u.User, raw)
		}
		host := u.Hostname()
		if a, err := netip.ParseAddr(host); err == nil && IsBlocked(a) {
			t.Fatalf("accepted %q: host %s is blocked", raw, a)
		}
		if a, ok := parseLooseIPv4(host); ok && IsBlocked(a) {
			t.Fatalf("accepted %q: host %q is blocked %s in inet_aton form", raw, host, a)
		}
		if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
			t.Fatalf("accepted loopback name in %q", raw)
		}
		for i := 0; i < len(host); i++ {
			if host[i] >= 0x80 || host[i] == '\\' || host[i] == '%' && !strings.Contains(host, ":") {
				t.Fatalf("accepted host %q with byte %q", host, host[i])
			}
		}
	})
}

// parseLooseIPv4 reads host the way inet_aton and the WHATWG URL parser do:
// one to four parts, each decimal, octal (leading 0) or hex (0x), the last
// part filling the remaining bytes; one trailing dot allowed.
func parseLooseIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		base, digits := 10, p
		switch {
		case strings.HasPrefix(strings.ToLower(p), "0x"):
			base, digits = 16, p[2:]
			if digits == "" {
				digits = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, digits = 8, p[1:]
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if p == "" || err != nil {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (24 - 8*i)
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func TestParseLooseIPv4(t *testing.T) {
	tests := map[string]string{
		"2130706433": "127.0.0.1", "0177.0.0.1": "127.0.0.1", "0x7f.1": "127.0.0.1",
		"127.1": "127.0.0.1", "127.0.0.1.": "127.0.0.1", "0": "0.0.0.0", "10.0x10.1": "10.16.0.1",
	}
	for in, want := range tests {
		if got, ok := parseLooseIPv4(in); !ok || got.String() != want {
			t.Errorf("parseLooseIPv4(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"example.org", "1.2.3.4.5", "256.1", "08.1"} {
		if got, ok := parseLooseIPv4(in); ok {
			t.Errorf("parseLooseIPv4(%q) = %v, want failure", in, got)
		}
	}
}
