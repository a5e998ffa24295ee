package llm

import (
	"strings"
)

// Classification (docs/features.md R3). Messages are matched case-insensitively after
// normalising '_' and '-' to spaces on both sides, so "rate_limit_exceeded"
// matches "rate limit" and "context_window_exceeded" matches itself in
// either spelling. The text matched is the error's message, type and code.
//
// Precedence, first match wins:
//  1. HTTP 429 → RateLimited, HTTP 529 → Overloaded: these statuses are the
//     providers' unambiguous back-off signals, whatever the message says.
//  2. TokenExhausted phrases ("maximum context length", "max_tokens"). They
//     are checked before PromptTooLong because "maximum context length"
//     also contains "context length"; the spec lists it under
//     TokenExhausted explicitly.
//  3. PromptTooLong: "prompt_too_long", "context length",
//     "context_window_exceeded", or HTTP 413.
//  4. Overloaded: "overloaded" (e.g. a 503 or an in-stream error).
//  5. RateLimited: "rate limit", "too many requests".
//  6. Timeout: HTTP 408 or 504, "timed out", "deadline exceeded".
//  7. ModelError otherwise.
//
// A caller's own cancelled context never reaches classification: it
// surfaces as context.Canceled (see callError).
func classify(status int, text string) ErrorClass {
	t := normalise(text)
	switch {
	case status == 429:
		return RateLimited
	case status == 529:
		return Overloaded
	case containsAny(t, "maximum context length", "max_tokens"):
		return TokenExhausted
	case status == 413 || containsAny(t, "prompt_too_long", "context length", "context_window_exceeded"):
		return PromptTooLong
	case containsAny(t, "overloaded"):
		return Overloaded
	case containsAny(t, "rate limit", "too many requests"):
		return RateLimited
	case status == 408 || status == 504 || containsAny(t, "timed out", "deadline exceeded"):
		return Timeout
	}
	return ModelError
}

// isQuota reports whether an error is a quota or spend limit, which waiting
// does not fix, so it is never retried even as a 429. Strong phrases are
// matched on message, type and code; the bare word "quota" only on the
// message, because DashScope's ordinary per-second throttle carries the
// code "Throttling.RateQuota".
func isQuota(message, typeAndCode string) bool {
	strong := []string{"insufficient_quota", "billing", "spend limit", "spending limit", "credit balance", "arrearage"}
	return containsAny(normalise(message+" "+typeAndCode), strong...) || containsAny(normalise(message), "quota")
}

func normalise(s string) string {
	return strings.NewReplacer("_", " ", "-", " ").Replace(strings.ToLower(s))
}

// containsAny reports whether the normalised text t contains one of the
// phrases (normalised here).
func containsAny(t string, phrases ...string) bool {
	for _, p := range phrases {
		if strings.Contains(t, normalise(p)) {
			return true
		}
	}
	return false
}
