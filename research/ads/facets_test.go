package ads_test

import (
	"context"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/ads/adstest"
	"github.com/astroresearch/astroresearch/research/fetch"
)

func TestYearCounts(t *testing.T) {
	srv := adstest.NewServer(t, "tok")
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	c := ads.New(srv.URL+"/v1", "tok", web)
	counts, total, err := c.YearCounts(context.Background(), ads.ObjectQuery("NGC 4258")+" property:refereed")
	if err != nil {
		t.Fatal(err)
	}
	if total != 1204 || len(counts) != 5 || counts[0] != (ads.YearCount{Year: 1995, Count: 20}) || counts[4] != (ads.YearCount{Year: 2020, Count: 54}) {
		t.Fatalf("%d %+v", total, counts)
	}
	if _, _, err := ads.New(srv.URL+"/v1", "", web).YearCounts(context.Background(), "object:x"); err == nil {
		t.Fatal("no token accepted")
	}
	if got := ads.ObjectQuery(`M 87" OR x`); got != `object:"M 87\" OR x"` {
		t.Fatalf("quoting %s", got)
	}
}
