package fetch

import "net/netip"

// IsBlocked reports whether a connection to addr must be refused: anything
// that is not a globally routable unicast address, or that embeds one that is
// not. It covers loopback, RFC 1918 private, CGNAT (100.64/10), link-local
// (169.254/16 with the 169.254.169.254 metadata endpoint, fe80::/10),
// unique-local (fc00::/7, with AWS's fd00:ec2::254), "this network" 0/8,
// unspecified, multicast, broadcast and reserved ranges, benchmarking and
// documentation ranges, and in IPv6 the forms that carry an IPv4 address:
// IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) are judged
// by (or, for the deprecated compatible form, refused regardless of) the IPv4
// address, NAT64 64:ff9b::/96 and 6to4 2002::/16 by the embedded address.
// Teredo (2001::/32) is refused outright since its embedded client address is
// obfuscated. Addresses with a zone ("fe80::1%eth0") are always refused, as
// is the invalid zero Addr.
func IsBlocked(addr netip.Addr) bool {
	return blockReason(addr) != ""
}

// blockReason names why addr is blocked, or returns "" when it is not.
func blockReason(addr netip.Addr) string {
	if !addr.IsValid() {
		return "invalid address"
	}
	if addr.Zone() != "" {
		return "scoped address"
	}
	addr = addr.Unmap()
	if addr.Is4() {
		return blockReasonV4(addr.As4())
	}
	return blockReasonV6(addr.As16())
}

// blockReasonV4 classifies an IPv4 address; "" means globally routable.
func blockReasonV4(b [4]byte) string {
	switch {
	case b[0] == 0:
		return "this-network address" // 0.0.0.0/8, including unspecified
	case b[0] == 10, b[0] == 172 && b[1]&0xf0 == 16, b[0] == 192 && b[1] == 168:
		return "private address"
	case b[0] == 100 && b[1]&0xc0 == 64:
		return "shared (CGNAT) address" // 100.64.0.0/10
	case b[0] == 127:
		return "loopback address"
	case b[0] == 169 && b[1] == 254:
		return "link-local address" // includes 169.254.169.254 metadata
	case b[0] == 192 && b[1] == 0 && b[2] == 0:
		return "IETF protocol address" // 192.0.0.0/24, incl. 192.0.0.192 metadata on some clouds
	case b[0] == 192 && b[1] == 0 && b[2] == 2,
		b[0] == 198 && b[1] == 51 && b[2] == 100,
		b[0] == 203 && b[1] == 0 && b[2] == 113:
		return "documentation address"
	case b[0] == 192 && b[1] == 88 && b[2] == 99:
		return "6to4 relay address"
	case b[0] == 198 && b[1]&0xfe == 18:
		return "benchmarking address" // 198.18.0.0/15
	case b[0] >= 224 && b[0] < 240:
		return "multicast address"
	case b[0] >= 240:
		return "reserved or broadcast address"
	}
	return ""
}

// blockReasonV6 classifies a (non-IPv4-mapped) IPv6 address; "" means
// globally routable.
func blockReasonV6(b [16]byte) string {
	switch {
	case isZero(b[:12]):
		// ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d: nothing
		// legitimate lives here and some stacks route it to IPv4.
		return "unspecified, loopback or IPv4-compatible address"
	case b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && isZero(b[4:12]):
		if r := blockReasonV4([4]byte{b[12], b[13], b[14], b[15]}); r != "" {
			return "NAT64 form of " + r // 64:ff9b::/96
		}
		return ""
	case b[0]&0xe0 != 0x20:
		// Outside 2000::/3: unique-local fc00::/7, link-local fe80::/10,
		// site-local fec0::/10, multicast ff00::/8, local NAT64
		// 64:ff9b:1::/48, discard 100::/64 and unallocated space.
		return nonGlobalV6(b)
	case b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00:
		return "Teredo address" // 2001::/32
	case b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8,
		b[0] == 0x3f && b[1] == 0xff && b[2]&0xf0 == 0x00:
		return "documentation address" // 2001:db8::/32, 3fff::/20
	case b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x02 && b[4] == 0 && b[5] == 0:
		return "benchmarking address" // 2001:2::/48
	case b[0] == 0x20 && b[1] == 0x02:
		if r := blockReasonV4([4]byte{b[2], b[3], b[4], b[5]}); r != "" {
			return "6to4 form of " + r // 2002::/16
		}
	}
	return ""
}

// nonGlobalV6 names the range of an address outside 2000::/3.
func nonGlobalV6(b [16]byte) string {
	switch {
	case b[0]&0xfe == 0xfc:
		return "unique-local address" // includes fd00:ec2::254 metadata
	case b[0] == 0xfe && b[1]&0xc0 == 0x80:
		return "link-local address"
	case b[0] == 0xfe && b[1]&0xc0 == 0xc0:
		return "site-local address"
	case b[0] == 0xff:
		return "multicast address"
	}
	return "non-global address"
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}
