package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/astroresearch/astroresearch/research/library"
	"github.com/astroresearch/astroresearch/research/measure"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/store"
	"github.com/astroresearch/astroresearch/views"
)

// The comparison of reported values (L9): GET /measurements (page),
// /measurements/export.csv and .tex, and GET /api/measurements (JSON), all
// taking ?quantity=&object=.

const (
	maxQuantityLen = 60
	maxObjectLen   = 200
)

// compareQuery reads and checks ?quantity=&object=.
func compareQuery(c echo.Context) (quantity, object string, err error) {
	quantity = strings.TrimSpace(c.QueryParam("quantity"))
	object = strings.Join(strings.Fields(c.QueryParam("object")), " ")
	if utf8.RuneCountInString(quantity) > maxQuantityLen || utf8.RuneCountInString(object) > maxObjectLen ||
		strings.ContainsAny(quantity+object, "\x00\r\n") {
		return "", "", apiError(http.StatusBadRequest, "invalid_request", "The quantity is at most 60 characters and the object at most 200.")
	}
	return quantity, object, nil
}

// compareTable runs the comparison with the cite keys of its papers, in
// the order they first appear.
func (s *Server) compareTable(c echo.Context, quantity, object string) (measure.Table, []int64, map[int64]string, error) {
	ctx := c.Request().Context()
	t, err := measure.Compare(ctx, s.st, s.targets, quantity, object)
	if err != nil {
		return t, nil, nil, err
	}
	var ids []int64
	var papers []store.Paper
	seen := map[int64]bool{}
	for _, r := range t.Rows {
		if seen[r.PaperID] {
			continue
		}
		seen[r.PaperID] = true
		p, err := s.st.PaperByID(ctx, r.PaperID)
		if err != nil {
			return t, nil, nil, err
		}
		ids = append(ids, r.PaperID)
		papers = append(papers, p)
	}
	return t, ids, library.CiteKeys(papers, s.bibtex), nil
}

// measurementsPage is GET /measurements.
func (s *Server) measurementsPage(c echo.Context) error {
	quantity, object, err := compareQuery(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	page := views.MeasurementsPage{Chrome: s.chrome(c, "Measurements", "measurements"), Quantity: quantity, Object: object,
		Asked: quantity != "" || object != ""}
	qs, err := s.st.MeasurementQuantities(ctx)
	if err != nil {
		return err
	}
	for _, q := range qs {
		page.Quantities = append(page.Quantities, views.QuantityOption{Key: q.Quantity, Count: q.Count})
	}
	page.LibraryEmpty = len(qs) == 0
	if !page.Asked {
		return s.render(c, http.StatusOK, views.Measurements(page))
	}
	t, ids, keys, err := s.compareTable(c, quantity, object)
	if err != nil {
		return err
	}
	page.Title = strings.TrimSpace(quantity+" "+object) + " — measurements"
	page.Names, page.Unit, page.NotFound = t.Names, t.Unit, t.NotFound()
	if page.NotFound {
		page.ADSSearch = s.cfg.BasePath + "/library/search?" + url.Values{"q": {t.ADSQuery()}}.Encode()
	}
	page.Rows = s.measurementRows(t, keys)
	page.Plot = measurementPlot(t)
	q := url.Values{"quantity": {quantity}, "object": {object}}.Encode()
	page.CSVURL = s.cfg.BasePath + "/measurements/export.csv?" + q
	page.TeXURL = s.cfg.BasePath + "/measurements/export.tex?" + q
	page.BibTeXURL = s.cfg.BasePath + "/api/papers/bibtex?ids=" + joinIDs(ids)
	return s.render(c, http.StatusOK, views.Measurements(page))
}

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

// measurementRows are the table's rows for the page.
func (s *Server) measurementRows(t measure.Table, keys map[int64]string) []views.MeasurementRow {
	rows := make([]views.MeasurementRow, 0, len(t.Rows))
	for _, r := range t.Rows {
		row := views.MeasurementRow{Value: measure.FormatValue(r), Unit: r.Unit, Quantity: r.Quantity, Object: r.Object,
			PaperTitle: r.Title, PaperURL: s.cfg.BasePath + "/library/" + strconv.FormatInt(r.PaperID, 10),
			CiteKey: keys[r.PaperID], Sentence: r.Sentence, PassageURL: rag.SentenceURL(s.cfg.BasePath, r.PaperID, r.ChunkID, r.StartByte, r.EndByte)}
		if r.Object != "" {
			row.ObjectURL = s.cfg.BasePath + views.ObjectPath(r.Object)
		}
		if r.Year != nil {
			row.Year = strconv.Itoa(*r.Year)
		}
		if r.Bibcode != nil {
			row.Bibcode = *r.Bibcode
		}
		rows = append(rows, row)
	}
	return rows
}

// measurementPlot plots the rows in the table's common unit.
func measurementPlot(t measure.Table) *views.ValuePlot {
	var pts []views.ValuePoint
	for _, r := range t.Rows {
		if r.Unit != t.Unit || r.Year == nil {
			continue
		}
		v, lo, hi := r.Value, r.Value-r.ErrMinus, r.Value+r.ErrPlus
		if r.Bound == "range" {
			v, lo, hi = (r.Value+r.Upper)/2, r.Value, r.Upper
		}
		pts = append(pts, views.ValuePoint{Year: *r.Year, Value: v, Lo: lo, Hi: hi, Bound: r.Bound, Label: strconv.Itoa(*r.Year) + ": " + measure.FormatValue(r) + " " + r.Unit + " — " + r.Title})
	}
	name := strings.TrimSpace(t.Quantity + " " + t.Object)
	if name == "" {
		name = "Values"
	}
	desc := name + " reported by the papers in your library against publication year"
	if t.Unit != "" {
		desc += ", in " + t.Unit
	}
	return views.NewValuePlot(pts, t.Unit, name+" against year", desc+".")
}

// measurementsCSV is GET /measurements/export.csv.
func (s *Server) measurementsCSV(c echo.Context) error {
	quantity, object, err := compareQuery(c)
	if err != nil {
		return err
	}
	t, _, keys, err := s.compareTable(c, quantity, object)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="measurements.csv"`)
	c.Response().Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	c.Response().WriteHeader(http.StatusOK)
	return measure.WriteCSV(c.Response(), t, keys)
}

// measurementsTeX is GET /measurements/export.tex.
func (s *Server) measurementsTeX(c echo.Context) error {
	quantity, object, err := compareQuery(c)
	if err != nil {
		return err
	}
	t, _, keys, err := s.compareTable(c, quantity, object)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="measurements.tex"`)
	return c.Blob(http.StatusOK, "application/x-tex; charset=utf-8", []byte(measure.Deluxetable(t, keys)))
}

// apiMeasurements is GET /api/measurements?quantity=&object=.
func (s *Server) apiMeasurements(c echo.Context) error {
	quantity, object, err := compareQuery(c)
	if err != nil {
		return err
	}
	if quantity == "" && object == "" {
		return apiError(http.StatusBadRequest, "invalid_request", "Give a quantity, an object or both.")
	}
	t, _, keys, err := s.compareTable(c, quantity, object)
	if err != nil {
		return err
	}
	out := apiMeasurementTable{Quantity: t.Quantity, Object: t.Object, Names: orEmpty(t.Names), Unit: t.Unit,
		Rows: make([]apiMeasurementRow, 0, len(t.Rows)), NotFound: t.NotFound()}
	if out.NotFound {
		out.ADSQuery = t.ADSQuery()
	}
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, apiMeasurementRow{Value: r.Value, ErrPlus: r.ErrPlus, ErrMinus: r.ErrMinus, Unit: r.Unit,
			Object: r.Object, Year: r.Year, PaperID: r.PaperID, Bibcode: r.Bibcode,
			Passage:  apiPassage{Text: r.Sentence, Link: rag.SentenceURL(s.cfg.BasePath, r.PaperID, r.ChunkID, r.StartByte, r.EndByte)},
			Quantity: r.Quantity, Bound: r.Bound, Upper: r.Upper, ErrStat: r.ErrStat, ErrSys: r.ErrSys,
			Title: r.Title, CiteKey: keys[r.PaperID]})
	}
	return c.JSON(http.StatusOK, out)
}

// orEmpty is list, or [] for nil (a JSON list is never null).
func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// apiMeasurementTable is the JSON of GET /api/measurements (L9's
// shape, plus object, names, ads_query).
type apiMeasurementTable struct {
	Quantity string              `json:"quantity"`
	Unit     string              `json:"unit"`
	Rows     []apiMeasurementRow `json:"rows"`
	NotFound bool                `json:"not_found"`
	Object   string              `json:"object"`
	Names    []string            `json:"names"`
	ADSQuery string              `json:"ads_query,omitempty"`
}

type apiMeasurementRow struct {
	Value    float64    `json:"value"`
	ErrPlus  float64    `json:"err_plus"`
	ErrMinus float64    `json:"err_minus"`
	Unit     string     `json:"unit"`
	Object   string     `json:"object"`
	Year     *int       `json:"year"`
	PaperID  int64      `json:"paper_id"`
	Bibcode  *string    `json:"bibcode"`
	Passage  apiPassage `json:"passage"`
	Quantity string     `json:"quantity"`
	Bound    string     `json:"bound"`
	Upper    float64    `json:"upper"`
	ErrStat  float64    `json:"err_stat"`
	ErrSys   float64    `json:"err_sys"`
	Title    string     `json:"title"`
	CiteKey  string     `json:"cite_key"`
}

type apiPassage struct {
	Text string `json:"text"`
	Link string `json:"link"`
}
