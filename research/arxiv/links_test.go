package arxiv

import "testing"

func TestLinks(t *testing.T) {
	newID := ID{"2401.01234", 2}
	oldID := ID{"astro-ph/0601001", 1}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"pdf default", PDFURL("", newID), "https://arxiv.org/pdf/2401.01234v2"},
		{"pdf configured, trailing slash", PDFURL("https://mirror.example/pdf/", newID), "https://mirror.example/pdf/2401.01234v2"},
		{"pdf old style", PDFURL("https://arxiv.org/pdf", oldID), "https://arxiv.org/pdf/astro-ph/0601001v1"},
		{"pdf unversioned", PDFURL("https://arxiv.org/pdf", newID.Unversioned()), "https://arxiv.org/pdf/2401.01234"},
		{"html default", HTMLURL("", newID), "https://arxiv.org/html/2401.01234v2"},
		{"html configured", HTMLURL("http://127.0.0.1:9000/html", oldID), "http://127.0.0.1:9000/html/astro-ph/0601001v1"},
		{"ar5iv drops version", Ar5ivURL("", newID), "https://ar5iv.labs.arxiv.org/html/2401.01234"},
		{"ar5iv old style", Ar5ivURL("https://ar5iv.labs.arxiv.org/html", oldID), "https://ar5iv.labs.arxiv.org/html/astro-ph/0601001"},
		{"abs", AbsURL("", newID), "https://arxiv.org/abs/2401.01234v2"},
		{"hand-built id cannot escape", PDFURL("https://arxiv.org/pdf", ID{Base: "../../etc/passwd?x=#"}), "https://arxiv.org/pdf/_/_/etc/passwd%3Fx=%23"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Fatalf("got %s, want %s", tt.got, tt.want)
			}
		})
	}
	// Every link parses back to its id.
	for _, id := range []ID{newID, oldID} {
		for _, u := range []string{AbsURL("", id), PDFURL("", id), HTMLURL("", id)} {
			if got, err := ParseID(u); err != nil || got != id {
				t.Errorf("ParseID(%s) = %+v, %v; want %+v", u, got, err, id)
			}
		}
	}
}
