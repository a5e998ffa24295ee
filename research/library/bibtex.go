package library

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/astroresearch/astroresearch/store"
)

// Exporter is ADS's BibTeX export.
type Exporter interface {
	ExportBibTeX(ctx context.Context, bibcodes []string) (string, error)
	HasToken() bool
}

// BibTeX returns BibTeX for papers (docs/features.md L4): ADS's export for papers with
// a bibcode when a token is set (the journals' own formatting), generated
// locally otherwise and for the rest. If ADS fails, everything is
// generated locally.
func BibTeX(ctx context.Context, papers []store.Paper, ads Exporter) string {
	bib, _ := BibTeXWithKeys(ctx, papers, ads)
	return bib
}

// BibTeXWithKeys is BibTeX that also returns each paper's citation key
// (keys[i] is papers[i]'s), so that a document citing the papers with
// \citet{key} matches the export exactly. ADS keys its entries by bibcode;
// a paper ADS's export left out is generated locally.
func BibTeXWithKeys(ctx context.Context, papers []store.Paper, ads Exporter) (string, []string) {
	keys := make([]string, len(papers))
	var local []int
	var bibcodes []string
	for i, p := range papers {
		if p.Bibcode != nil && ads != nil && ads.HasToken() {
			bibcodes = append(bibcodes, *p.Bibcode)
		} else {
			local = append(local, i)
		}
	}
	var b strings.Builder
	if len(bibcodes) > 0 {
		if out, err := ads.ExportBibTeX(ctx, bibcodes); err == nil {
			exported := entryKeys(out)
			local = local[:0]
			for i, p := range papers {
				if p.Bibcode != nil && exported[*p.Bibcode] {
					keys[i] = *p.Bibcode
				} else {
					local = append(local, i)
				}
			}
			b.WriteString(strings.TrimSpace(out))
			b.WriteString("\n\n")
		} else {
			local = local[:0]
			for i := range papers {
				local = append(local, i)
			}
		}
	}
	used := map[string]int{}
	for _, i := range local {
		entry := LocalBibTeX(papers[i], used)
		keys[i] = entryKey(entry)
		b.WriteString(entry)
		b.WriteString("\n")
	}
	return strings.TrimSpace(b.String()) + "\n", keys
}

// entryKeyRE finds the key of each BibTeX entry: "@ARTICLE{2019ApJ...875L...1E,".
var entryKeyRE = regexp.MustCompile(`(?m)^\s*@\w+\s*\{\s*([^,\s]+)\s*,`)

// entryKeys returns the set of entry keys in BibTeX text.
func entryKeys(bib string) map[string]bool {
	out := map[string]bool{}
	for _, m := range entryKeyRE.FindAllStringSubmatch(bib, -1) {
		out[m[1]] = true
	}
	return out
}

// entryKey returns the key of the first entry in BibTeX text.
func entryKey(bib string) string {
	if m := entryKeyRE.FindStringSubmatch(bib); m != nil {
		return m[1]
	}
	return ""
}

// LocalBibTeX writes one entry. Keys are stable (first author's family
// name + year + first significant title word, all ASCII) and made unique
// with a, b, ... suffixes within one export (keys tracks them).
func LocalBibTeX(p store.Paper, keys map[string]int) string {
	key := uniqueKey(p, keys)
	kind := "article"
	if p.Journal == "" || p.Journal == "arXiv e-prints" {
		kind = "misc"
	}
	fields := [][2]string{
		{"author", strings.Join(mapStrings(p.Authors, bibAuthor), " and ")},
		{"title", "{" + texEscape(p.Title) + "}"},
	}
	if kind == "article" {
		fields = append(fields, [2]string{"journal", texEscape(p.Journal)})
		if p.Volume != "" {
			fields = append(fields, [2]string{"volume", texEscape(p.Volume)})
		}
		if p.Page != "" {
			fields = append(fields, [2]string{"pages", texEscape(p.Page)})
		}
	}
	if p.Year != nil {
		fields = append(fields, [2]string{"year", fmt.Sprint(*p.Year)})
	}
	if p.DOI != nil {
		fields = append(fields, [2]string{"doi", texEscape(*p.DOI)})
	}
	if p.ArxivID != nil {
		fields = append(fields, [2]string{"eprint", *p.ArxivID}, [2]string{"archivePrefix", "arXiv"})
		if cat := strings.Fields(p.Categories); len(cat) > 0 {
			fields = append(fields, [2]string{"primaryClass", cat[0]})
		}
	}
	if p.Bibcode != nil {
		fields = append(fields, [2]string{"adsurl", "https://ui.adsabs.harvard.edu/abs/" + *p.Bibcode})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "@%s{%s,\n", kind, key)
	for _, f := range fields {
		if f[1] == "" {
			continue
		}
		fmt.Fprintf(&b, "  %-13s = {%s},\n", f[0], f[1])
	}
	b.WriteString("}\n")
	return b.String()
}

// uniqueKey is p's key made unique within one export (keys tracks them).
func uniqueKey(p store.Paper, keys map[string]int) string {
	key := citeKey(p)
	if n := keys[key]; n > 0 {
		keys[key] = n + 1
		key += string(rune('a' + n - 1))
	} else {
		keys[key] = 1
	}
	return key
}

var keyWordRE = regexp.MustCompile(`[A-Za-z0-9]+`)

var stopwords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "on": true, "in": true, "and": true, "for": true, "to": true, "with": true, "at": true, "by": true}

func citeKey(p store.Paper) string {
	family := "Anon"
	if len(p.Authors) > 0 {
		family, _, _ = strings.Cut(p.Authors[0], ",")
		if fields := strings.Fields(family); len(fields) > 0 && !strings.Contains(p.Authors[0], ",") {
			family = fields[len(fields)-1]
		}
	}
	year := ""
	if p.Year != nil {
		year = fmt.Sprint(*p.Year)
	}
	word := ""
	for _, w := range keyWordRE.FindAllString(ascii(p.Title), -1) {
		if !stopwords[strings.ToLower(w)] {
			word = strings.ToLower(w)
			break
		}
	}
	k := keyWordRE.FindAllString(ascii(family), -1)
	return strings.Join(k, "") + year + word
}

// ascii drops accents (é → e) and anything not ASCII.
func ascii(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if r < 128 && !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// bibAuthor brace-protects collaboration names so BibTeX does not split
// them ("{Event Horizon Telescope Collaboration}").
func bibAuthor(a string) string {
	a = texEscape(a)
	if !strings.Contains(a, ",") && len(strings.Fields(a)) > 2 {
		return "{" + a + "}"
	}
	return a
}

var texReplacer = strings.NewReplacer(`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `&`, `\&`, `%`, `\%`,
	`#`, `\#`, `_`, `\_`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`)

// texEscape escapes LaTeX's special characters outside math ($...$ is kept
// as written, since titles carry TeX like $z\sim6$).
func texEscape(s string) string {
	parts := strings.Split(s, "$")
	for i := range parts {
		if i%2 == 0 || i == len(parts)-1 && len(parts)%2 == 0 {
			parts[i] = texReplacer.Replace(parts[i])
		}
	}
	return strings.Join(parts, "$")
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
