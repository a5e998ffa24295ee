package ads

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/astroresearch/astroresearch/research/fetch"
)

// YearCount is the number of records published in a year.
type YearCount struct {
	Year  int `json:"year"`
	Count int `json:"count"`
}

// facetResponse is the Solr envelope with the year facet: a flat list
// alternating the year (a string) and its count.
type facetResponse struct {
	Response *struct {
		NumFound int `json:"numFound"`
	} `json:"response"`
	FacetCounts struct {
		FacetFields struct {
			Year []json.RawMessage `json:"year"`
		} `json:"facet_fields"`
	} `json:"facet_counts"`
}

// YearCounts returns how many records match q per publication year,
// oldest first, with the total, from ADS's year facet (no records are
// fetched). Errors are those of Search.
func (c *Client) YearCounts(ctx context.Context, q string) ([]YearCount, int, error) {
	v, err := Query{Q: q}.values()
	if err != nil {
		return nil, 0, fmt.Errorf("ads: year counts %q: %w", shorten(q), err)
	}
	v.Set("rows", "0")
	v.Set("fl", "bibcode")
	v.Set("facet", "true")
	v.Set("facet.field", "year")
	v.Set("facet.limit", "300")
	v.Set("facet.mincount", "1")
	var fr facetResponse
	if err := c.call(ctx, "/search/query", v.Encode(), nil, &fr, fetch.WithCache(searchCacheTTL), fetch.WithMaxBytes(searchMaxBytes)); err != nil {
		return nil, 0, fmt.Errorf("ads: year counts %q: %w", shorten(q), err)
	}
	if fr.Response == nil {
		return nil, 0, fmt.Errorf("ads: year counts %q: %w: no \"response\" object", shorten(q), ErrMalformedResponse)
	}
	counts, err := yearPairs(fr.FacetCounts.FacetFields.Year)
	if err != nil {
		return nil, 0, fmt.Errorf("ads: year counts %q: %w: %v", shorten(q), ErrMalformedResponse, err)
	}
	return counts, fr.Response.NumFound, nil
}

// yearPairs reads Solr's ["2019", 12, "2018", 7, ...].
func yearPairs(raw []json.RawMessage) ([]YearCount, error) {
	var out []YearCount
	for i := 0; i+1 < len(raw); i += 2 {
		var ys string
		var n int
		if err := json.Unmarshal(raw[i], &ys); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw[i+1], &n); err != nil {
			return nil, err
		}
		y, err := strconv.Atoi(ys)
		if err != nil || y < 1000 || y > 9999 || n < 0 {
			continue
		}
		out = append(out, YearCount{Year: y, Count: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Year < out[j].Year })
	return out, nil
}

// ObjectQuery is the ADS query for papers about an object (ADS's object:
// field, which itself resolves names through SIMBAD and NED).
func ObjectQuery(name string) string { return "object:" + Quote(name) }
