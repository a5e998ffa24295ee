package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// memoriesModel loads the caller's memories.
func (s *Server) memoriesModel(c echo.Context) (views.MemoriesPage, error) {
	list, err := s.memory.List(c.Request().Context(), currentUser(c).ID, 0)
	if err != nil {
		return views.MemoriesPage{}, err
	}
	page := views.MemoriesPage{Chrome: s.chrome(c, "Memories", "settings")}
	for _, m := range list {
		page.Items = append(page.Items, views.MemoryRow{ID: m.ID, Kind: m.Kind, Content: m.Content, Source: m.Source, UpdatedAt: m.UpdatedAt})
	}
	return page, nil
}

func (s *Server) memoriesPage(c echo.Context) error {
	page, err := s.memoriesModel(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.Memories(page))
}

// addMemory is POST /settings/memories: a memory the user writes (the
// quality gate and de-duplication apply, as for the assistant's own).
func (s *Server) addMemory(c echo.Context) error {
	kind, content := c.FormValue("kind"), c.FormValue("content")
	_, err := s.memory.Save(c.Request().Context(), currentUser(c).ID, kind, content, "user")
	var refused *memory.RefusedError
	switch {
	case errors.As(err, &refused):
		page, lerr := s.memoriesModel(c)
		if lerr != nil {
			return lerr
		}
		page.New = views.NewMemoryForm{Kind: kind, Content: content, Error: "Not added: " + refused.Reason + "."}
		return s.render(c, http.StatusUnprocessableEntity, views.Memories(page))
	case err != nil:
		return err
	}
	s.flash(c, "Memory added.")
	return s.redirect(c, "/settings/memories")
}

// updateMemory saves an edited memory (the quality gate applies).
func (s *Server) updateMemory(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	_, err = s.memory.Update(c.Request().Context(), currentUser(c).ID, id, c.FormValue("kind"), c.FormValue("content"))
	var refused *memory.RefusedError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.As(err, &refused):
		page, lerr := s.memoriesModel(c)
		if lerr != nil {
			return lerr
		}
		page.Error = "Not saved: " + refused.Reason + "."
		return s.render(c, http.StatusUnprocessableEntity, views.Memories(page))
	case err != nil:
		return err
	}
	s.flash(c, "Memory saved.")
	return s.redirect(c, "/settings/memories")
}

// deleteMemory forgets a memory.
func (s *Server) deleteMemory(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	err = s.memory.Delete(c.Request().Context(), currentUser(c).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	s.flash(c, "Memory deleted.")
	return s.redirect(c, "/settings/memories")
}
