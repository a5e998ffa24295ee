package textcut

import "testing"

func TestPrefix(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"星系星系", 3, "星系星"},
		{"α Cen", 1, "α"},
		{"abc", 0, ""},
		{"", 5, ""},
	}
	for _, c := range cases {
		if got := Prefix(c.in, c.n); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestEllipsize(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"星系星系", 3, "星系…"},
		{"abcd", 1, "…"},
		{"ab  cd", 4, "ab…"},
		{"abcd", 0, ""},
	}
	for _, c := range cases {
		if got := Ellipsize(c.in, c.n); got != c.want {
			t.Errorf("Ellipsize(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func FuzzEllipsize(f *testing.F) {
	f.Add("星系 M31", 4)
	f.Fuzz(func(t *testing.T, s string, n int) {
		// Fold n into [-1, 65536] instead of skipping inputs outside it.
		n = n%(1<<16+2) - 1
		n = max(n, -1)
		got := Ellipsize(s, n)
		if len([]rune(got)) > max(n, 0) {
			t.Fatalf("Ellipsize(%q, %d) = %q is longer than %d runes", s, n, got, n)
		}
		if len([]rune(s)) <= n && got != s {
			t.Fatalf("Ellipsize changed a short string: %q -> %q", s, got)
		}
	})
}
