package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/arxiv"
	"github.com/astroresearch/astroresearch/research/triage"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The /triage page: the digest, its actions and the settings, all plain
// forms that redirect back (they work without JavaScript).

// triagePage is GET /triage?date=.
func (s *Server) triagePage(c echo.Context) error {
	if s.triage == nil {
		return echo.ErrNotFound
	}
	p, err := s.triageView(c, c.QueryParam("date"))
	if errors.Is(err, triage.ErrBadDate) {
		p, err = s.triageView(c, "")
	}
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.Triage(p))
}

// triageView builds the page for day ("" for the newest).
func (s *Server) triageView(c echo.Context, day string) (views.TriagePage, error) {
	ctx := c.Request().Context()
	user := currentUser(c).ID
	d, err := s.triage.Digest(ctx, user, day)
	if err != nil {
		return views.TriagePage{}, err
	}
	set, err := s.triage.Settings(ctx, user)
	if err != nil {
		return views.TriagePage{}, err
	}
	p := views.TriagePage{Chrome: s.chrome(c, "arXiv triage", "triage"), Date: d.Date, Days: d.Days, Waiting: d.Waiting,
		Settings: settingsForm(set)}
	if t := s.triage.LastRun(); !t.IsZero() {
		p.LastRun = t.UTC().Format("2006-01-02 15:04 UTC")
	}
	if set.FeedToken != "" {
		p.FeedURL = s.triageFeedURL(c, set.FeedToken)
	}
	for _, pr := range d.Problems {
		retry := "soon"
		if pr.NextAttempt != nil {
			retry = "after " + pr.NextAttempt.UTC().Format("2006-01-02 15:04 UTC")
		}
		p.Problems = append(p.Problems, views.TriageProblem{Category: pr.Category, Day: pr.Day, Error: pr.Error, Retry: retry})
	}
	for _, it := range d.Items {
		p.Items = append(p.Items, s.triageItemView(it))
	}
	return p, nil
}

func (s *Server) triageItemView(it store.TriageItem) views.TriageItem {
	v := views.TriageItem{ArxivID: it.ArxivID, Title: it.Title, Authors: authorsLine(it.Authors),
		Categories: strings.Join(it.Categories, ", "), Score: strconv.FormatFloat(it.Score, 'f', 2, 64),
		Reasons: it.Reasons, Summary: it.Summary, Abstract: it.Abstract, AbsURL: arxivAbsURL(it.ArxivID)}
	if it.InLibrary {
		v.LibraryURL = s.cfg.BasePath + "/library/" + strconv.FormatInt(it.LibraryID, 10)
	}
	return v
}

// authorsLine shows up to five authors.
func authorsLine(a []string) string {
	if len(a) > 5 {
		return strings.Join(a[:5], ", ") + fmt.Sprintf(" and %d more", len(a)-5)
	}
	return strings.Join(a, ", ")
}

// settingsForm shows settings one per line.
func settingsForm(set store.TriageSettings) views.TriageSettingsForm {
	f := views.TriageSettingsForm{Categories: strings.Join(set.Categories, " "), Keywords: strings.Join(set.Keywords, "\n"),
		Authors: strings.Join(set.Authors, "\n"), Suggested: arxiv.AstroCategories()[1:]}
	var names []string
	for _, o := range set.Objects {
		names = append(names, o.Name)
		switch {
		case o.Resolved && o.Canonical != "":
			f.Resolved = append(f.Resolved, fmt.Sprintf("%s: %s (%d other names)", o.Name, o.Canonical, len(o.Aliases)))
		default:
			f.Resolved = append(f.Resolved, o.Name+": not resolved, matched by this name only")
		}
	}
	f.Objects = strings.Join(names, "\n")
	return f
}

// triageSettingsSubmit is POST /triage/settings.
func (s *Server) triageSettingsSubmit(c echo.Context) error {
	if s.triage == nil {
		return echo.ErrNotFound
	}
	in := triage.SettingsInput{
		Categories: strings.FieldsFunc(c.FormValue("categories"), func(r rune) bool { return r == ',' || unicode.IsSpace(r) }),
		Keywords:   lines(c.FormValue("keywords")), Objects: lines(c.FormValue("objects")), Authors: lines(c.FormValue("authors")),
	}
	_, notes, err := s.triage.SaveSettings(c.Request().Context(), currentUser(c).ID, in)
	var ce *triage.CategoryError
	var ie *triage.InputError
	if errors.As(err, &ce) || errors.As(err, &ie) {
		p, verr := s.triageView(c, c.QueryParam("date"))
		if verr != nil {
			return verr
		}
		p.Settings = views.TriageSettingsForm{Categories: c.FormValue("categories"), Keywords: c.FormValue("keywords"),
			Objects: c.FormValue("objects"), Authors: c.FormValue("authors"), Suggested: p.Settings.Suggested, Error: err.Error()}
		return s.render(c, http.StatusBadRequest, views.Triage(p))
	}
	if err != nil {
		return err
	}
	msg := "Saved. Your digest is being fetched and ranked."
	if len(notes) > 0 {
		msg += " " + strings.Join(notes, " ")
	}
	s.flash(c, msg)
	return s.redirect(c, "/triage")
}

// lines splits a textarea into its non-empty lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// triageRefreshSubmit is POST /triage/refresh.
func (s *Server) triageRefreshSubmit(c echo.Context) error {
	if s.triage == nil {
		return echo.ErrNotFound
	}
	s.triage.Refresh(currentUser(c).ID)
	s.flash(c, "Fetching and ranking in the background; reload this page in a minute.")
	return s.redirect(c, "/triage")
}

// triageHideSubmit is POST /triage/papers/{arxiv}/hide.
func (s *Server) triageHideSubmit(c echo.Context) error {
	if s.triage == nil {
		return echo.ErrNotFound
	}
	if err := s.triage.Hide(c.Request().Context(), currentUser(c).ID, c.Param("arxiv")); err != nil {
		return pageTriageError(err)
	}
	s.flash(c, "Hidden. Papers like it will rank lower.")
	return s.redirect(c, "/triage"+dateQuery(c))
}

// triageAddSubmit is POST /triage/papers/{arxiv}/add.
func (s *Server) triageAddSubmit(c echo.Context) error {
	if s.triage == nil {
		return echo.ErrNotFound
	}
	p, err := s.triage.Add(c.Request().Context(), currentUser(c).ID, c.Param("arxiv"))
	if err != nil {
		if errors.Is(err, triage.ErrNotFetched) {
			return pageTriageError(err)
		}
		s.log.Warn("triage: add to library", "paper", c.Param("arxiv"), "err", err)
		s.flash(c, "The paper could not be added to the library now; try again later.")
		return s.redirect(c, "/triage"+dateQuery(c))
	}
	s.flash(c, fmt.Sprintf("Added to your library: %s", p.Title))
	return s.redirect(c, "/triage"+dateQuery(c))
}

// triageFeedSubmit is POST /triage/feed: make (or replace) the feed address.
func (s *Server) triageFeedSubmit(c echo.Context) error {
	if s.triage == nil {
		return echo.ErrNotFound
	}
	if _, err := s.triage.FeedToken(c.Request().Context(), currentUser(c).ID, true); err != nil {
		return err
	}
	s.flash(c, "Your feed has a new address; the old one no longer works.")
	return s.redirect(c, "/triage")
}

// triageFeed is GET /triage/feed/{token}: the user's digest as Atom, for
// feed readers. The token in the URL is the only credential.
func (s *Server) triageFeed(c echo.Context) error {
	if s.triage == nil {
		return echo.ErrNotFound
	}
	ctx := c.Request().Context()
	user, err := s.st.TriageUserByFeedToken(ctx, c.Param("token"))
	if errors.Is(err, store.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	body, err := s.triage.Feed(ctx, user, s.triageFeedURL(c, c.Param("token")), s.proxies.origin(c.Request())+s.cfg.BasePath+"/triage")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, max-age=900")
	return c.Blob(http.StatusOK, "application/atom+xml; charset=utf-8", body)
}

func (s *Server) triageFeedURL(c echo.Context, token string) string {
	return s.proxies.origin(c.Request()) + s.cfg.BasePath + "/triage/feed/" + token
}

// pageTriageError is a 404 for an unknown paper.
func pageTriageError(err error) error {
	if errors.Is(err, triage.ErrNotFetched) {
		return echo.NewHTTPError(http.StatusNotFound, "No such paper in the triage.")
	}
	return err
}

// dateQuery keeps the ?date= of the page an action came from.
func dateQuery(c echo.Context) string {
	if d := c.QueryParam("date"); d != "" {
		if _, err := time.Parse(time.DateOnly, d); err == nil {
			return "?date=" + d
		}
	}
	return ""
}
