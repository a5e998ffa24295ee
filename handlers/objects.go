package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/ads"
	"github.com/astroresearch/astroresearch/research/objects"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The object page (L9): GET /objects/{name} and GET
// /api/objects/{name}.

// objectReport reads the name and builds the report; failures come back
// as a status and a message for the user (and names tried).
func (s *Server) objectReport(c echo.Context) (objects.Report, string, int, string, error) {
	name := strings.Join(strings.Fields(c.Param("name")), " ")
	if name == "" || utf8.RuneCountInString(name) > maxObjectLen || strings.ContainsAny(name, "\x00") {
		return objects.Report{}, name, http.StatusBadRequest, "Object names are 1 to 200 characters.", nil
	}
	r, err := s.objects.Report(c.Request().Context(), currentUser(c).ID, name)
	var nr *objects.NotResolvedError
	switch {
	case err == nil:
		return r, name, http.StatusOK, "", nil
	case errors.As(err, &nr):
		return r, name, http.StatusNotFound, "\u201c" + name + "\u201d was not resolved: " + nr.Error() + ".", nil
	case errors.Is(err, sesame.ErrUnavailable):
		s.log.Warn("Sesame unavailable", "err", err)
		return r, name, http.StatusServiceUnavailable, "Sesame could not be reached right now. Try again in a minute.", nil
	case c.Request().Context().Err() != nil:
		return r, name, 0, "", err
	case errors.Is(err, store.ErrNotFound):
		return r, name, http.StatusNotFound, "Not found.", nil
	case r.Object.Name == "" && len(r.Tried) > 0:
		// Sesame refused the name itself (length, control characters).
		return r, name, http.StatusBadRequest, "That name cannot be resolved: use letters, digits and spaces, at most 200 characters.", nil
	default:
		return r, name, 0, "", err
	}
}

// objectPage is GET /objects/{name}.
func (s *Server) objectPage(c echo.Context) error {
	r, name, status, msg, err := s.objectReport(c)
	if err != nil {
		return err
	}
	page := views.ObjectPage{Chrome: s.chrome(c, name, ""), Name: name, Error: msg, Tried: r.Tried}
	if status != http.StatusOK {
		return s.render(c, status, views.Object(page))
	}
	o := r.Object
	page.Title = o.Name
	page.Object = &o
	base := s.cfg.BasePath
	page.MeasurementsURL = base + "/measurements?" + url.Values{"object": {o.Name}}.Encode()
	page.LibrarySearchURL = base + "/library/search?" + url.Values{"q": {ads.ObjectQuery(o.Name)}}.Encode()
	page.LiteratureNote = r.LiteratureNote
	if lit := r.Literature; lit != nil {
		ol := &views.ObjectLiterature{Total: lit.Total, Refereed: lit.Refereed,
			ADSURL: "https://ui.adsabs.harvard.edu/search/q=" + url.QueryEscape(ads.ObjectQuery(o.Name))}
		var counts []views.YearCount
		for _, y := range lit.ByYear {
			counts = append(counts, views.YearCount{Year: y.Year, Count: y.Count})
		}
		ol.Chart = views.NewBarChart(counts, "Refereed papers about "+o.Name+" per year",
			"Bar chart of the "+strconv.Itoa(lit.Refereed)+" refereed papers NASA ADS lists for "+o.Name+", by publication year.")
		for _, tp := range lit.Top {
			v := views.ObjectTopPaper{Title: tp.Title, Authors: tp.Authors, Bibcode: tp.Bibcode, Year: tp.Year, Citations: tp.Citations}
			if tp.LibraryID != 0 {
				v.LibraryURL = base + "/library/" + strconv.FormatInt(tp.LibraryID, 10)
			}
			ol.Top = append(ol.Top, v)
		}
		page.Literature = ol
	}
	for _, lp := range r.Library.Papers {
		v := views.ObjectPaper{Title: lp.Title, URL: base + "/library/" + strconv.FormatInt(lp.ID, 10), Passages: lp.Passages}
		if lp.Year != nil {
			v.Year = "(" + strconv.Itoa(*lp.Year) + ")"
		}
		page.Papers = append(page.Papers, v)
	}
	for i, ps := range r.Library.Passages {
		if i == 50 {
			break
		}
		page.Passages = append(page.Passages, views.ObjectPassage{PaperTitle: ps.Title, Section: ps.SectionPath,
			Text: ps.Text, URL: rag.PassageURL(base, ps.PaperID, ps.ChunkID)})
	}
	for _, n := range r.Notes {
		page.Notes = append(page.Notes, views.ObjectNote{PaperTitle: n.PaperTitle, Text: noteText(n),
			URL: base + "/library/" + strconv.FormatInt(n.PaperID, 10) + "/read#note-" + strconv.FormatInt(n.ID, 10)})
	}
	return s.render(c, http.StatusOK, views.Object(page))
}

func noteText(n store.PaperNote) string {
	t := strings.TrimSpace(n.Body)
	if n.Quote != "" {
		t = strings.TrimSpace("\u201c" + n.Quote + "\u201d " + t)
	}
	return t
}

// apiObject is GET /api/objects/{name}.
func (s *Server) apiObject(c echo.Context) error {
	r, _, status, msg, err := s.objectReport(c)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		code := codeForTarget(status)
		if status == http.StatusNotFound {
			code = "not_resolved"
		}
		return apiError(status, code, msg)
	}
	o := r.Object
	out := apiObjectReport{
		Object: apiObjectFacts{Name: o.Name, Type: o.Type, RADeg: o.RADeg, DecDeg: o.DecDeg, Aliases: orEmpty(o.Aliases), Redshift: o.Redshift,
			VelocityKmS: o.VelocityKmS, Morphology: o.Morphology, Resolvers: orEmpty(o.Resolvers), RADegText: o.RADegText, DecDegText: o.DecDegText,
			PositionRef: o.PositionRef, Sources: o.Sources, Tried: orEmpty(r.Tried)},
		Literature: r.Literature, LiteratureNote: r.LiteratureNote,
		Library: apiObjectLibrary{Papers: orEmpty(r.Library.Papers), Passages: make([]apiObjectPassage, 0, len(r.Library.Passages))},
		Notes:   make([]apiObjectNote, 0, len(r.Notes)),
	}
	for _, ps := range r.Library.Passages {
		out.Library.Passages = append(out.Library.Passages, apiObjectPassage{PassageMention: ps, Link: rag.PassageURL(s.cfg.BasePath, ps.PaperID, ps.ChunkID)})
	}
	for _, n := range r.Notes {
		out.Notes = append(out.Notes, apiObjectNote{ID: n.ID, PaperID: n.PaperID, PaperTitle: n.PaperTitle, Kind: n.Kind, Quote: n.Quote, Body: n.Body,
			Link: s.cfg.BasePath + "/library/" + strconv.FormatInt(n.PaperID, 10) + "/read#note-" + strconv.FormatInt(n.ID, 10)})
	}
	return c.JSON(http.StatusOK, out)
}

// apiObjectReport is L9's JSON shape (plus literature_note).
type apiObjectReport struct {
	Object         apiObjectFacts      `json:"object"`
	Literature     *objects.Literature `json:"literature"`
	LiteratureNote string              `json:"literature_note,omitempty"`
	Library        apiObjectLibrary    `json:"library"`
	Notes          []apiObjectNote     `json:"notes"`
}

type apiObjectFacts struct {
	Name        string            `json:"name"`
	Type        string            `json:"type"`
	RADeg       float64           `json:"ra_deg"`
	DecDeg      float64           `json:"dec_deg"`
	Aliases     []string          `json:"aliases"`
	Redshift    *float64          `json:"redshift"`
	VelocityKmS *float64          `json:"velocity_kms"`
	Morphology  string            `json:"morphology"`
	Resolvers   []string          `json:"resolvers"`
	RADegText   string            `json:"ra_deg_text"`
	DecDegText  string            `json:"dec_deg_text"`
	PositionRef string            `json:"position_ref"`
	Sources     map[string]string `json:"sources"`
	Tried       []string          `json:"tried"`
}

type apiObjectLibrary struct {
	Papers   []objects.MentionPaper `json:"papers"`
	Passages []apiObjectPassage     `json:"passages"`
}

type apiObjectPassage struct {
	store.PassageMention
	Link string `json:"link"`
}

type apiObjectNote struct {
	ID         int64  `json:"id"`
	PaperID    int64  `json:"paper_id"`
	PaperTitle string `json:"paper_title"`
	Kind       string `json:"kind"`
	Quote      string `json:"quote"`
	Body       string `json:"body"`
	Link       string `json:"link"`
}
