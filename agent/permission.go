package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/store"
)

// Decisions a user can give on a permission card (docs/features.md §9).
const (
	AllowOnce   = "allow_once"
	AllowAlways = "allow_always"
	Deny        = "deny"
)

// Permissions evaluates the docs/features.md R15 pipeline: the tool's own rule, then the
// user's central rules (Deny beats Allow beats Ask; default Allow; "*"
// matches any tool). In auto mode, read-only tools never ask.
type Permissions struct {
	st   *store.Store
	auto bool
}

// NewPermissions returns the checker; auto enables auto mode.
func NewPermissions(st *store.Store, auto bool) *Permissions {
	return &Permissions{st: st, auto: auto}
}

// Check returns the decision for one call and a reason for the user.
// hookAsk is a PreToolUse hook's PermissionRequired.
func (p *Permissions) Check(ctx context.Context, userID int64, t tools.Tool, tc *tools.Context, args json.RawMessage, hookAsk bool) (tools.PermissionDecision, string, error) {
	caps := tools.Caps(t)
	own := tools.DecisionNone
	if caps.Permission != nil {
		own = caps.Permission(ctx, tc, args)
	}
	if own == tools.DecisionDeny {
		return tools.DecisionDeny, "the tool refuses these arguments", nil
	}
	rules, err := p.st.PermissionRules(ctx, userID)
	if err != nil {
		return tools.DecisionNone, "", err
	}
	central := matchRules(rules, t.Name(), argumentSummary(args))
	decision, reason := tools.DecisionAllow, ""
	switch {
	case central == tools.DecisionDeny:
		return tools.DecisionDeny, "a permission rule denies this tool", nil
	case hookAsk:
		decision, reason = tools.DecisionAsk, "a hook asks for your approval"
	case central != tools.DecisionNone:
		decision, reason = central, "a permission rule asks for your approval"
	case own != tools.DecisionNone:
		decision, reason = own, fmt.Sprintf("%s asks for approval before it runs", t.Name())
	}
	if decision == tools.DecisionAsk && p.auto && caps.ReadOnly && !hookAsk {
		decision = tools.DecisionAllow
	}
	return decision, reason, nil
}

// matchRules applies the central rules that match tool and summary.
func matchRules(rules []store.PermissionRule, tool, summary string) tools.PermissionDecision {
	var allow, ask bool
	for _, r := range rules {
		if r.Tool != "*" && r.Tool != tool {
			continue
		}
		if r.Pattern != "*" && r.Pattern != "" && !globMatch(r.Pattern, summary) {
			continue
		}
		switch r.Decision {
		case "deny":
			return tools.DecisionDeny
		case "allow":
			allow = true
		case "ask":
			ask = true
		}
	}
	switch {
	case allow:
		return tools.DecisionAllow
	case ask:
		return tools.DecisionAsk
	}
	return tools.DecisionNone
}

// argumentSummary is what rule patterns match: the arguments' JSON,
// compact, keys sorted, no HTML escaping (e.g. a pattern
// `*"command":"rm *` for run_bash).
func argumentSummary(args json.RawMessage) string {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return strings.TrimSpace(string(args))
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return strings.TrimSpace(string(args))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// globMatch reports whether s matches pattern, where "*" matches any run of
// characters (slashes included, unlike path.Match) and "?" any one
// character. Every other character matches itself.
func globMatch(pattern, s string) bool {
	p, str := []rune(pattern), []rune(s)
	pi, si, star, mark := 0, 0, -1, 0
	for si < len(str) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == str[si]):
			pi++
			si++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
