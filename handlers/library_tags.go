package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// Tag editing on a paper page: POST /library/{id}/tags {tags} adds
// (comma-separated), POST /library/{id}/tags/remove {tag} removes one.
// htmx gets the tags block back; without JavaScript the answer is a 303 to
// the paper page (or the page again, 400, with the reason). The JSON API
// is PUT /api/papers/{id}/tags {tags}.

// tagsView builds the tags block of paper p.
func (s *Server) tagsView(c echo.Context, paperID int64, tags []string) views.PaperTags {
	t := views.PaperTags{BasePath: s.cfg.BasePath, PaperID: paperID, Tags: tags}
	if known, err := s.st.LibraryTags(c.Request().Context()); err == nil {
		for _, k := range known {
			t.Known = append(t.Known, k.Tag)
		}
	}
	return t
}

// libraryAddTags is POST /library/{id}/tags.
func (s *Server) libraryAddTags(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	raw := c.FormValue("tags")
	tags, err := s.library.AddTags(c.Request().Context(), p.ID, library.SplitTags(raw))
	return s.tagsAnswer(c, p, tags, raw, err, "Tags added.")
}

// libraryRemoveTag is POST /library/{id}/tags/remove.
func (s *Server) libraryRemoveTag(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	tag := c.FormValue("tag")
	tags, err := s.library.RemoveTag(c.Request().Context(), p.ID, tag)
	return s.tagsAnswer(c, p, tags, "", err, "Removed the tag “"+strings.TrimSpace(tag)+"”.")
}

// tagsAnswer answers a tag edit: the block (htmx), a redirect with a flash,
// or the paper page with the refusal.
func (s *Server) tagsAnswer(c echo.Context, p store.Paper, tags []string, typed string, err error, done string) error {
	var msg string
	switch {
	case errors.Is(err, library.ErrBadTag):
		msg = tagRefusal(err)
	case errors.Is(err, store.ErrNotFound):
		return apiError(http.StatusNotFound, "not_found", "There is no such paper in the library.")
	case err != nil:
		return err
	}
	if msg == "" && !isHTMX(c) {
		s.flash(c, done)
		return s.redirect(c, "/library/"+strconv.FormatInt(p.ID, 10))
	}
	if msg != "" {
		tags = p.Tags
	}
	view := s.tagsView(c, p.ID, tags)
	view.Typed, view.Error = typed, msg
	if isHTMX(c) {
		return s.render(c, http.StatusOK, views.PaperTagsView(view))
	}
	page, err := s.paperPage(c, p)
	if err != nil {
		return err
	}
	page.Tags = view
	return s.render(c, http.StatusBadRequest, views.PaperDetail(page))
}

// tagRefusal is the user's message for an ErrBadTag error: the reason
// after the sentinel's prefix, as a sentence.
func tagRefusal(err error) string {
	_, reason, _ := strings.Cut(err.Error(), library.ErrBadTag.Error()+": ")
	if reason == "" {
		return "That tag cannot be used."
	}
	return strings.ToUpper(reason[:1]) + reason[1:] + "."
}

// TagsRequest is the body of PUT /api/papers/{id}/tags.
type TagsRequest struct {
	Tags []string `json:"tags"`
}

// TagsResponse is the answer: the paper's tags as stored.
type TagsResponse struct {
	Tags []string `json:"tags"`
}

// apiSetTags is PUT /api/papers/{id}/tags {tags}: replaces the paper's
// tags; 400 invalid_tag with the reason.
func (s *Server) apiSetTags(c echo.Context) error {
	p, err := s.paperByParam(c)
	if err != nil {
		return err
	}
	var req TagsRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	tags, err := s.library.SetTags(c.Request().Context(), p.ID, req.Tags)
	switch {
	case errors.Is(err, library.ErrBadTag):
		return apiError(http.StatusBadRequest, "invalid_tag", tagRefusal(err))
	case errors.Is(err, store.ErrNotFound):
		return apiError(http.StatusNotFound, "not_found", "There is no such paper in the library.")
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, TagsResponse{Tags: tags})
}
