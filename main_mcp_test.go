package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMCPEndpoint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://localhost:8080", "http://localhost:8080/mcp"},
		{"https://astro.example.org/astro/", "https://astro.example.org/astro/mcp"},
		{"https://astro.example.org/astro/mcp", "https://astro.example.org/astro/mcp"},
		{" http://127.0.0.1:9000 ", "http://127.0.0.1:9000/mcp"},
		{"file:///etc/passwd", ""},
		{"localhost:8080", ""},
		{"http://", ""},
		{"http://h/x?y=1", ""},
	}
	for _, tt := range tests {
		got, err := mcpEndpoint(tt.in)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("mcpEndpoint(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestBridgeToken(t *testing.T) {
	dir := t.TempDir()
	file, empty := filepath.Join(dir, "token"), filepath.Join(dir, "empty")
	os.WriteFile(file, []byte("astro_fromfile\n"), 0o600)
	os.WriteFile(empty, nil, 0o600)
	env := envMap(map[string]string{"ASTRO_TOKEN": "astro_fromenv"})
	none := envMap(nil)
	tests := []struct {
		file   string
		getenv func(string) string
		want   string
		err    string
	}{
		{file, env, "astro_fromfile", ""},
		{"", env, "astro_fromenv", ""},
		{"", none, "", "no API token"},
		{empty, env, "", "is empty"},
		{filepath.Join(dir, "missing"), env, "", "read the token file"},
	}
	for _, tt := range tests {
		got, err := bridgeToken(tt.file, tt.getenv)
		if got != tt.want || (tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err))) {
			t.Errorf("bridgeToken(%q) = %q, %v", tt.file, got, err)
		}
	}
}

// TestRunMCPNeedsAToken: the command says what is missing before it
// reads stdin, and does not need the server's configuration.
func TestRunMCPNeedsAToken(t *testing.T) {
	var out syncBuffer
	err := run(context.Background(), []string{"mcp", "--url", "http://localhost:1"}, envMap(map[string]string{"ADDR": "not an address"}), &out)
	if err == nil || !strings.Contains(err.Error(), "no API token") || out.String() != "" {
		t.Fatalf("%v / %q", err, out.String())
	}
}

// TestMCPWarnsOnPlainRemote: the command warns (on stderr, never the
// protocol stream) before sending the token unencrypted to another
// machine, and not for this machine or https.
func TestMCPWarnsOnPlainRemote(t *testing.T) {
	env := envMap(map[string]string{"ASTRO_TOKEN": "astro_x"})
	for _, tt := range []struct {
		url  string
		warn bool
	}{
		{"http://astro.example.org/astro", true},
		{"http://192.168.1.20:8080", true},
		{"http://localhost:8080", false},
		{"http://127.0.0.1:8080", false},
		{"http://[::1]:8080", false},
		{"https://astro.example.org", false},
	} {
		var out, errOut syncBuffer
		if err := mcpBridge(context.Background(), []string{"--url", tt.url}, env, strings.NewReader(""), &out, &errOut); err != nil {
			t.Fatalf("%s: %v", tt.url, err)
		}
		if got := strings.Contains(errOut.String(), "unencrypted"); got != tt.warn || out.String() != "" {
			t.Errorf("%s: warned %v, want %v (stderr %q, stdout %q)", tt.url, got, tt.warn, errOut.String(), out.String())
		}
	}
}
