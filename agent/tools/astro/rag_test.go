package astro

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/astroresearch/astroresearch/agent/tools"
	"github.com/astroresearch/astroresearch/research/rag"
)

type fakeAsker struct {
	got rag.Query
	ans rag.Answer
}

func (f *fakeAsker) Ask(_ context.Context, q rag.Query) (rag.Answer, error) {
	f.got = q
	return f.ans, nil
}

func TestRagSearch(t *testing.T) {
	y := 2019
	passages := []rag.Hit{
		{Passage: rag.Passage{ID: 41, PaperID: 7, SectionPath: "3 Results", Text: "We infer a black hole mass of 6.5e9 Msun."}, Title: "First M87 EHT Results", Year: &y},
		{Passage: rag.Passage{ID: 42, PaperID: 7, SectionPath: "1 Introduction", Text: "M87 hosts a jet."}, Title: "First M87 EHT Results", Year: &y},
	}
	run := func(a *fakeAsker, args RagSearchArgs) tools.Result {
		raw, _ := json.Marshal(args)
		res, err := RagSearch(a, "/astro").Execute(context.Background(), &tools.Context{}, raw)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	a := &fakeAsker{ans: rag.Answer{Passages: passages, Mode: rag.ModeHybrid,
		Paragraphs: [][]rag.Sentence{{{Text: "The mass is 6.5e9 Msun.", Cites: []int{1}}, {Text: "It has a jet.", Cites: []int{2}}}},
		Removed:    []string{"Spin is 0.9."}}}
	res := run(a, RagSearchArgs{Query: " M87 mass ", PaperIDs: []int64{7}, Tag: "eht", Year: 2019, Limit: 4})
	if a.got.Text != "M87 mass" || a.got.Limit != 4 || a.got.Tag != "eht" || a.got.Year != 2019 || len(a.got.PaperIDs) != 1 {
		t.Errorf("query %+v", a.got)
	}
	for _, want := range []string{"Answer from the library (hybrid retrieval", "The mass is 6.5e9 Msun. [1] It has a jet. [2]",
		"1 sentence(s) citing no passage were removed", "[1] First M87 EHT Results (2019) — library #7, section 3 Results",
		"link: /astro/library/7/read?passage=41#passage-41", "We infer a black hole mass"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	if res.IsError || res.Metadata["answer"] == nil {
		t.Errorf("result %+v", res)
	}

	// Six long passages still fit the default tool output limit.
	long := make([]rag.Hit, 6)
	for i := range long {
		long[i] = rag.Hit{Passage: rag.Passage{ID: int64(i + 1), PaperID: 7, SectionPath: "2 Observations > 2.1 Array",
			Text: strings.Repeat("The array observed M87 at 1.3 mm. ", 100)}, Title: "First M87 EHT Results", Year: &y}
	}
	big := run(&fakeAsker{ans: rag.Answer{Passages: long, Mode: rag.ModeHybrid,
		Paragraphs: [][]rag.Sentence{{{Text: "It observed at 1.3 mm.", Cites: []int{1, 2}}}}}}, RagSearchArgs{Query: "wavelength"})
	if n := len([]rune(big.Output)); n > 4000 || strings.Count(big.Output, "link: ") != 6 {
		t.Errorf("output of %d characters with %d links", n, strings.Count(big.Output, "link: "))
	}

	none := run(&fakeAsker{ans: rag.Answer{NoSupport: true, Mode: rag.ModeKeyword, Note: rag.NoEmbeddingNote}}, RagSearchArgs{Query: "Andromeda"})
	if !strings.Contains(none.Output, rag.NoSupportText) || !strings.Contains(none.Output, "Do not answer this from memory") ||
		!strings.Contains(none.Output, "no embedding model configured") || strings.Contains(none.Output, "Passages:") {
		t.Errorf("no-support output:\n%s", none.Output)
	}
	if res := run(&fakeAsker{}, RagSearchArgs{Query: "   "}); !res.IsError {
		t.Errorf("blank query accepted: %+v", res)
	}
}
