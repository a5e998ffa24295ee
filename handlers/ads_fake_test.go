package handlers

import (
	"net/http/httptest"
	"testing"

	"golang.org/x/time/rate"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/ads/adstest"
	"github.com/astroresearch/astroresearch/research/fetch"
)

// Bibcodes for which the fake ADS fails: a server error, a spent quota.
const (
	adsFailingBibcode = adstest.FailingBibcode
	adsLimitedBibcode = adstest.LimitedBibcode
)

// fakeADS is the local NASA ADS of package adstest, accepting any token.
func fakeADS(t testing.TB) *httptest.Server { return adstest.NewServer(t, "") }

// fakeADSClient is an ADS client for srv with token ("" = none).
func fakeADSClient(srv *httptest.Server, token string) *ads.Client {
	web := fetch.New(fetch.Options{Allow: []string{srv.URL}, DefaultRate: rate.Inf, PerHost: map[string]rate.Limit{}})
	return ads.New(srv.URL+"/v1", token, web)
}
