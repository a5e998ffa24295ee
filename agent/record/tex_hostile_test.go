package record

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// hostile are texts a paper title, question, answer or tool error could
// carry that must neither break the record's compilation nor run anything.
var hostile = []string{
	`\input{/etc/passwd}`, `\immediate\write18{touch pwned}`, `}}}{{{ unbalanced`, `[optional] after item`, `[unclosed`,
	"line one\n\nline two after a blank line", `50% #1 a_b & c^2 ~x $ \\ \par`, "ŉ ĸ ſ ª º Łódź Ærø",
	"\\catcode`\\{=12", "^^5cinput{/etc/passwd}", "\\def\\x{y}\\x", "end with backslash \\",
}

// TestTeXHostileTextCompiles puts hostile text in every field the TeX
// record writes and compiles it with shell escape off: it must compile,
// the backslash commands must come out escaped, and nothing must run.
func TestTeXHostileTextCompiles(t *testing.T) {
	var latin strings.Builder // every Latin-1 and Latin Extended-A letter
	for r := rune(0xA0); r <= 0x17F; r++ {
		if unicode.IsLetter(r) {
			latin.WriteRune(r)
		}
	}
	hostile := append(slices.Clone(hostile), latin.String())
	h := strings.Join(hostile, " ")
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	rec := Record{SessionID: "s1", Title: h, Generated: at, Turns: []Turn{{
		N: 1, Question: strings.Join(hostile, "\n\n"), Started: at, Models: []string{h},
		Settings:  Settings{EndReason: h},
		Searches:  []Search{{Tool: "search_papers", Source: "[arXiv", Query: h, At: at, Notes: hostile}},
		Papers:    []PaperUse{{Action: "[read", Title: h, ArxivID: h}, {Action: "read", Title: "bad key", Key: `k}\input{/etc/passwd}`}},
		Citations: []Citation{{Title: "[" + h, Section: h, Sentence: h, Quote: h}, {Identifier: h, Sentence: "x"}},
		Errors:    []ToolError{{Tool: h, Status: h, Message: strings.Join(hostile, "\n\n")}},
		Answer:    strings.Join(hostile, "\n\n"),
	}}, Works: []Work{{Title: "bad key", Key: `k}\input{/etc/passwd}`}}}
	doc := rec.TeX()
	for _, bad := range []string{`\input{/etc`, `\write18`, `\catcode`, `\def\x`, `citet{k}`} {
		if strings.Contains(doc, bad) {
			t.Errorf("TeX carries %s unescaped", bad)
		}
	}
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex is not installed; escaping checked only")
	}
	if out, err := exec.Command("kpsewhich", "aastex631.cls").Output(); err != nil || len(strings.TrimSpace(string(out))) == 0 {
		t.Skip("the AASTeX class is not installed; escaping checked only")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "record.tex"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pdflatex, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", "record.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex failed on hostile text: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatal("hostile text ran a shell command")
	}
}
