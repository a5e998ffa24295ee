package parse

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/store"
)

type failing struct{}

func (failing) Name() string { return "broken" }
func (failing) Parse(context.Context, Input, Progress) (Document, error) {
	return Document{}, errors.New("boom")
}

// TestServiceParse: a stored PDF is parsed and saved with its engine; the
// hook runs; a later failure marks the paper failed and keeps the
// document; Markdown reports ErrNotParsed for an unparsed paper.
func TestServiceParse(t *testing.T) {
	requireSamples(t)
	ctx := context.Background()
	st, dir := newTestStore(t)
	id := "2006.00001"
	p, _, err := st.UpsertPaper(ctx, store.Paper{Title: "MNRAS guide", ArxivID: &id})
	if err != nil {
		t.Fatal(err)
	}
	svc := NewService(st, dir, &ArxivHTMLEngine{}, &PDFEngine{})
	if _, _, err := svc.Markdown(ctx, p.ID); !errors.Is(err, ErrNotParsed) {
		t.Fatalf("Markdown before parsing: %v", err)
	}
	if _, err := svc.Parse(ctx, p.ID, nil); err == nil {
		t.Fatal("parsed without a PDF")
	}
	if got, _ := st.PaperByID(ctx, p.ID); got.ParseStatus != "failed" || got.ParseError == "" {
		t.Errorf("status %q %q, want failed with a reason", got.ParseStatus, got.ParseError)
	}

	pdf := readTestdata(t, samples[1].pdf)
	rel := filepath.Join("library", "pdf", "x.pdf")
	os.MkdirAll(filepath.Join(dir, "library", "pdf"), 0o750)
	os.WriteFile(filepath.Join(dir, rel), pdf, 0o644)
	if _, err := st.AddPaperFile(ctx, store.PaperFile{PaperID: p.ID, Kind: "pdf", SHA256: "x", Path: rel, Bytes: int64(len(pdf))}); err != nil {
		t.Fatal(err)
	}
	var hooked int64
	svc.OnParsed = func(_ context.Context, id int64) { hooked = id }
	var steps []string
	c, err := svc.Parse(ctx, p.ID, func(s string) { steps = append(steps, s) })
	if err != nil {
		t.Fatal(err)
	}
	if c.Engine != "pdf" || c.Pages != 10 || !strings.Contains(c.Markdown, "## 1 INTRODUCTION") || hooked != p.ID || len(steps) < 2 {
		t.Errorf("engine %s pages %d hook %d steps %v", c.Engine, c.Pages, hooked, steps)
	}

	broken := NewService(st, dir, failing{})
	if _, err := broken.Parse(ctx, p.ID, nil); err == nil || !strings.Contains(err.Error(), "broken: boom") {
		t.Fatalf("failing engine: %v", err)
	}
	got, _ := st.PaperByID(ctx, p.ID)
	md, engine, err := svc.Markdown(ctx, p.ID)
	if got.ParseStatus != "failed" || !strings.Contains(got.ParseError, "boom") || err != nil || engine != "pdf" || md != c.Markdown {
		t.Errorf("after a failed re-parse: status %q %q, engine %q, err %v", got.ParseStatus, got.ParseError, engine, err)
	}
}

// TestPDFLimits: too many pages and a bad file fail with reasons.
func TestPDFLimits(t *testing.T) {
	requireSamples(t)
	e := &PDFEngine{Limits: Limits{MaxPages: 3}}
	if _, err := e.Parse(context.Background(), Input{PDFPath: samples[1].pdf}, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("10 pages with a limit of 3: %v", err)
	}
	e = &PDFEngine{Limits: Limits{MaxFileBytes: 1000}}
	if _, err := e.Parse(context.Background(), Input{PDFPath: samples[1].pdf}, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("file over the size limit: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pdf")
	os.WriteFile(bad, []byte("%PDF-1.4 not really"), 0o644)
	if _, err := (&PDFEngine{}).Parse(context.Background(), Input{PDFPath: bad}, nil); err == nil {
		t.Error("a broken PDF parsed")
	}
}
