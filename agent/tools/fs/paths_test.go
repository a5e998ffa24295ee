package fs

import (
	"errors"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
)

func TestCleanPath(t *testing.T) {
	cases := []struct {
		in, want, problem string
	}{
		{"", ".", ""},
		{".", ".", ""},
		{"notes.md", "notes.md", ""},
		{"  workspace/notes.md ", "workspace/notes.md", ""},
		{"./a//b/./c/", "a/b/c", ""},
		{"library/2401.01234.md", "library/2401.01234.md", ""},
		{"a~/b", "a~/b", ""},
		{"...", "...", ""},
		{"a..b/c", "a..b/c", ""},
		{"../../etc/passwd", "", "'..' is not allowed"},
		{"sub/../../x", "", "'..' is not allowed"},
		{"sub/..", "", "'..' is not allowed"},
		{"..", "", "'..' is not allowed"},
		{"/etc/passwd", "", "absolute paths"},
		{"//server/share", "", "absolute paths"},
		{"C:/Windows", "", "absolute paths"},
		{"c:x", "", "absolute paths"},
		{"~/x", "", "no home directory"},
		{"~root/x", "", "no home directory"},
		{`..\..\x`, "", "backslashes"},
		{`a\b`, "", "backslashes"},
		{"a\x00b", "", "NUL"},
		{"a\nb", "", "control character"},
		{"a\x7f", "", "control character"},
		{"\xff\xfe", "", "UTF-8"},
		{strings.Repeat("a/", MaxPathLen), "", "longer than"},
	}
	for _, c := range cases {
		got, err := CleanPath(c.in)
		if c.problem == "" {
			if err != nil || got != c.want {
				t.Errorf("CleanPath(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrBadPath) || !strings.Contains(err.Error(), c.problem) {
			t.Errorf("CleanPath(%q) = %q, %v; want an error about %q", c.in, got, err, c.problem)
		}
	}
}

func TestSplitRootAndResolve(t *testing.T) {
	e := newTestEnv(t)
	cases := []struct {
		in, display, root string
		writable          bool
	}{
		{"", "workspace", RootWorkspace, true},
		{"notes.md", "workspace/notes.md", RootWorkspace, true},
		{"workspace/notes.md", "workspace/notes.md", RootWorkspace, true},
		{"workspace/library/x", "workspace/library/x", RootWorkspace, true},
		{"librarian/x", "workspace/librarian/x", RootWorkspace, true},
		{"library", "library", RootLibrary, false},
		{"library/2401.01234.md", "library/2401.01234.md", RootLibrary, false},
		{"skills/photometry/SKILL.md", "skills/photometry/SKILL.md", RootSkills, false},
	}
	for _, c := range cases {
		tg, err := e.roots.resolve(e.tc, c.in)
		if err != nil {
			t.Errorf("resolve(%q): %v", c.in, err)
			continue
		}
		if tg.display() != c.display || tg.rootName != c.root || tg.writable != c.writable {
			t.Errorf("resolve(%q) = %s in %s (writable %v)", c.in, tg.display(), tg.rootName, tg.writable)
		}
		tg.close()
	}
}

func TestMissingRootIsExplained(t *testing.T) {
	data := t.TempDir()
	r, err := OpenRoots(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.Names(); strings.Join(got, ",") != "workspace,tool-results" {
		t.Fatalf("Names = %v", got)
	}
	_, err = r.resolve(&tools.Context{SessionID: "s"}, "library/x.md")
	if err == nil || !strings.Contains(err.Error(), "not available") || !strings.Contains(err.Error(), "workspace/ and tool-results/") {
		t.Fatalf("resolve of a missing root: %v", err)
	}
}

func TestSessionDirName(t *testing.T) {
	// Must agree with agent.outputFileName minus ".txt".
	if got := SessionDirName("sess-1"); got != "sess-1" {
		t.Errorf("plain id changed: %q", got)
	}
	for _, id := range []string{"../x", "a/b", "", strings.Repeat("a", 101), "x\x00"} {
		got := SessionDirName(id)
		if len(got) != 24 || strings.ContainsAny(got, "/.\\") {
			t.Errorf("SessionDirName(%q) = %q, want a 24-hex-digit hash", id, got)
		}
	}
}

// FuzzCleanPath: the checker never panics, and whatever it accepts stays
// inside any directory it is joined to.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"", ".", "notes.md", "../../etc/passwd", "/etc/passwd", "sub/../../x", "~/x",
		"a\x00b", `..\x`, "C:/x", "a/./b//c/", "library/../..", "....//..//", "a/.../b", " ../x", "\u2025/x"} {
		f.Add(s)
	}
	base := filepath.FromSlash("/srv/root")
	f.Fuzz(func(t *testing.T, p string) {
		got, err := CleanPath(p)
		if err != nil {
			if got != "" {
				t.Fatalf("CleanPath(%q) returned %q with error %v", p, got, err)
			}
			return
		}
		if got == "" || strings.HasPrefix(got, "/") || strings.ContainsAny(got, "\x00\\") {
			t.Fatalf("CleanPath(%q) = %q", p, got)
		}
		for part := range strings.SplitSeq(got, "/") {
			if part == ".." || part == "" || (part == "." && got != ".") {
				t.Fatalf("CleanPath(%q) = %q has component %q", p, got, part)
			}
		}
		if got != "." && !filepath.IsLocal(got) {
			t.Fatalf("CleanPath(%q) = %q is not local", p, got)
		}
		if path.Clean(got) != got {
			t.Fatalf("CleanPath(%q) = %q is not clean", p, got)
		}
		joined := filepath.Join(base, got)
		if joined != base && !strings.HasPrefix(joined, base+string(filepath.Separator)) {
			t.Fatalf("CleanPath(%q) = %q escapes: %s", p, got, joined)
		}
		if _, rest := splitRoot(got); rest == "" || strings.HasPrefix(rest, "/") {
			t.Fatalf("splitRoot(%q) gave %q", got, rest)
		}
	})
}
