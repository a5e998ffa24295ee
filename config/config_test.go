package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"Addr", c.Addr, ":8080"},
		{"DataDir", c.DataDir, "./data"},
		{"BasePath", c.BasePath, ""},
		{"SessionLifetime", c.SessionLifetime, 24 * time.Hour},
		{"LLMBaseURL", c.LLMBaseURL, "http://localhost:11434/v1"},
		{"ADSAPIURL", c.ADSAPIURL, "https://api.adsabs.harvard.edu/v1"},
		{"ArxivAPIURL", c.ArxivAPIURL, "https://export.arxiv.org/api/query"},
		{"ArxivPDFURL", c.ArxivPDFURL, "https://arxiv.org/pdf"},
		{"ArxivHTMLURL", c.ArxivHTMLURL, "https://arxiv.org/html"},
		{"Ar5ivURL", c.Ar5ivURL, "https://ar5iv.labs.arxiv.org/html"},
		{"SesameURL", c.SesameURL, "https://cds.unistra.fr/cgi-bin/nph-sesame"},
		{"AgentMaxSteps", c.AgentMaxSteps, 8},
		{"AgentToolTimeout", c.AgentToolTimeout, 120 * time.Second},
		{"AgentMaxToolOutput", c.AgentMaxToolOutput, 4000},
		{"AgentContextCharLimit", c.AgentContextCharLimit, 16000},
		{"AgentTokenSoftLimit", c.AgentTokenSoftLimit, 32000},
		{"AgentTokenHardLimit", c.AgentTokenHardLimit, 40000},
		{"AgentMaxMessages", c.AgentMaxMessages, 50},
		{"CoordinatorWorkers", c.CoordinatorWorkers, 3},
		{"TLS", c.TLS(), false},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}

func TestLoadValues(t *testing.T) {
	c, err := Load(env(map[string]string{
		"ADDR":               "127.0.0.1:9000",
		"BASE_PATH":          "/astro/",
		"TRUSTED_PROXIES":    "10.0.0.0/8, 127.0.0.1,::1",
		"CORS_DEV_ORIGINS":   "http://localhost:5173",
		"LLM_FALLBACK_CHAIN": "qwen-plus, qwen-turbo ,",
		"LLM_BASE_URL":       "https://dashscope.aliyuncs.com/compatible-mode/v1/",
		"SESSION_LIFETIME":   "12h",
		"AGENT_MAX_STEPS":    "12",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.BasePath != "/astro" {
		t.Errorf("BasePath = %q", c.BasePath)
	}
	if len(c.TrustedProxies) != 3 || c.TrustedProxies[1].String() != "127.0.0.1/32" {
		t.Errorf("TrustedProxies = %v", c.TrustedProxies)
	}
	if strings.Join(c.LLMFallbackChain, "|") != "qwen-plus|qwen-turbo" {
		t.Errorf("LLMFallbackChain = %q", c.LLMFallbackChain)
	}
	if c.LLMBaseURL != "https://dashscope.aliyuncs.com/compatible-mode/v1" {
		t.Errorf("LLMBaseURL = %q", c.LLMBaseURL)
	}
	if c.SessionLifetime != 12*time.Hour || c.AgentMaxSteps != 12 || c.Addr != "127.0.0.1:9000" {
		t.Errorf("got %v %v %v", c.SessionLifetime, c.AgentMaxSteps, c.Addr)
	}
	if len(c.CORSDevOrigins) != 1 || c.CORSDevOrigins[0] != "http://localhost:5173" {
		t.Errorf("CORSDevOrigins = %v", c.CORSDevOrigins)
	}
}

func TestLoadErrorsNameTheVariable(t *testing.T) {
	cases := map[string]string{
		"ADDR":                    "8080",
		"BASE_PATH":               "astro",
		"TRUSTED_PROXIES":         "not-an-ip",
		"CORS_DEV_ORIGINS":        "localhost:5173",
		"SESSION_LIFETIME":        "forever",
		"SESSION_IDLE_TIMEOUT":    "10s",
		"LLM_BASE_URL":            "ftp://x",
		"ADS_API_URL":             "not a url",
		"LLM_ENABLE_THINKING":     "perhaps",
		"AGENT_MAX_STEPS":         "0",
		"AGENT_TOOL_TIMEOUT_SECS": "abc",
		"COORDINATOR_MAX_WORKERS": "1000",
		"LOG_LEVEL":               "loud",
	}
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Load(env(map[string]string{name: value}))
			if err == nil || !strings.Contains(err.Error(), name+":") {
				t.Fatalf("Load(%s=%q) error = %v, want one naming %s", name, value, err, name)
			}
		})
	}
}

func TestLoadCrossChecks(t *testing.T) {
	cases := []struct {
		env  map[string]string
		name string
	}{
		{map[string]string{"TLS_CERT_FILE": "/c.pem"}, "TLS_CERT_FILE"},
		{map[string]string{"ADMIN_USER": "root"}, "ADMIN_USER"},
		{map[string]string{"AGENT_TOKEN_HARD_LIMIT": "2000"}, "AGENT_TOKEN_HARD_LIMIT"},
		{map[string]string{"SESSION_LIFETIME": "1h", "SESSION_IDLE_TIMEOUT": "2h"}, "SESSION_IDLE_TIMEOUT"},
	}
	for _, tc := range cases {
		_, err := Load(env(tc.env))
		if err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("Load(%v) error = %v, want one naming %s", tc.env, err, tc.name)
		}
	}
}

func TestLoadReportsEveryBadVariable(t *testing.T) {
	_, err := Load(env(map[string]string{"ADDR": "x", "AGENT_MAX_STEPS": "-1"}))
	if err == nil || !strings.Contains(err.Error(), "ADDR") || !strings.Contains(err.Error(), "AGENT_MAX_STEPS") {
		t.Fatalf("error = %v, want both variables named", err)
	}
}

func TestWithDotenv(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".env")
	if err := os.WriteFile(path, []byte("ADDR=:9999\nDATA_DIR=/srv/astro\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	process := map[string]string{"ADDR": ":7000"}
	getenv, err := WithDotenv(func(k string) (string, bool) { v, ok := process[k]; return v, ok }, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := getenv("ADDR"); got != ":7000" {
		t.Errorf("process env must win: ADDR = %q", got)
	}
	if got := getenv("DATA_DIR"); got != "/srv/astro" {
		t.Errorf("DATA_DIR from .env = %q", got)
	}
	if _, err := WithDotenv(func(string) (string, bool) { return "", false }, filepath.Join(dir, "missing")); err != nil {
		t.Errorf("missing .env must be fine: %v", err)
	}
}
