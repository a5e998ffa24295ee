package fetch

import "errors"

// Sentinel errors. Every error returned by this package wraps at most one of
// them (plus, for timeouts, context.DeadlineExceeded), so callers can branch
// with errors.Is. Their messages carry no "fetch:" prefix because the
// errors wrapping them do.
var (
	// ErrBlockedAddress: the URL's host is, or resolved to, an address in a
	// blocked range and its origin is not in Options.Allow.
	ErrBlockedAddress = errors.New("address not allowed")
	// ErrBadScheme: the scheme is not http or https (file, gopher, ftp, ...).
	ErrBadScheme = errors.New("scheme not allowed")
	// ErrUserinfo: the URL carries userinfo ("http://user@host/").
	ErrUserinfo = errors.New("userinfo in URL not allowed")
	// ErrNumericHost: the host is a non-canonical numeric IPv4 form (decimal,
	// octal, hex or shortened) that resolvers may silently turn into an IP.
	ErrNumericHost = errors.New("numeric host form not allowed")
	// ErrBadURL: the URL is malformed, relative, has no host, or has a host
	// with characters outside letters, digits, '-', '_' and '.'.
	ErrBadURL = errors.New("malformed URL")
	// ErrTooManyRedirects: more than MaxRedirects redirects were followed.
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrTooLarge: the body is, or announced to be, larger than the byte cap.
	ErrTooLarge = errors.New("response larger than byte cap")
	// ErrUnexpectedType: the Content-Type is not one of the expected types.
	ErrUnexpectedType = errors.New("unexpected content type")
)
