package handlers

import (
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The central permission rules in settings (docs/features.md R15): listed, added and
// removed with plain forms.

// toolNameRE is what a rule's tool may be besides "*": a tool name as the
// registry spells them (letters, digits, _ . : -).
var toolNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.:-]{0,63}$`)

// maxRulePattern bounds a rule's pattern (characters).
const maxRulePattern = 500

// validateRule trims the form's values and returns them with the messages
// for the fields that are wrong (nil when all are fine). An empty pattern
// means "*".
func validateRule(tool, pattern, decision string) (views.RuleForm, views.FieldErrors) {
	f := views.RuleForm{Tool: strings.TrimSpace(tool), Pattern: strings.TrimSpace(pattern), Decision: decision}
	if f.Pattern == "" {
		f.Pattern = "*"
	}
	errs := views.FieldErrors{}
	switch {
	case f.Tool == "":
		errs["tool"] = "Write a tool name, or * for every tool."
	case f.Tool != "*" && !toolNameRE.MatchString(f.Tool):
		errs["tool"] = "A tool name is letters, digits and _ . : - (up to 64 characters), or * for every tool."
	}
	switch {
	case utf8.RuneCountInString(f.Pattern) > maxRulePattern:
		errs["pattern"] = "The pattern is longer than 500 characters."
	case strings.ContainsFunc(f.Pattern, unicode.IsControl):
		errs["pattern"] = "The pattern cannot contain control characters."
	}
	if !slices.Contains(views.RuleDecisions, f.Decision) {
		errs["decision"] = "Choose allow, ask or deny."
	}
	if len(errs) == 0 {
		return f, nil
	}
	return f, errs
}

// addPermissionRule is POST /settings/permissions. A rule for the same tool
// and pattern is replaced.
func (s *Server) addPermissionRule(c echo.Context) error {
	form, errs := validateRule(c.FormValue("tool"), c.FormValue("pattern"), c.FormValue("decision"))
	if errs != nil {
		page, err := s.settingsModel(c)
		if err != nil {
			return err
		}
		form.Fields = errs
		page.RuleForm = form
		return s.render(c, http.StatusUnprocessableEntity, views.Settings(page))
	}
	if _, err := s.st.PutPermissionRule(c.Request().Context(), currentUser(c).ID, form.Tool, form.Pattern, form.Decision); err != nil {
		return err
	}
	s.flash(c, "Rule saved: "+form.Decision+" "+form.Tool+" "+form.Pattern+".")
	return s.redirect(c, "/settings#permission-rules")
}

// deletePermissionRule is POST /settings/permissions/{id}/delete.
func (s *Server) deletePermissionRule(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return echo.ErrNotFound
	}
	err = s.st.DeletePermissionRule(c.Request().Context(), currentUser(c).ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	s.flash(c, "Rule removed.")
	return s.redirect(c, "/settings#permission-rules")
}
