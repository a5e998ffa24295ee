package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// guardedDialer resolves host names itself and dials only addresses that
// pass IsBlocked (unless the request's origin is allowed), so the check is
// made on the very IP connected to and a DNS answer that changes between a
// check and the connection (rebinding) gains nothing.
type guardedDialer struct {
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
}

// DialContext is used as http.Transport.DialContext. Every address host
// resolves to is checked before any is dialled; one blocked address refuses
// the whole name, since a public name has no business resolving to a
// private address.
func (d guardedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("dial %s: bad port: %w", addr, err)
	}
	allowed := dialAllowed(ctx, addr)
	ips, err := d.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	if !allowed {
		for _, ip := range ips {
			if err := checkAddr(ip); err != nil {
				return nil, fmt.Errorf("dial %s: %w", host, err)
			}
		}
	}
	nd := net.Dialer{
		Timeout:   10 * time.Second,
		KeepAlive: 30 * time.Second,
		// A second look at the socket address itself, in case anything
		// between lookup and connect substituted another address.
		ControlContext: func(_ context.Context, _, address string, _ syscall.RawConn) error {
			if allowed {
				return nil
			}
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: unparsable socket address %q", ErrBlockedAddress, address)
			}
			return checkAddr(ap.Addr())
		},
	}
	var errs []error
	for _, ip := range ips {
		conn, err := nd.DialContext(ctx, network, netip.AddrPortFrom(ip, uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("dial %s: %w", host, errors.Join(errs...))
}

// lookup returns host's addresses, resolved ones unmapped; an IP literal is
// its own answer, as written (so a zone on it is seen and refused).
func (d guardedDialer) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	ips, err := d.resolve(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("resolve %s: no addresses", host)
	}
	out := make([]netip.Addr, len(ips))
	for i, ip := range ips {
		out[i] = ip.Unmap()
	}
	return out, nil
}
