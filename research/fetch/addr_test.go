package fetch

import (
	"net/netip"
	"testing"
)

func TestIsBlocked(t *testing.T) {
	tests := []struct {
		addr    string
		blocked bool
	}{
		// IPv4 blocked ranges.
		{"127.0.0.1", true},
		{"127.255.255.254", true},
		{"10.0.0.1", true},
		{"10.255.255.255", true},
		{"172.16.0.1", true},
		{"172.31.255.255", true},
		{"192.168.1.1", true},
		{"169.254.169.254", true}, // cloud metadata
		{"169.254.0.1", true},
		{"100.64.0.1", true},
		{"100.100.100.200", true}, // Alibaba metadata, inside CGNAT
		{"100.127.255.255", true},
		{"0.0.0.0", true},
		{"0.1.2.3", true},
		{"255.255.255.255", true},
		{"224.0.0.1", true},
		{"239.255.255.250", true},
		{"240.0.0.1", true},
		{"192.0.0.192", true}, // Oracle metadata
		{"192.0.2.1", true},
		{"198.18.0.1", true},
		{"198.19.255.255", true},
		{"198.51.100.7", true},
		{"203.0.113.9", true},
		{"192.88.99.1", true},
		// IPv4 public neighbours of those ranges.
		{"8.8.8.8", false},
		{"1.1.1.1", false},
		{"100.63.255.255", false},
		{"100.128.0.0", false},
		{"172.15.255.255", false},
		{"172.32.0.1", false},
		{"192.167.255.255", false},
		{"192.169.0.1", false},
		{"169.253.255.255", false},
		{"198.17.255.255", false},
		{"198.20.0.0", false},
		{"223.255.255.255", false},
		{"128.0.0.1", false},
		// IPv6 blocked ranges and IPv4 embeddings.
		{"::", true},
		{"::1", true},
		{"::ffff:127.0.0.1", true},
		{"::ffff:7f00:1", true},
		{"::ffff:10.0.0.1", true},
		{"::ffff:169.254.169.254", true},
		{"::127.0.0.1", true}, // IPv4-compatible
		{"::8.8.8.8", true},   // IPv4-compatible, deprecated: refused regardless
		{"fe80::1", true},
		{"fe80::1%eth0", true},
		{"febf::1", true},
		{"fec0::1", true},
		{"fc00::1", true},
		{"fd00:ec2::254", true}, // AWS metadata
		{"ff02::1", true},
		{"ff0e::1", true},
		{"64:ff9b::7f00:1", true},
		{"64:ff9b::a9fe:a9fe", true},
		{"64:ff9b::10.1.1.1", true},
		{"64:ff9b:1::1", true},
		{"2002:7f00:1::1", true},
		{"2002:a9fe:a9fe::", true},
		{"2002:c0a8:101::1", true},
		{"2001::1", true}, // Teredo
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", true},
		{"2001:db8::1", true},
		{"3fff::1", true},
		{"2001:2::1", true},
		{"100::1", true},
		{"1::1", true},
		{"4000::1", true},
		// IPv6 public.
		{"2606:4700:4700::1111", false},
		{"2a00:1450:4001:82a::200e", false},
		{"::ffff:8.8.8.8", false},
		{"64:ff9b::808:808", false},
		{"2002:808:808::1", false},
		{"2001:4860:4860::8888", false},
		{"2001:1::1", false},
		{"2001:db9::1", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			a := netip.MustParseAddr(tt.addr)
			if got := IsBlocked(a); got != tt.blocked {
				t.Errorf("IsBlocked(%s) = %v, want %v (reason %q)", a, got, tt.blocked, blockReason(a))
			}
		})
	}
}

func TestIsBlockedInvalid(t *testing.T) {
	if !IsBlocked(netip.Addr{}) {
		t.Error("zero Addr not blocked")
	}
}

// TestIsBlockedEmbeddings checks that every IPv6 form carrying a blocked
// IPv4 address is blocked, and that forms carrying a public one follow it.
func TestIsBlockedEmbeddings(t *testing.T) {
	v4s := []string{"127.0.0.1", "10.9.8.7", "172.20.1.1", "192.168.0.10", "169.254.169.254",
		"100.64.1.1", "0.0.0.0", "255.255.255.255", "224.1.2.3", "8.8.8.8", "93.184.216.34"}
	for _, s := range v4s {
		v4 := netip.MustParseAddr(s)
		b := v4.As4()
		forms := map[string]netip.Addr{
			"mapped": netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: b[0], 13: b[1], 14: b[2], 15: b[3]}),
			"nat64":  netip.AddrFrom16([16]byte{0: 0x00, 1: 0x64, 2: 0xff, 3: 0x9b, 12: b[0], 13: b[1], 14: b[2], 15: b[3]}),
			"6to4":   netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02, 2: b[0], 3: b[1], 4: b[2], 5: b[3], 15: 1}),
		}
		for name, a := range forms {
			if got, want := IsBlocked(a), IsBlocked(v4); got != want {
				t.Errorf("%s form %s of %s: IsBlocked = %v, want %v", name, a, v4, got, want)
			}
		}
	}
}
