package fs

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestDiffGolden(t *testing.T) {
	cases := []struct {
		name, old, new, want string
		added, removed       int
	}{
		{"equal", "a\n", "a\n", "", 0, 0},
		{"one line changed in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n",
			"--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n", 1, 1},
		{"insert at start", "a\nb\n", "new\na\nb\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n+new\n a\n b\n", 1, 0},
		{"insert into empty", "", "x\ny\n", "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n", 2, 0},
		{"delete all", "x\n", "", "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-x\n", 0, 1},
		{"append", "a\nb\nc\nd\ne\n", "a\nb\nc\nd\ne\nf\n", "--- a/f\n+++ b/f\n@@ -3,3 +3,4 @@\n c\n d\n e\n+f\n", 1, 0},
		{"no newline at end", "a\nb", "a\nc", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n", 1, 1},
		{"newline added at end", "a", "a\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n", 1, 1},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n", 2, 2},
		{"close changes merge", "1\n2\n3\n4\n5\n6\n7\n8\n", "X\n2\n3\n4\n5\n6\n7\nY\n",
			"--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n", 2, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Diff("f", c.old, c.new)
			if d.Text != c.want || d.Added != c.added || d.Removed != c.removed {
				t.Fatalf("diff\n%s(+%d -%d)\nwant\n%s(+%d -%d)", d.Text, d.Added, d.Removed, c.want, c.added, c.removed)
			}
		})
	}
}

// TestDiffApplies: for random texts the diff turns old into new (checked
// with a strict applier) and is minimal in its counts for small inputs.
func TestDiffApplies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		var b strings.Builder
		for range rng.IntN(25) {
			b.WriteString(string(rune('a' + rng.IntN(4))))
			b.WriteByte('\n')
		}
		s := b.String()
		if rng.IntN(4) == 0 && len(s) > 0 {
			s = s[:len(s)-1] // no final newline
		}
		return s
	}
	for i := range 3000 {
		old, new := gen(), gen()
		d := Diff("f", old, new)
		got, err := applyUnified(old, d.Text)
		if err != nil || got != new {
			t.Fatalf("case %d: %v\nold %q\nnew %q\ndiff\n%s\napplied %q", i, err, old, new, d.Text, got)
		}
		lcs := lcsLen(splitLines(old), splitLines(new))
		if d.Removed != len(splitLines(old))-lcs || d.Added != len(splitLines(new))-lcs {
			t.Fatalf("case %d: not minimal: +%d -%d with LCS %d", i, d.Added, d.Removed, lcs)
		}
	}
}

// TestDiffWithPatch checks that patch(1) applies our diffs (make test
// installs Debian's patch when it is missing).
func TestDiffWithPatch(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Fatal("patch(1) is not installed (Debian package patch; make test installs it)")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for i := range 40 {
		var ob, nb strings.Builder
		for j := range 60 {
			line := fmt.Sprintf("line %d\n", j)
			ob.WriteString(line)
			switch rng.IntN(10) {
			case 0:
			case 1:
				nb.WriteString("changed " + line)
			case 2:
				nb.WriteString(line + "inserted\n")
			default:
				nb.WriteString(line)
			}
		}
		old, new := ob.String(), nb.String()
		f := filepath.Join(dir, "f")
		os.WriteFile(f, []byte(old), 0o644)
		d := Diff("f", old, new)
		cmd := exec.Command(patch, "-s", "-p1", "-d", dir)
		cmd.Stdin = strings.NewReader(d.Text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v %s\n%s", i, err, out, d.Text)
		}
		if got := readString(t, f); got != new {
			t.Fatalf("case %d: patch gave a different file", i)
		}
	}
}

func TestDiffLargeRegionFallsBack(t *testing.T) {
	var ob, nb strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&ob, "o%d\n", i)
		fmt.Fprintf(&nb, "n%d\n", i)
	}
	d := Diff("f", ob.String(), nb.String())
	if d.Added != 3000 || d.Removed != 3000 {
		t.Fatalf("+%d -%d", d.Added, d.Removed)
	}
	if got, err := applyUnified(ob.String(), d.Text); err != nil || got != nb.String() {
		t.Fatalf("fallback diff does not apply: %v", err)
	}
}

func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

var hunkRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// applyUnified applies a unified diff strictly: context and removed lines
// must match and the hunk counts must be right.
func applyUnified(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	src := splitLines(old)
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("no headers")
	}
	var out []string
	pos := 0
	last := func(list []string) *string { return &list[len(list)-1] }
	lastWasOld := false
	for i := 2; i < len(lines) && lines[i] != ""; {
		m := hunkRE.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil {
			return "", fmt.Errorf("bad hunk header %q", lines[i])
		}
		num := func(s string, def int) int {
			if s == "" {
				return def
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		aStart, aCount := num(m[1], 0), num(m[2], 1)
		if aCount > 0 {
			aStart--
		}
		if aStart < pos {
			return "", fmt.Errorf("hunks overlap")
		}
		out = append(out, src[pos:aStart]...)
		pos = aStart
		i++
		seenA, seenB := 0, 0
		var removed []string
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			if strings.HasPrefix(l, `\ No newline`) {
				if lastWasOld {
					*last(removed) = strings.TrimSuffix(*last(removed), "\n")
					if pos == 0 || src[pos-1] != *last(removed) {
						return "", fmt.Errorf("no-newline marker on a line that has one")
					}
				} else {
					*last(out) = strings.TrimSuffix(*last(out), "\n")
				}
				continue
			}
			body := l[1:]
			switch l[0] {
			case ' ':
				if pos >= len(src) || strings.TrimSuffix(src[pos], "\n") != strings.TrimSuffix(body, "\n") {
					return "", fmt.Errorf("context mismatch at %d", pos)
				}
				out = append(out, src[pos])
				pos++
				seenA++
				seenB++
				lastWasOld = false
			case '-':
				if pos >= len(src) || strings.TrimSuffix(src[pos], "\n") != strings.TrimSuffix(body, "\n") {
					return "", fmt.Errorf("removed line mismatch at %d", pos)
				}
				removed = append(removed, body)
				pos++
				seenA++
				lastWasOld = true
			case '+':
				out = append(out, body)
				seenB++
				lastWasOld = false
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
		}
		if seenA != aCount || seenB != num(m[4], 1) {
			return "", fmt.Errorf("hunk counts %d,%d vs header %q", seenA, seenB, m[0])
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}
