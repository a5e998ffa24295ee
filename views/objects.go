package views

import "github.com/astroresearch/astroresearch/research/sesame"

// ObjectPage is /objects/{name}: what is known about one object.
type ObjectPage struct {
	Chrome
	Name string // as asked
	// Error is shown instead of the report (not resolved, Sesame down);
	// Tried lists the names given to Sesame.
	Error string
	Tried []string
	// Object is nil when not resolved.
	Object *sesame.Object
	// Literature (nil: LiteratureNote says why).
	LiteratureNote   string
	Literature       *ObjectLiterature
	Papers           []ObjectPaper
	Passages         []ObjectPassage
	Notes            []ObjectNote
	MeasurementsURL  string
	LibrarySearchURL string
}

// ObjectLiterature is the ADS block.
type ObjectLiterature struct {
	Total, Refereed int
	Chart           *BarChart
	Top             []ObjectTopPaper
	ADSURL          string // the same search on the ADS site
}

// ObjectTopPaper is one of the most cited papers, addable in one click.
type ObjectTopPaper struct {
	Title, Authors, Bibcode string
	Year                    int
	Citations               *int   // nil: ADS sent no count (nothing is shown)
	LibraryURL              string // "" when not in the library
}

// ObjectPaper is a library paper naming the object.
type ObjectPaper struct {
	Title, URL, Year string
	Passages         int
}

// ObjectPassage is a passage naming the object, linked into the reader.
type ObjectPassage struct {
	PaperTitle, Section, Text, URL string
}

// ObjectNote is one of the user's notes naming the object.
type ObjectNote struct {
	PaperTitle, Text, URL string
}
