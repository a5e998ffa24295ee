package record

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
)

var (
	// passageLinkRE is a reader link to a library passage, as rag_search
	// hands them to the model: /library/7/read?passage=31#passage-31.
	passageLinkRE = regexp.MustCompile(`/library/(\d+)/read\?passage=(\d+)`)
	// sentenceEndRE ends a sentence: . ! or ? before white space, or a
	// line break.
	sentenceEndRE = regexp.MustCompile(`[.!?]\s+|\n+`)
)

// resolve finds the answer's citations, fills in the papers' titles and
// identifiers from the library, and gives every work its BibTeX key.
func (r *Record) resolve(ctx context.Context, st *store.Store, bib library.Exporter) error {
	papers := map[int64]store.Paper{}
	var order []int64
	load := func(id int64) (store.Paper, bool, error) {
		if p, ok := papers[id]; ok {
			return p, true, nil
		}
		p, err := paperOf(ctx, st, id)
		if errors.Is(err, errNoPaper) {
			return store.Paper{}, false, nil
		}
		if err != nil {
			return store.Paper{}, false, err
		}
		papers[id] = p
		order = append(order, id)
		return p, true, nil
	}
	cited, read := map[int64]bool{}, map[int64]bool{}
	for ti := range r.Turns {
		t := &r.Turns[ti]
		cs, err := answerCitations(ctx, st, t)
		if err != nil {
			return err
		}
		t.Citations = cs
		for i := range t.Papers {
			p, ok, err := load(t.Papers[i].PaperID)
			if err != nil {
				return err
			}
			if ok {
				fillUse(&t.Papers[i], p)
				read[p.ID] = true
			}
		}
		for i := range t.Citations {
			if t.Citations[i].PaperID == 0 {
				continue
			}
			p, ok, err := load(t.Citations[i].PaperID)
			if err != nil {
				return err
			}
			if ok {
				t.Citations[i].Title = p.Title
				cited[p.ID] = true
			}
		}
	}
	works := make([]store.Paper, len(order))
	for i, id := range order {
		works[i] = papers[id]
	}
	var keys []string
	r.bibtex, keys = library.BibTeXWithKeys(ctx, works, bib)
	keyOf := map[int64]string{}
	r.Works = []Work{}
	for i, p := range works {
		keyOf[p.ID] = keys[i]
		w := Work{PaperID: p.ID, Title: p.Title, Authors: strings.Join(p.Authors, "; "), Key: keys[i], Cited: cited[p.ID], Read: read[p.ID],
			ArxivID: deref(p.ArxivID), Bibcode: deref(p.Bibcode), DOI: deref(p.DOI)}
		if p.Year != nil {
			w.Year = *p.Year
		}
		r.Works = append(r.Works, w)
	}
	for ti := range r.Turns {
		t := &r.Turns[ti]
		for i := range t.Papers {
			t.Papers[i].Key = keyOf[t.Papers[i].PaperID]
		}
		for i := range t.Citations {
			t.Citations[i].Key = keyOf[t.Citations[i].PaperID]
		}
	}
	return nil
}

func fillUse(u *PaperUse, p store.Paper) {
	u.Title, u.ArxivID, u.Bibcode, u.DOI = p.Title, deref(p.ArxivID), deref(p.Bibcode), deref(p.DOI)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// answerCitations finds, sentence by sentence, the library passages the
// turn's answer links to and the works it names by identifier.
func answerCitations(ctx context.Context, st *store.Store, t *Turn) ([]Citation, error) {
	out := []Citation{}
	seen := map[string]bool{}
	for _, sentence := range sentences(t.Answer) {
		for _, m := range passageLinkRE.FindAllStringSubmatch(sentence, -1) {
			paperID, _ := strconv.ParseInt(m[1], 10, 64)
			chunk, _ := strconv.ParseInt(m[2], 10, 64)
			if seen["p"+m[2]] {
				continue
			}
			seen["p"+m[2]] = true
			c := Citation{PaperID: paperID, PassageID: chunk, Sentence: plain(sentence)}
			if p, ok := t.rag[chunk]; ok {
				c.Title, c.Section, c.Quote = p.title, p.section, clip(firstSentence(p.text), 300)
			}
			out = append(out, c)
		}
		for _, ids := range identifiers(sentence) {
			key := ids.ArxivID + "|" + ids.Bibcode + "|" + ids.DOI
			if seen[key] {
				continue
			}
			seen[key] = true
			c := Citation{Identifier: firstNonEmpty(ids.ArxivID, ids.Bibcode, ids.DOI), Sentence: plain(sentence)}
			p, err := st.PaperByIdentifier(ctx, ids)
			switch {
			case err == nil:
				c.PaperID, c.Title = p.ID, p.Title
			case !errors.Is(err, store.ErrNotFound):
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// identifiers returns the arXiv ids, bibcodes and DOIs in text (passage
// links aside: their numbers are no identifiers).
func identifiers(text string) []store.PaperIDs {
	var out []store.PaperIDs
	for _, c := range library.FindCitations(passageLinkRE.ReplaceAllString(text, " ")) {
		out = append(out, c.IDs)
	}
	return out
}

// sentences splits text into sentences (roughly: enough to quote the one
// that carries a citation).
func sentences(text string) []string {
	var out []string
	last := 0
	for _, loc := range sentenceEndRE.FindAllStringIndex(text, -1) {
		if s := strings.TrimSpace(text[last : loc[0]+1]); s != "" {
			out = append(out, s)
		}
		last = loc[1]
	}
	if s := strings.TrimSpace(text[last:]); s != "" {
		out = append(out, s)
	}
	return out
}

// firstSentence returns the first sentence of text.
func firstSentence(text string) string {
	if s := sentences(text); len(s) > 0 {
		return s[0]
	}
	return ""
}

// markdownLinkRE is a Markdown link: [text](url).
var markdownLinkRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// plain drops Markdown link targets and emphasis from a sentence.
func plain(s string) string {
	s = markdownLinkRE.ReplaceAllString(s, "$1")
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
