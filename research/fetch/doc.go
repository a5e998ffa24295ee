// Package fetch is the one guarded outbound HTTP client (docs/features.md S7). Every
// request the application makes to the internet — API calls to ADS, arXiv and
// Sesame, paper and PDF downloads, bookmarklet imports — goes through a
// [Client], which enforces:
//
//   - URL rules on the first URL and on every redirect hop: scheme http or
//     https only, no userinfo, no backslashes, no numeric host shorthands
//     (decimal "2130706433", octal "0177.0.0.1", hex "0x7f.1", short "127.1"),
//     no literal IP in a blocked range, at most [MaxRedirects] hops.
//   - Address rules at dial time, on the IP actually being connected to (so DNS
//     rebinding does not help): loopback, private, link-local (including cloud
//     metadata endpoints), CGNAT, multicast, broadcast, unspecified, reserved
//     and documentation ranges, and IPv6 forms that embed such an IPv4 address
//     (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are refused; see [IsBlocked].
//   - An explicit allow list ([Options.Allow]) of configured API base URLs.
//     A request to exactly an allowed scheme+host+port may reach a private or
//     loopback address — that is how tests point clients at httptest fakes —
//     and nothing else may, not even a redirect from an allowed origin to
//     another port on the same machine.
//   - A byte cap on every body ([ErrTooLarge], checked against Content-Length
//     before reading and enforced while reading without buffering the excess),
//     an overall deadline per request, a polite User-Agent, a per-host rate
//     limit, and an opt-in response cache with request coalescing.
//
// HTTP status codes are not errors: a 404 or 503 is returned as a [Response]
// for the caller to inspect. Errors are reserved for refused URLs, transport
// failures, caps and deadlines; use errors.Is with the sentinel errors of this
// package, and with context.DeadlineExceeded for timeouts.
//
// Tests point a Client at httptest fakes by listing the fake's URL in
// Options.Allow, and usually set Options.DefaultRate to rate.Inf (and
// PerHost to an empty map) so that no request waits; Options.Resolver maps
// made-up host names to loopback without touching DNS; Options.Now and
// Options.Sleep make rate-limit waits and cache expiry deterministic.
package fetch
