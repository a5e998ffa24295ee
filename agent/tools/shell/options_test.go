package shell

import (
	"strings"
	"testing"
	"time"
)

func TestParseSandboxMode(t *testing.T) {
	for in, want := range map[string]SandboxMode{"": SandboxAuto, "auto": SandboxAuto, " Require ": SandboxRequire, "OFF": SandboxOff} {
		if got, err := ParseSandboxMode(in); err != nil || got != want {
			t.Errorf("ParseSandboxMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseSandboxMode("sometimes"); err == nil {
		t.Error("ParseSandboxMode(sometimes) succeeded")
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"valid", Options{Workspace: "/srv/ws"}, ""},
		{"empty workspace", Options{}, "Workspace is empty"},
		{"relative workspace", Options{Workspace: "ws"}, "not an absolute path"},
		{"root workspace", Options{Workspace: "/."}, "root directory"},
		{"negative timeout", Options{Workspace: "/ws", Timeout: -1}, "negative"},
		{"bad mode", Options{Workspace: "/ws", Sandbox: "maybe"}, "sandbox mode"},
		{"relative read-only path", Options{Workspace: "/ws", ReadOnlyPaths: []string{"opt"}}, "ReadOnlyPaths"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Validate()
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("Validate() = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestTimeoutFor(t *testing.T) {
	o := Options{Workspace: "/ws", MaxTimeout: 100 * time.Second}.withDefaults()
	cases := map[int]time.Duration{0: DefaultTimeout, 5: 5 * time.Second, 600: 100 * time.Second}
	for secs, want := range cases {
		if got := o.timeoutFor(secs); got != want {
			t.Errorf("timeoutFor(%d) = %v, want %v", secs, got, want)
		}
	}
	small := Options{Workspace: "/ws", MaxTimeout: 10 * time.Second}.withDefaults()
	if small.Timeout != 10*time.Second {
		t.Errorf("default timeout above MaxTimeout not lowered: %v", small.Timeout)
	}
}

func TestEnvironmentIsAllowlist(t *testing.T) {
	t.Setenv("LLM_API_KEY", "sk-test-secret")
	o := Options{Workspace: "/ws"}.withDefaults()
	var names []string
	for _, kv := range o.environment("id") {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name)
	}
	want := "PATH HOME TMPDIR LANG TERM " + runIDVar
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("environment names = %q, want %q", got, want)
	}
}
