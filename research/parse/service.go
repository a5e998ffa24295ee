package parse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/astroresearch/astroresearch/store"
)

// Service parses library papers and serves their Markdown. Safe for
// concurrent use; at most one parse per paper runs at a time, and at most
// MaxParallel parses run their engines at once (the others wait their
// turn), whoever starts them: a user asking for every paper of the library
// cannot start a pdftotext process or a parse-service upload per paper.
type Service struct {
	st      *store.Store
	dataDir string
	engines []Engine
	// OnParsed, when set before first use, is called after each successful
	// parse with the paper's id (the retrieval index uses it).
	OnParsed func(ctx context.Context, paperID int64)

	mu      sync.Mutex
	running map[int64]bool
	// slots holds one token per parse running its engines.
	slots chan struct{}
}

// MaxParallel is how many parses run their engines at once.
const MaxParallel = 2

// NewService returns a service trying engines in order for each paper
// (the first applicable one that succeeds wins). PDFs are looked up under
// dataDir.
func NewService(st *store.Store, dataDir string, engines ...Engine) *Service {
	return &Service{st: st, dataDir: dataDir, engines: engines, running: map[int64]bool{},
		slots: make(chan struct{}, MaxParallel)}
}

// ErrRunning means the paper is being parsed already.
var ErrRunning = errors.New("parse: the paper is being parsed already")

// Running reports whether paperID's parse runs in this process.
func (s *Service) Running(paperID int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running[paperID]
}

func (s *Service) claim(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[id] {
		return false
	}
	s.running[id] = true
	return true
}

func (s *Service) release(id int64) {
	s.mu.Lock()
	delete(s.running, id)
	s.mu.Unlock()
}

// Parse converts the paper with the first engine that succeeds, stores the
// Markdown (replacing the previous document in one transaction) and marks
// the paper parsed. When every engine fails the paper is marked "failed"
// with the reasons, and any earlier document stays as it was.
func (s *Service) Parse(ctx context.Context, paperID int64, progress Progress) (store.PaperContent, error) {
	if !s.claim(paperID) {
		return store.PaperContent{}, ErrRunning
	}
	defer s.release(paperID)
	p, err := s.st.PaperByID(ctx, paperID)
	if err != nil {
		return store.PaperContent{}, err
	}
	in, err := s.input(ctx, p)
	if err != nil {
		return store.PaperContent{}, err
	}
	if len(s.slots) == cap(s.slots) {
		progress.report("waiting for other parses to finish")
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return store.PaperContent{}, ctx.Err()
	}
	if err := s.st.SetParseStatus(ctx, paperID, "parsing", ""); err != nil {
		<-s.slots
		return store.PaperContent{}, err
	}
	doc, reasons := s.run(ctx, in, progress)
	<-s.slots
	if doc.Markdown == "" {
		msg := strings.Join(reasons, "; ")
		if ctx.Err() != nil {
			msg = "cancelled"
		}
		if msg == "" {
			msg = "no stored PDF and no arXiv HTML version: download the PDF first"
		}
		_ = s.st.SetParseStatus(context.WithoutCancel(ctx), paperID, "failed", msg)
		if ctx.Err() != nil {
			return store.PaperContent{}, ctx.Err()
		}
		return store.PaperContent{}, fmt.Errorf("parse failed: %s", msg)
	}
	c := store.PaperContent{PaperID: paperID, Markdown: doc.Markdown, Engine: doc.Engine, Source: doc.Source, Pages: doc.Pages}
	if err := s.st.SavePaperContent(ctx, c); err != nil {
		return store.PaperContent{}, err
	}
	if s.OnParsed != nil {
		s.OnParsed(ctx, paperID)
	}
	return s.st.PaperContent(ctx, paperID)
}

// run tries the engines in order and returns the first document, or the
// reasons each applicable engine failed.
func (s *Service) run(ctx context.Context, in Input, progress Progress) (Document, []string) {
	var reasons []string
	for _, e := range s.engines {
		doc, err := e.Parse(ctx, in, progress)
		switch {
		case err == nil && strings.TrimSpace(doc.Markdown) != "":
			if doc.Engine == "" {
				doc.Engine = e.Name()
			}
			return doc, nil
		case errors.Is(err, ErrNotApplicable):
			continue
		case ctx.Err() != nil:
			return Document{}, nil
		case err == nil:
			err = ErrEmpty
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v", e.Name(), err))
	}
	return Document{}, reasons
}

// input gathers what the engines may use: identifiers and the newest
// stored PDF (only files under dataDir/library/pdf).
func (s *Service) input(ctx context.Context, p store.Paper) (Input, error) {
	in := Input{}
	if p.DOI != nil {
		in.DOI = *p.DOI
	}
	if p.ArxivID != nil {
		in.ArxivID = *p.ArxivID
		if p.ArxivVersion != nil {
			in.ArxivVersion = *p.ArxivVersion
		}
	}
	files, err := s.st.PaperFiles(ctx, p.ID)
	if err != nil {
		return Input{}, err
	}
	root, err := filepath.Abs(filepath.Join(s.dataDir, "library", "pdf"))
	if err != nil {
		return Input{}, err
	}
	for _, f := range files {
		full, err := filepath.Abs(filepath.Join(s.dataDir, f.Path))
		if f.Kind != "pdf" || err != nil || !strings.HasPrefix(full, root+string(filepath.Separator)) {
			continue
		}
		if st, err := os.Stat(full); err == nil && st.Mode().IsRegular() {
			in.PDFPath = full
			break
		}
	}
	return in, nil
}

// Markdown returns the paper's current parsed document and the engine that
// made it, or an error wrapping ErrNotParsed.
func (s *Service) Markdown(ctx context.Context, paperID int64) (md string, engine string, err error) {
	c, err := s.st.PaperContent(ctx, paperID)
	if errors.Is(err, store.ErrNotFound) {
		return "", "", fmt.Errorf("paper %d: %w", paperID, ErrNotParsed)
	}
	if err != nil {
		return "", "", err
	}
	return c.Markdown, c.Engine, nil
}
