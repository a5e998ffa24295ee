package views

// MeasurementsPage is /measurements: the values the library's papers
// report for a quantity (and object), their plot and exports.
type MeasurementsPage struct {
	Chrome
	Quantity, Object string
	// Quantities are the quantities the library holds values for.
	Quantities []QuantityOption
	// Names are the object's names searched (its aliases).
	Names []string
	Unit  string
	Rows  []MeasurementRow
	Plot  *ValuePlot
	// Asked: a quantity or an object was given. NotFound: none matched.
	Asked, NotFound bool
	// LibraryEmpty: the library holds no extracted value at all.
	LibraryEmpty bool
	// ADSSearch is the ADS search page for the question, offered when the
	// library has no value.
	ADSSearch string
	// Exports (CSV, AASTeX) and the BibTeX of the cited papers.
	CSVURL, TeXURL, BibTeXURL string
}

// QuantityOption is a quantity in the page's list.
type QuantityOption struct {
	Key   string
	Count int
}

// MeasurementRow is one value in the table.
type MeasurementRow struct {
	Value, Unit, Quantity string
	Object                string
	ObjectURL             string // "" when no object was named
	Year                  string
	PaperTitle, PaperURL  string
	Bibcode, CiteKey      string
	Sentence, PassageURL  string
}
