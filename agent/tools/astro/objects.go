package astro

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/objects"
	"github.com/astroresearch/astroresearch/research/rag"
	"github.com/astroresearch/astroresearch/research/sesame"
)

// ObjectReporter builds object reports (objects.Service).
type ObjectReporter interface {
	Report(ctx context.Context, userID int64, name string) (objects.Report, error)
}

// ObjectLiteratureArgs are object_literature's arguments.
type ObjectLiteratureArgs struct {
	Name string `json:"name" desc:"Object name or designation, e.g. NGC 4258, M87, Perseus A" minLength:"1" maxLength:"200"`
}

// ObjectLiterature returns the object_literature tool: the object page in
// a compact form for the model (basePath prefixes reader links).
func ObjectLiterature(r ObjectReporter, basePath string) tools.Tool {
	return tools.New("object_literature",
		"What is known about an astronomical object: its merged SIMBAD/NED resolution, the NASA ADS literature about it "+
			"(refereed papers per year, the most cited papers), the user's library papers whose text names it or any alias "+
			"(with reader links to the passages) and the user's notes about it.",
		func(ctx context.Context, tc *tools.Context, args ObjectLiteratureArgs) (tools.Result, error) {
			rep, err := r.Report(ctx, tc.UserID, args.Name)
			var nr *objects.NotResolvedError
			switch {
			case errors.As(err, &nr):
				return tools.Errorf("%q was %s.", args.Name, nr.Error()), nil
			case errors.Is(err, sesame.ErrUnavailable):
				return tools.Errorf("Sesame could not be reached right now (%v). Try again later.", err), nil
			case err != nil && ctx.Err() == nil && rep.Object.Name == "" && len(rep.Tried) > 0:
				return tools.Errorf("Cannot resolve %q: %v", args.Name, err), nil
			case err != nil:
				return tools.Result{}, err
			}
			return tools.Result{Output: describeReport(rep, basePath), Metadata: map[string]any{"object": rep.Object}}, nil
		},
		// Deferred: the lead's fixed prompt stays within its budget (C12);
		// load_tool offers it.
		tools.WithReadOnly(), tools.AlwaysConcurrencySafe(), tools.WithDeferred(),
	)
}

// describeReport is the compact text of a report: facts, literature in
// numbers, the top five papers, library papers and three passages.
func describeReport(r objects.Report, basePath string) string {
	var b strings.Builder
	b.WriteString(Describe(r.Object))
	b.WriteString("\n\nLiterature (NASA ADS): ")
	if lit := r.Literature; lit == nil {
		b.WriteString(r.LiteratureNote)
	} else {
		fmt.Fprintf(&b, "%d papers, %d refereed.", lit.Total, lit.Refereed)
		if n := len(lit.ByYear); n > 0 {
			var parts []string
			for _, y := range lit.ByYear[max(0, n-10):] {
				parts = append(parts, fmt.Sprintf("%d:%d", y.Year, y.Count))
			}
			fmt.Fprintf(&b, " Refereed per year (last %d years with papers): %s.", len(parts), strings.Join(parts, " "))
		}
		for i, tp := range lit.Top {
			if i == 5 {
				break
			}
			in := ""
			if tp.LibraryID != 0 {
				in = fmt.Sprintf(" [library #%d]", tp.LibraryID)
			}
			cites := ""
			if tp.Citations != nil {
				cites = fmt.Sprintf(", %d citations", *tp.Citations)
			}
			fmt.Fprintf(&b, "\n- %s (%s %d%s, %s)%s", tp.Title, tp.Authors, tp.Year, cites, tp.Bibcode, in)
		}
	}
	fmt.Fprintf(&b, "\n\nIn the library: %d papers name it", len(r.Library.Papers))
	for i, p := range r.Library.Papers {
		if i == 8 {
			fmt.Fprintf(&b, "\n- … and %d more", len(r.Library.Papers)-8)
			break
		}
		fmt.Fprintf(&b, "\n- library #%d %q (%d passages)", p.ID, p.Title, p.Passages)
	}
	for i, ps := range r.Library.Passages {
		if i == 3 {
			break
		}
		text := ps.Text
		if len([]rune(text)) > 300 {
			text = string([]rune(text)[:300]) + "…"
		}
		fmt.Fprintf(&b, "\n> %s\n  (library #%d, %s: %s)", strings.Join(strings.Fields(text), " "), ps.PaperID, ps.SectionPath, rag.PassageURL(basePath, ps.PaperID, ps.ChunkID))
	}
	fmt.Fprintf(&b, "\n\nThe user's notes mentioning it: %d", len(r.Notes))
	for i, n := range r.Notes {
		if i == 3 {
			break
		}
		fmt.Fprintf(&b, "\n- on library #%d: %s", n.PaperID, strings.Join(strings.Fields(n.Quote+" "+n.Body), " "))
	}
	return b.String()
}
