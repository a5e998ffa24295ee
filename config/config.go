// Package config loads AstroResearch's configuration from the environment.
//
// Every variable documented in docs/features.md §8 (and in .env.example) is parsed and
// validated here; a bad value is reported as an error that names the variable,
// so start-up can stop with a message the operator can act on.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Config is the whole runtime configuration. It is a plain value: pass it
// down, never store it in a package variable.
type Config struct {
	// Server
	Addr           string         // ADDR, listen address
	DataDir        string         // DATA_DIR, where the database and files live
	BasePath       string         // BASE_PATH, "" or "/prefix" (no trailing slash)
	TrustedProxies []netip.Prefix // TRUSTED_PROXIES, peers whose X-Forwarded-* headers are believed
	TLSCertFile    string         // TLS_CERT_FILE, serve HTTPS directly when set with TLS_KEY_FILE
	TLSKeyFile     string         // TLS_KEY_FILE
	CORSDevOrigins []string       // CORS_DEV_ORIGINS, extra origins allowed on /api/auth/* (local development)
	LogLevel       string         // LOG_LEVEL: debug, info, warn, error

	// Accounts
	SessionLifetime    time.Duration // SESSION_LIFETIME, absolute session lifetime
	SessionIdleTimeout time.Duration // SESSION_IDLE_TIMEOUT, inactivity limit
	AdminUser          string        // ADMIN_USER, creates the first admin at start when set
	AdminPassword      string        // ADMIN_PASSWORD

	// Model
	LLMBaseURL         string   // LLM_BASE_URL
	LLMAPIKey          string   // LLM_API_KEY
	LLMModel           string   // LLM_MODEL ("" = first model the endpoint lists)
	LLMFallbackModel   string   // LLM_FALLBACK_MODEL
	LLMFallbackChain   []string // LLM_FALLBACK_CHAIN
	LLMEnableThinking  bool     // LLM_ENABLE_THINKING
	EmbeddingBaseURL   string   // EMBEDDING_BASE_URL ("" = LLM_BASE_URL)
	EmbeddingAPIKey    string   // EMBEDDING_API_KEY
	EmbeddingModel     string   // EMBEDDING_MODEL
	CoordinatorWorkers int      // COORDINATOR_MAX_WORKERS

	// External services
	ADSAPIToken  string // ADS_API_TOKEN
	ADSAPIURL    string // ADS_API_URL
	ArxivAPIURL  string // ARXIV_API_URL
	ArxivPDFURL  string // ARXIV_PDF_URL
	ArxivHTMLURL string // ARXIV_HTML_URL
	Ar5ivURL     string // AR5IV_URL
	IOPURL       string // IOP_URL, IOPscience (full-text article pages)
	AandAURL     string // AANDA_URL, Astronomy & Astrophysics (full-text article pages)
	SesameURL    string // SESAME_URL
	SesameMirror string // SESAME_MIRROR_URL, tried when SESAME_URL fails ("" = none)
	MinerUAPIURL string // MINERU_API_URL
	GrobidURL    string // GROBID_URL

	// Agent
	AgentMaxSteps         int           // AGENT_MAX_STEPS
	AgentToolTimeout      time.Duration // AGENT_TOOL_TIMEOUT_SECS
	AgentMaxToolOutput    int           // AGENT_MAX_TOOL_OUTPUT_CHARS
	AgentContextCharLimit int           // AGENT_CONTEXT_CHAR_LIMIT
	AgentTokenSoftLimit   int           // AGENT_TOKEN_SOFT_LIMIT
	AgentTokenHardLimit   int           // AGENT_TOKEN_HARD_LIMIT
	AgentMaxMessages      int           // AGENT_MAX_MESSAGES
	AgentBashSandbox      string        // AGENT_BASH_SANDBOX: auto, require or off
	AgentMemoryExtraction bool          // AGENT_MEMORY_EXTRACTION: save memories after each turn
	AgentTitleProposal    bool          // AGENT_TITLE_PROPOSAL: the model proposes a session's title after its first answer
	// LLMContextWindow is the model's context window in tokens
	// (LLM_CONTEXT_WINDOW); 0 asks the server at start and on a model
	// switch.
	LLMContextWindow int
	// AgentLimitsSet says which context limits were set explicitly; the
	// others are derived from the model's context window.
	AgentLimitsSet AgentLimitsSet
}

// AgentLimitsSet records which of the agent's context limits the
// environment set (the rest follow the model's context window).
type AgentLimitsSet struct {
	ToolOutput, CharLimit, SoftLimit, HardLimit, MaxMessages bool
}

// Load reads the configuration through getenv (os.Getenv in production, a map
// in tests). It returns every invalid variable at once, each error naming it.
func Load(getenv func(string) string) (Config, error) {
	p := parser{getenv: getenv}
	c := Config{
		Addr:           p.addr("ADDR", ":8080"),
		DataDir:        p.str("DATA_DIR", "./data"),
		BasePath:       p.basePath("BASE_PATH"),
		TrustedProxies: p.prefixes("TRUSTED_PROXIES"),
		TLSCertFile:    p.str("TLS_CERT_FILE", ""),
		TLSKeyFile:     p.str("TLS_KEY_FILE", ""),
		CORSDevOrigins: p.origins("CORS_DEV_ORIGINS"),
		LogLevel:       p.oneOf("LOG_LEVEL", "info", "debug", "info", "warn", "error"),

		SessionLifetime:    p.duration("SESSION_LIFETIME", 24*time.Hour),
		SessionIdleTimeout: p.duration("SESSION_IDLE_TIMEOUT", 2*time.Hour),
		AdminUser:          p.str("ADMIN_USER", ""),
		AdminPassword:      p.str("ADMIN_PASSWORD", ""),

		LLMBaseURL:         p.url("LLM_BASE_URL", "http://localhost:11434/v1"),
		LLMAPIKey:          p.str("LLM_API_KEY", ""),
		LLMModel:           p.str("LLM_MODEL", ""),
		LLMFallbackModel:   p.str("LLM_FALLBACK_MODEL", ""),
		LLMFallbackChain:   p.list("LLM_FALLBACK_CHAIN"),
		LLMEnableThinking:  p.bool("LLM_ENABLE_THINKING", false),
		EmbeddingBaseURL:   p.url("EMBEDDING_BASE_URL", ""),
		EmbeddingAPIKey:    p.str("EMBEDDING_API_KEY", ""),
		EmbeddingModel:     p.str("EMBEDDING_MODEL", ""),
		CoordinatorWorkers: p.intRange("COORDINATOR_MAX_WORKERS", 3, 1, 64),

		ADSAPIToken:  p.str("ADS_API_TOKEN", ""),
		ADSAPIURL:    p.url("ADS_API_URL", "https://api.adsabs.harvard.edu/v1"),
		ArxivAPIURL:  p.url("ARXIV_API_URL", "https://export.arxiv.org/api/query"),
		ArxivPDFURL:  p.url("ARXIV_PDF_URL", "https://arxiv.org/pdf"),
		ArxivHTMLURL: p.url("ARXIV_HTML_URL", "https://arxiv.org/html"),
		Ar5ivURL:     p.url("AR5IV_URL", "https://ar5iv.labs.arxiv.org/html"),
		IOPURL:       p.url("IOP_URL", "https://iopscience.iop.org"),
		AandAURL:     p.url("AANDA_URL", "https://www.aanda.org"),
		SesameURL:    p.url("SESAME_URL", "https://cds.unistra.fr/cgi-bin/nph-sesame"),
		SesameMirror: p.url("SESAME_MIRROR_URL", "https://vizier.cfa.harvard.edu/viz-bin/nph-sesame"),
		MinerUAPIURL: p.url("MINERU_API_URL", ""),
		GrobidURL:    p.url("GROBID_URL", ""),

		AgentMaxSteps:         p.intRange("AGENT_MAX_STEPS", 8, 1, 100),
		AgentToolTimeout:      time.Duration(p.intRange("AGENT_TOOL_TIMEOUT_SECS", 120, 1, 3600)) * time.Second,
		AgentMaxToolOutput:    p.intRange("AGENT_MAX_TOOL_OUTPUT_CHARS", 4000, 200, 1_000_000),
		AgentContextCharLimit: p.intRange("AGENT_CONTEXT_CHAR_LIMIT", 16000, 1000, 10_000_000),
		AgentTokenSoftLimit:   p.intRange("AGENT_TOKEN_SOFT_LIMIT", 32000, 1000, 10_000_000),
		AgentTokenHardLimit:   p.intRange("AGENT_TOKEN_HARD_LIMIT", 40000, 1000, 10_000_000),
		AgentMaxMessages:      p.intRange("AGENT_MAX_MESSAGES", 50, 10, 10_000),
		AgentBashSandbox:      p.oneOf("AGENT_BASH_SANDBOX", "auto", "auto", "require", "off"),
		AgentMemoryExtraction: p.bool("AGENT_MEMORY_EXTRACTION", true),
		AgentTitleProposal:    p.bool("AGENT_TITLE_PROPOSAL", true),
		LLMContextWindow:      p.intRange("LLM_CONTEXT_WINDOW", 0, 1024, 10_000_000),
		AgentLimitsSet: AgentLimitsSet{
			ToolOutput: p.raw("AGENT_MAX_TOOL_OUTPUT_CHARS") != "", CharLimit: p.raw("AGENT_CONTEXT_CHAR_LIMIT") != "",
			SoftLimit: p.raw("AGENT_TOKEN_SOFT_LIMIT") != "", HardLimit: p.raw("AGENT_TOKEN_HARD_LIMIT") != "",
			MaxMessages: p.raw("AGENT_MAX_MESSAGES") != "",
		},
	}
	c.crossCheck(&p)
	if len(p.errs) > 0 {
		return Config{}, fmt.Errorf("config: %w", errors.Join(p.errs...))
	}
	return c, nil
}

// crossCheck validates rules that involve more than one variable.
func (c *Config) crossCheck(p *parser) {
	if (c.TLSCertFile == "") != (c.TLSKeyFile == "") {
		p.fail("TLS_CERT_FILE", "TLS_CERT_FILE and TLS_KEY_FILE must be set together")
	}
	if (c.AdminUser == "") != (c.AdminPassword == "") {
		p.fail("ADMIN_USER", "ADMIN_USER and ADMIN_PASSWORD must be set together")
	}
	if c.AgentTokenHardLimit < c.AgentTokenSoftLimit {
		p.fail("AGENT_TOKEN_HARD_LIMIT", "must not be below AGENT_TOKEN_SOFT_LIMIT")
	}
	if c.SessionIdleTimeout > c.SessionLifetime {
		p.fail("SESSION_IDLE_TIMEOUT", "must not exceed SESSION_LIFETIME")
	}
}

// TLS reports whether the server terminates TLS itself.
func (c Config) TLS() bool { return c.TLSCertFile != "" }

// parser accumulates one error per bad variable while reading values.
type parser struct {
	getenv func(string) string
	errs   []error
}

func (p *parser) fail(name, msg string) {
	p.errs = append(p.errs, fmt.Errorf("%s: %s", name, msg))
}

func (p *parser) raw(name string) string { return strings.TrimSpace(p.getenv(name)) }

func (p *parser) str(name, def string) string {
	if v := p.raw(name); v != "" {
		return v
	}
	return def
}

func (p *parser) addr(name, def string) string {
	v := p.str(name, def)
	if _, port, err := net.SplitHostPort(v); err != nil {
		p.fail(name, fmt.Sprintf("%q is not host:port (for example :8080)", v))
	} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		p.fail(name, fmt.Sprintf("%q has an invalid port", v))
	}
	return v
}

func (p *parser) basePath(name string) string {
	v := p.raw(name)
	if v == "" || v == "/" {
		return ""
	}
	v = strings.TrimRight(v, "/")
	u, err := url.Parse(v)
	if err != nil || !strings.HasPrefix(v, "/") || u.Path != v || strings.Contains(v, "//") ||
		strings.Contains(v, "/../") || strings.HasSuffix(v, "/..") {
		p.fail(name, fmt.Sprintf("%q must be a path such as /astro", v))
		return ""
	}
	return v
}

func (p *parser) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, item := range p.list(name) {
		if pf, err := netip.ParsePrefix(item); err == nil {
			out = append(out, pf.Masked())
			continue
		}
		addr, err := netip.ParseAddr(item)
		if err != nil {
			p.fail(name, fmt.Sprintf("%q is neither an IP address nor a CIDR range", item))
			continue
		}
		out = append(out, netip.PrefixFrom(addr, addr.BitLen()))
	}
	return out
}

func (p *parser) origins(name string) []string {
	var out []string
	for _, item := range p.list(name) {
		u, err := url.Parse(item)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			p.fail(name, fmt.Sprintf("%q is not an origin such as http://localhost:5173", item))
			continue
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out
}

func (p *parser) list(name string) []string {
	var out []string
	for _, item := range strings.Split(p.raw(name), ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func (p *parser) url(name, def string) string {
	v := p.str(name, def)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.fail(name, fmt.Sprintf("%q is not an http(s) URL", v))
		return ""
	}
	return strings.TrimRight(v, "/")
}

func (p *parser) bool(name string, def bool) bool {
	v := p.raw(name)
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		p.fail(name, fmt.Sprintf("%q is not a boolean (true or false)", v))
		return def
	}
	return b
}

func (p *parser) intRange(name string, def, lo, hi int) int {
	v := p.raw(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.fail(name, fmt.Sprintf("%q must be a whole number from %d to %d", v, lo, hi))
		return def
	}
	return n
}

func (p *parser) duration(name string, def time.Duration) time.Duration {
	v := p.raw(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Minute {
		p.fail(name, fmt.Sprintf("%q must be a duration of at least 1m, such as 24h or 90m", v))
		return def
	}
	return d
}

func (p *parser) oneOf(name, def string, allowed ...string) string {
	v := strings.ToLower(p.str(name, def))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	p.fail(name, fmt.Sprintf("%q must be one of %s", v, strings.Join(allowed, ", ")))
	return def
}

// ExplicitLimit is v when set is true and 0 (derive it) otherwise.
func ExplicitLimit(set bool, v int) int {
	if set {
		return v
	}
	return 0
}
