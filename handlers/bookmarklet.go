package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/views"
)

// The bookmarklet (docs/features.md S4b, L3): a javascript: link that opens
// {origin}/import?url=<page> in a new tab. That tab arrives as a cross-site
// navigation, so the SameSite=Strict cookie is missing; the page bounces
// once through a same-origin navigation to get it, then asks for
// confirmation (or sign-in) and imports with a same-origin POST.

// bookmarkletURL builds the javascript: URL for this server.
func (s *Server) bookmarkletURL(c echo.Context) string {
	target := s.proxies.origin(c.Request()) + s.cfg.BasePath + "/import?url="
	return fmt.Sprintf(`javascript:(function(){window.open(%q+encodeURIComponent(location.href),"_blank","noopener")})()`, target)
}

// maxImportURL bounds the page address a bookmarklet may send.
const maxImportURL = 2000

// importPage is GET /import?url=.
func (s *Server) importPage(c echo.Context) error {
	raw := strings.TrimSpace(c.QueryParam("url"))
	if raw == "" || len(raw) > maxImportURL {
		return echo.NewHTTPError(http.StatusBadRequest, "The bookmarklet sent no page address (or one longer than 2000 characters).")
	}
	self := s.cfg.BasePath + "/import?url=" + url.QueryEscape(raw)
	if currentUser(c) == nil {
		if c.QueryParam("bounced") == "" {
			return s.render(c, http.StatusOK, views.ImportBounce(s.chrome(c, "Opening", ""), self+"&bounced=1"))
		}
		return s.redirect(c, "/login?next="+url.QueryEscape(strings.TrimPrefix(self, s.cfg.BasePath)))
	}
	page := views.ImportPage{Chrome: s.chrome(c, "Add to the library", "library"), URL: raw}
	if ref, err := library.ParseRef(raw); err == nil {
		page.Recognised = describeRef(ref)
	}
	return s.render(c, http.StatusOK, views.ImportConfirm(page))
}

// importSubmit is POST /import (ref): imports and shows the paper.
func (s *Server) importSubmit(c echo.Context) error {
	p, created, err := s.importRef(c, c.FormValue("ref"))
	if err != nil {
		return err
	}
	if created {
		s.flash(c, "Added to your library.")
	} else {
		s.flash(c, "This paper was already in the library.")
	}
	return s.redirect(c, fmt.Sprintf("/library/%d", p.ID))
}

// apiBookmarkletImport is POST /api/bookmarklet/import {url}: token
// authenticated, from any origin, never with cookies (CORS layer b).
func (s *Server) apiBookmarkletImport(c echo.Context) error {
	var req struct {
		URL string `json:"url"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if len(req.URL) > maxImportURL {
		return apiError(http.StatusBadRequest, "invalid_ref", "The page address is longer than 2000 characters.")
	}
	p, created, err := s.importRef(c, req.URL)
	if err != nil {
		return err
	}
	return importResponse(c, p, created)
}

func describeRef(r library.Ref) string {
	switch r.Kind {
	case library.RefArxiv:
		return "arXiv " + r.Arxiv.String()
	case library.RefBibcode:
		return "ADS bibcode " + r.Value
	case library.RefDOI:
		return "DOI " + r.Value
	}
	return ""
}
