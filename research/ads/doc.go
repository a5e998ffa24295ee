// Package ads is the client for the NASA Astrophysics Data System API
// (https://ui.adsabs.harvard.edu/help/api/): search, BibTeX export,
// citations and references, and link-gateway URLs for full text.
//
// A Client is configured with the API root (ADS_API_URL, default
// DefaultBaseURL), a token (ADS_API_TOKEN) and the guarded HTTP client
// (research/fetch), through which every request goes. Every API call sends
// "Authorization: Bearer <token>"; without a token each call fails with
// ErrNoToken, whose message tells the user how to get one, and nothing is
// sent.
//
// Rate limits: ADS counts every request against a per-token daily quota per
// endpoint and answers 429 when it is spent, until the time in
// X-RateLimit-Reset (reported as a *RateLimitError; Client.Quotas shows the
// latest figures). To spend the quota sparingly, search answers are cached
// for 10 minutes by the fetch client and exports for a day by this package;
// the fetch client also paces requests per host (api.adsabs.harvard.edu: 5
// per second by default, see fetch.DefaultPerHost).
//
// Identifiers are checked before anything is sent (ValidBibcode,
// NormalizeDOI, ParseID), and user text placed in queries goes through
// Quote via the builders ByBibcode, ByDOI, ByArxiv, CitationsOf and
// ReferencesOf, so it cannot change the query's structure.
package ads
