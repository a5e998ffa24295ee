// Package arxiv is the client for the arXiv API (docs/features.md T7–T9, L1, L3): search
// through the Atom API (search_query with paging and sorting), metadata by
// identifier (id_list, batched), identifier normalisation for every form users
// paste (new and old style, versions, the "arXiv:" prefix, abs/pdf/html and
// ar5iv URLs), subject categories, and links to the PDF, HTML and ar5iv
// renderings built from the configured base URLs.
//
// All HTTP goes through a [Getter], in production the guarded client of
// package research/fetch. That client owns the per-host rate limit: arXiv
// asks API users for at most one request every three seconds, which is
// fetch.DefaultPerHost for export.arxiv.org, so build the fetch client with
// Options.PerHost nil (or a map carrying that entry). A call may therefore
// wait for its turn; the per-request timeout of this package includes that
// wait. Responses are cached by fetch for a few minutes (identical queries
// are answered without a request) and capped at 10 MiB.
//
// Failure modes are distinct errors: a refused or failed request wraps the
// fetch error; a non-200 status is a [*StatusError] (with RetryAfter for 503
// and 429); an error feed from the API is an [*APIError]; a body that is not
// an Atom feed (a proxy's HTML page, "Rate exceeded.") wraps [ErrNotAtom];
// an unusable identifier wraps [ErrInvalidID]. An empty feed is a valid empty
// result, not an error.
package arxiv
