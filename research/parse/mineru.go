package parse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strings"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// MinerUEngine sends the stored PDF to a self-hosted MinerU API
// (MINERU_API_URL, the `mineru-api` server) and normalises the Markdown it
// returns to this package's shape: headings levelled by their numbering,
// display math as one-line $$…$$, HTML tables rebuilt (text and spans only),
// images dropped, the reference list anchored (`<span id="ref-n">`) and
// in-text citations linked to it. Safe for concurrent use.
//
// The request is MinerU's `POST /file_parse` (mineru/cli/fast_api.py): the
// PDF as the multipart field "files", with return_md=true; the answer is
// JSON {"backend", "version", "results": {"<file stem>": {"md_content": "…"}}},
// and failures are {"error": "…"} (400, 500) or {"detail": "…"} (503 when
// the server is at capacity).
type MinerUEngine struct {
	Web    Doer
	URL    string // MinerU API base URL, e.g. http://localhost:8000
	Limits Limits
}

// Name implements Engine.
func (e *MinerUEngine) Name() string { return "mineru" }

// Parse implements Engine.
func (e *MinerUEngine) Parse(ctx context.Context, in Input, progress Progress) (Document, error) {
	if e.URL == "" || e.Web == nil || in.PDFPath == "" {
		return Document{}, fmt.Errorf("no MinerU service or no stored PDF: %w", ErrNotApplicable)
	}
	lim := e.Limits.withDefaults()
	body, ctype, err := multipartPDF(in.PDFPath, lim.MaxFileBytes, "files",
		[][2]string{{"return_md", "true"}, {"lang_list", "en"}, {"formula_enable", "true"}, {"table_enable", "true"}})
	if err != nil {
		return Document{}, err
	}
	endpoint := strings.TrimRight(e.URL, "/") + "/file_parse"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return Document{}, err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", "application/json")
	progress.report("sending the PDF to MinerU")
	res, err := e.Web.Do(ctx, req, fetch.WithMaxBytes(lim.MaxTextBytes), fetch.WithTimeout(lim.Timeout))
	if err != nil {
		if errors.Is(err, fetch.ErrTooLarge) {
			return Document{}, fmt.Errorf("MinerU's answer is over the %d MB text limit: %w", lim.MaxTextBytes>>20, ErrLimit)
		}
		return Document{}, err
	}
	if res.Status != http.StatusOK {
		return Document{}, fmt.Errorf("MinerU answered HTTP %d%s", res.Status, mineruReason(res.Body))
	}
	stem := strings.TrimSuffix(filepath.Base(in.PDFPath), filepath.Ext(in.PDFPath))
	md, err := MinerUToMarkdown(res.Body, stem)
	if err != nil {
		return Document{}, err
	}
	return Document{Markdown: md, Engine: e.Name(), Source: endpoint}, nil
}

// mineruResponse is /file_parse's JSON answer.
type mineruResponse struct {
	Backend string                  `json:"backend"`
	Version string                  `json:"version"`
	Results map[string]mineruResult `json:"results"`
	Error   string                  `json:"error"`
}

type mineruResult struct {
	MDContent *string `json:"md_content"`
}

// mineruReason is the server's own error message, shortened, or "".
func mineruReason(body []byte) string {
	var e struct {
		Error  string `json:"error"`
		Detail any    `json:"detail"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	msg := e.Error
	if s, ok := e.Detail.(string); ok && msg == "" {
		msg = s
	}
	msg = collapse(strings.TrimSpace(msg))
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	if msg == "" {
		return ""
	}
	return ": " + msg
}

// MinerUToMarkdown takes the Markdown out of a /file_parse answer (the
// result named stem, else the only or first one) and normalises it.
func MinerUToMarkdown(answer []byte, stem string) (string, error) {
	var r mineruResponse
	if err := json.Unmarshal(answer, &r); err != nil {
		return "", fmt.Errorf("mineru: not the /file_parse JSON answer: %w", err)
	}
	if r.Error != "" {
		return "", fmt.Errorf("mineru: %s", collapse(r.Error))
	}
	res, ok := r.Results[stem]
	if !ok {
		names := make([]string, 0, len(r.Results))
		for k := range r.Results {
			names = append(names, k)
		}
		sort.Strings(names)
		if len(names) == 0 {
			return "", fmt.Errorf("mineru: the answer has no results: %w", ErrEmpty)
		}
		res = r.Results[names[0]]
	}
	if res.MDContent == nil {
		return "", fmt.Errorf("mineru: the answer has no md_content (return_md ignored?): %w", ErrEmpty)
	}
	md := normalizeMinerU(*res.MDContent)
	if !hasLetter(md) {
		return "", ErrEmpty
	}
	return md, nil
}
