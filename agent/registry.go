package agent

import (
	"fmt"

	"github.com/astroresearch/astroresearch/agent/memory"
	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/agent/tools/astro"
	"github.com/astroresearch/astroresearch/agent/tools/self"
	"github.com/astroresearch/astroresearch/agent/tools/skills"
	"github.com/astroresearch/astroresearch/store"
)

// EmptyRegistry returns a registry holding only the load_tool meta-tool.
func EmptyRegistry() *tools.Registry {
	r := tools.NewRegistry()
	mustAdd(r, tools.LoadTool())
	return r
}

// ToolDeps are what the standard tools are built from. Optional fields
// leave their tool family out when nil.
type ToolDeps struct {
	Store   *store.Store
	Skills  *skills.Library // load_skill
	Targets astro.Resolver  // query_target
	Bash    tools.Tool      // run_bash, built with its sandbox status
	Files   []tools.Tool    // read_file, grep_files, glob_files, file_write, file_edit
	Memory  *memory.Service // save_memory
	Papers  astro.Searcher  // search_papers
	Library astro.Library   // get_paper_metadata
	// Importer gives import_paper; with Downloads, download_paper.
	Importer  astro.Importer
	Downloads astro.Fetcher
	// Parser gives parse_paper (with Store). Store alone gives
	// library_search, get_paper_content and save_note.
	Parser astro.Parser
	// Rag gives rag_search; BasePath (BASE_PATH) prefixes its reader links.
	Rag      astro.Asker
	BasePath string
	// Objects gives object_literature; Measurements gives
	// compare_measurements.
	Objects      astro.ObjectReporter
	Measurements astro.Comparer
}

// StandardRegistry returns the research agent's registry: load_tool and
// every tool family built so far. Research tool families are added here as
// they are built.
func StandardRegistry(d ToolDeps) *tools.Registry {
	r := EmptyRegistry()
	mustAdd(r, self.TodoWrite(d.Store))
	mustAdd(r, self.AskUser())
	mustAdd(r, self.SearchHistory(d.Store))
	mustAdd(r, self.CompressContext())
	if d.Skills != nil {
		mustAdd(r, skills.LoadSkill(d.Skills))
	}
	if d.Targets != nil {
		mustAdd(r, astro.QueryTarget(d.Targets))
	}
	if d.Objects != nil {
		mustAdd(r, astro.ObjectLiterature(d.Objects, d.BasePath))
	}
	if d.Measurements != nil {
		mustAdd(r, astro.CompareMeasurements(d.Measurements, d.BasePath))
	}
	if d.Papers != nil {
		var shelf astro.Shelf
		if d.Store != nil {
			shelf = d.Store
		}
		mustAdd(r, astro.SearchPapers(d.Papers, shelf))
	}
	if d.Library != nil {
		mustAdd(r, astro.GetPaperMetadata(d.Library))
	}
	if d.Importer != nil && d.Downloads != nil {
		mustAdd(r, astro.DownloadPaper(d.Importer, d.Downloads))
	}
	if d.Importer != nil {
		mustAdd(r, astro.ImportPaper(d.Importer))
	}
	if d.Store != nil {
		mustAdd(r, astro.LibrarySearch(d.Store))
		mustAdd(r, astro.GetPaperContent(d.Store))
		mustAdd(r, astro.SaveNote(d.Store, d.Store))
		if d.Parser != nil {
			var imp astro.Importer
			if d.Importer != nil {
				imp = d.Importer
			}
			mustAdd(r, astro.ParsePaper(imp, d.Store, d.Parser))
		}
	}
	if d.Rag != nil {
		mustAdd(r, astro.RagSearch(d.Rag, d.BasePath))
	}
	if d.Bash != nil {
		mustAdd(r, d.Bash)
	}
	for _, t := range d.Files {
		mustAdd(r, t)
	}
	if d.Memory != nil {
		mustAdd(r, memory.SaveTool(d.Memory))
	}
	return r
}

// mustAdd adds a built-in tool; a failure is a programming error caught by
// any test that builds the registry.
func mustAdd(r *tools.Registry, t tools.Tool) {
	if err := r.Add(t); err != nil {
		panic(fmt.Sprintf("agent: built-in tool %s: %v", t.Name(), err))
	}
}
