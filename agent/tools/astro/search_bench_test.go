package astro

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/migrations"
	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/fetch"
	"github.com/astroresearch/astroresearch/research/literature"
	"github.com/astroresearch/astroresearch/store"
)

// Fixed latencies of the fakes: arXiv is the slower source here, as it
// usually is.
const (
	benchADSLatency   = 120 * time.Millisecond
	benchArxivLatency = 200 * time.Millisecond
	benchRows         = 10
)

// BenchmarkSearchPapersOverhead measures what search_papers adds beyond
// its slower source: each iteration times ADS alone, arXiv alone (the real
// clients through the guarded fetch client, against local fakes with fixed
// latencies answering 10 records each in the services' formats, half of
// them the same papers) and then the tool (both at once, merge,
// de-duplication, library status against a SQLite library of 10,000
// papers holding some of the hits, output). Every query is new, so no
// cache answers. overhead-ms = tool − max(ADS, arXiv); merged-search-only
// is the two searches and the merge without the library lookup and output.
func BenchmarkSearchPapersOverhead(b *testing.B) {
	adsSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(benchADSLatency)
		w.Header().Set("Content-Type", "application/json")
		w.Write(benchADSBody())
	}))
	defer adsSrv.Close()
	axSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(benchArxivLatency)
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Write(benchAtomBody())
	}))
	defer axSrv.Close()
	web := fetch.New(fetch.Options{Allow: []string{adsSrv.URL, axSrv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	adsClient, axClient := ads.New(adsSrv.URL+"/v1", "tok", web), arxiv.New(axSrv.URL+"/api/query", web)
	st := benchLibrary(b)
	searcher := literature.NewSearcher(adsClient, axClient)
	tool := SearchPapers(searcher, st)
	ctx := context.Background()

	var overheads []time.Duration
	var adsT, axT, toolT, mergedT time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := fmt.Sprintf("galaxy clusters %d-%d", time.Now().UnixNano(), i)
		t0 := time.Now()
		if _, err := adsClient.Search(ctx, ads.Query{Q: q + " ads", Rows: benchRows}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := axClient.Search(ctx, arxiv.Query{Terms: q + " arxiv", Max: benchRows}); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		args, _ := json.Marshal(SearchArgs{Query: q, Rows: benchRows})
		res, err := tool.Execute(ctx, &tools.Context{}, args)
		t3 := time.Now()
		if err != nil || res.IsError || !strings.Contains(res.Output, "in library #") {
			b.Fatalf("%v %+v", err, res)
		}
		if _, err := searcher.Search(ctx, literature.Query{Text: q + " merged", Rows: benchRows}); err != nil {
			b.Fatal(err)
		}
		a, x, t := t1.Sub(t0), t2.Sub(t1), t3.Sub(t2)
		adsT, axT, toolT, mergedT = adsT+a, axT+x, toolT+t, mergedT+time.Since(t3)
		overheads = append(overheads, t-max(a, x))
	}
	n := time.Duration(b.N)
	sort.Slice(overheads, func(i, j int) bool { return overheads[i] < overheads[j] })
	var sum time.Duration
	for _, o := range overheads {
		sum += o
	}
	b.ReportMetric(ms(adsT/n), "ads-ms")
	b.ReportMetric(ms(axT/n), "arxiv-ms")
	b.ReportMetric(ms(toolT/n), "search_papers-ms")
	b.ReportMetric(ms(mergedT/n), "merged-search-only-ms")
	b.ReportMetric(ms(sum/n), "overhead-ms")
	b.ReportMetric(ms(overheads[len(overheads)/2]), "overhead-p50-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchLibrary is a library of 10,000 papers; the first three arXiv hits
// of benchAtomBody are among them.
func benchLibrary(b *testing.B) *store.Store {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "a.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(ctx, migrations.FS); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 10_000; i++ {
		id := fmt.Sprintf("2301.%05d", i)
		if i < 3 {
			id = fmt.Sprintf("2401.%05d", i)
		}
		if _, _, err := st.UpsertPaper(ctx, store.Paper{Title: fmt.Sprintf("Paper %d", i), ArxivID: &id, Authors: []string{"A", "B"}}); err != nil {
			b.Fatal(err)
		}
	}
	return st
}

// benchADSBody is an ADS search answer with 10 records; records 0–4
// are published versions of arXiv hits 0–4 of benchAtomBody.
func benchADSBody() []byte {
	docs := make([]map[string]any, benchRows)
	for i := range docs {
		bib := fmt.Sprintf("2024ApJ...%03d..%03dX", 900+i, i+1)
		ids := []string{bib}
		if i < 5 {
			ids = append(ids, fmt.Sprintf("arXiv:2401.%05d", i))
		}
		doi := fmt.Sprintf("10.3847/1538-4357/ad%04d", i)
		docs[i] = map[string]any{"bibcode": bib, "title": []string{fmt.Sprintf("Galaxy clusters study %d", i)},
			"author": []string{"Smith, J.", "Doe, A.", "Roe, B.", "Poe, C."}, "pub": "The Astrophysical Journal",
			"pubdate": "2024-03-00", "year": "2024", "volume": fmt.Sprint(900 + i), "page": []string{fmt.Sprint(i + 1)},
			"doi": []string{doi}, "identifier": append(ids, doi), "citation_count": 10 * i, "doctype": "article",
			"property": []string{"ARTICLE", "REFEREED"}, "abstract": strings.Repeat("We study galaxy clusters. ", 40)}
	}
	out, _ := json.Marshal(map[string]any{"responseHeader": map[string]any{"status": 0, "QTime": 20},
		"response": map[string]any{"numFound": 4321, "start": 0, "docs": docs}})
	return out
}

// benchAtomBody is an arXiv Atom feed with 10 entries, ids 2401.00000 on.
func benchAtomBody() []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=all:galaxy</title>
  <id>http://arxiv.org/api/bench</id>
  <updated>2024-03-01T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1523</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">10</opensearch:itemsPerPage>
`)
	for i := 0; i < benchRows; i++ {
		fmt.Fprintf(&b, `  <entry>
    <id>http://arxiv.org/abs/2401.%05[1]dv2</id>
    <updated>2024-02-14T09:12:45Z</updated>
    <published>2024-01-03T18:59:59Z</published>
    <title>Galaxy clusters preprint %[1]d</title>
    <summary>%[2]s</summary>
    <author><name>J. Smith</name></author>
    <author><name>A. Doe</name></author>
    <link href="http://arxiv.org/abs/2401.%05[1]dv2" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.%05[1]dv2" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="astro-ph.CO" scheme="http://arxiv.org/schemas/atom"/>
    <category term="astro-ph.CO" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
`, i, strings.Repeat("We study galaxy clusters. ", 40))
	}
	b.WriteString("</feed>\n")
	return []byte(b.String())
}
