package parse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// PDFEngine is the local PDF engine: poppler's pdftotext -bbox-layout
// gives words, lines and blocks with coordinates; this package rebuilds
// reading order, paragraphs and headings from them. Safe for concurrent
// use.
type PDFEngine struct {
	// Pdftotext is the program to run ("pdftotext" on PATH when empty).
	Pdftotext string
	// Pdftohtml is poppler's pdftohtml, run beside pdftotext for the
	// fonts ("pdftohtml" on PATH when empty). Without it the engine works
	// from positions and sizes alone.
	Pdftohtml string
	Limits    Limits
}

// Name implements Engine.
func (e *PDFEngine) Name() string { return "pdf" }

// Parse implements Engine.
func (e *PDFEngine) Parse(ctx context.Context, in Input, progress Progress) (Document, error) {
	if in.PDFPath == "" {
		return Document{}, fmt.Errorf("no stored PDF: %w", ErrNotApplicable)
	}
	lim := e.Limits.withDefaults()
	st, err := os.Stat(in.PDFPath)
	if err != nil {
		return Document{}, fmt.Errorf("pdf: %w", err)
	}
	if st.Size() > lim.MaxFileBytes {
		return Document{}, fmt.Errorf("the PDF is %d MB, over the %d MB limit: %w", st.Size()>>20, lim.MaxFileBytes>>20, ErrLimit)
	}
	progress.report("extracting the PDF's text")
	fonts := make(chan [][]fontRun, 1)
	go func() { fonts <- e.fonts(ctx, in.PDFPath, lim) }()
	pages, err := e.extract(ctx, in.PDFPath, lim)
	runs := <-fonts
	if err != nil {
		return Document{}, err
	}
	if len(runs) == len(pages) {
		for i := range pages {
			pages[i].runs = runs[i]
		}
	}
	progress.report(fmt.Sprintf("reassembling %d pages", len(pages)))
	md := layoutMarkdown(pages)
	if !hasLetter(md) {
		return Document{}, fmt.Errorf("the PDF has no text layer (a scan?): %w", ErrEmpty)
	}
	return Document{Markdown: md, Engine: e.Name(), Pages: len(pages), Source: in.PDFPath}, nil
}

// extract runs pdftotext under the time limit, reading at most
// MaxTextBytes of its output and at most MaxPages pages.
func (e *PDFEngine) extract(ctx context.Context, path string, lim Limits) ([]page, error) {
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	bin := e.Pdftotext
	if bin == "" {
		bin = "pdftotext"
	}
	// -l stops poppler one page past the limit, so a long document costs
	// no more than the limit allows.
	cmd := exec.CommandContext(ctx, bin, "-q", "-enc", "UTF-8", "-bbox-layout", "-l", fmt.Sprint(lim.MaxPages+1), "--", path, "-")
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{max: 4096, buf: &stderr}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pdf: run %s: %w", bin, err)
	}
	lr := &io.LimitedReader{R: out, N: lim.MaxTextBytes + 1}
	pages, rerr := readBBox(lr, lim.MaxPages)
	if rerr != nil || lr.N <= 0 {
		_ = cmd.Process.Kill() // stopped early: the rest is not wanted
	} else {
		_, _ = io.Copy(io.Discard, out) // let the process finish writing
	}
	werr := cmd.Wait()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("the PDF took longer than %s to read: %w", lim.Timeout, ErrLimit)
	case lr.N <= 0:
		return nil, fmt.Errorf("the PDF's text is over %d MB: %w", lim.MaxTextBytes>>20, ErrLimit)
	case errors.Is(rerr, errTooManyPages):
		return nil, fmt.Errorf("the PDF has more than %d pages: %w", lim.MaxPages, ErrLimit)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case werr != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = werr.Error()
		}
		return nil, fmt.Errorf("pdftotext could not read the PDF: %s", msg)
	case rerr != nil:
		return nil, fmt.Errorf("pdf: %w", rerr)
	}
	return pages, nil
}

// fonts runs pdftohtml -xml for the text runs and their fonts, under
// the same limits as extract. Nil when it fails: the fonts refine the
// layout, they are not needed for it.
func (e *PDFEngine) fonts(ctx context.Context, path string, lim Limits) [][]fontRun {
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	bin := e.Pdftohtml
	if bin == "" {
		bin = "pdftohtml"
	}
	cmd := exec.CommandContext(ctx, bin, "-q", "-xml", "-i", "-stdout", "-fontfullname", "-zoom", "1", "-enc", "UTF-8", "-l", fmt.Sprint(lim.MaxPages+1), "--", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil
	}
	if err := cmd.Start(); err != nil {
		return nil
	}
	lr := &io.LimitedReader{R: out, N: 2 * lim.MaxTextBytes}
	runs, rerr := readFontRuns(lr, lim.MaxPages)
	if rerr != nil || lr.N <= 0 {
		_ = cmd.Process.Kill()
	} else {
		_, _ = io.Copy(io.Discard, out)
	}
	if werr := cmd.Wait(); werr != nil || rerr != nil || lr.N <= 0 {
		return nil
	}
	return runs
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	max int
	buf *bytes.Buffer
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
