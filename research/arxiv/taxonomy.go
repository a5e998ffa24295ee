package arxiv

import (
	"slices"
	"strings"
)

// taxonomy is arXiv's category taxonomy (https://arxiv.org/category_taxonomy):
// every archive that may be searched as a whole, then every subject
// category, in the order the taxonomy page lists them. Aliases the page
// names (math.IT for cs.IT, math.MP for math-ph, ...) are listed too,
// since arXiv accepts them in queries.
const taxonomy = `
astro-ph cond-mat cs econ eess gr-qc hep-ex hep-lat hep-ph hep-th math math-ph nlin nucl-ex nucl-th physics q-bio q-fin quant-ph stat
cs.AI cs.AR cs.CC cs.CE cs.CG cs.CL cs.CR cs.CV cs.CY cs.DB cs.DC cs.DL cs.DM cs.DS cs.ET cs.FL cs.GL cs.GR cs.GT cs.HC
cs.IR cs.IT cs.LG cs.LO cs.MA cs.MM cs.MS cs.NA cs.NE cs.NI cs.OH cs.OS cs.PF cs.PL cs.RO cs.SC cs.SD cs.SE cs.SI cs.SY
econ.EM econ.GN econ.TH
eess.AS eess.IV eess.SP eess.SY
math.AC math.AG math.AP math.AT math.CA math.CO math.CT math.CV math.DG math.DS math.FA math.GM math.GN math.GR math.GT
math.HO math.IT math.KT math.LO math.MG math.MP math.NA math.NT math.OA math.OC math.PR math.QA math.RA math.RT math.SG
math.SP math.ST
astro-ph.CO astro-ph.EP astro-ph.GA astro-ph.HE astro-ph.IM astro-ph.SR
cond-mat.dis-nn cond-mat.mes-hall cond-mat.mtrl-sci cond-mat.other cond-mat.quant-gas cond-mat.soft cond-mat.stat-mech
cond-mat.str-el cond-mat.supr-con
nlin.AO nlin.CD nlin.CG nlin.PS nlin.SI
physics.acc-ph physics.ao-ph physics.app-ph physics.atm-clus physics.atom-ph physics.bio-ph physics.chem-ph
physics.class-ph physics.comp-ph physics.data-an physics.ed-ph physics.flu-dyn physics.gen-ph physics.geo-ph
physics.hist-ph physics.ins-det physics.med-ph physics.optics physics.plasm-ph physics.pop-ph physics.soc-ph
physics.space-ph
q-bio.BM q-bio.CB q-bio.GN q-bio.MN q-bio.NC q-bio.OT q-bio.PE q-bio.QM q-bio.SC q-bio.TO
q-fin.CP q-fin.EC q-fin.GN q-fin.MP q-fin.PM q-fin.PR q-fin.RM q-fin.ST q-fin.TR
stat.AP stat.CO stat.ME stat.ML stat.OT stat.TH
`

// KnownCategory reports whether term is a category (or a whole archive)
// of arXiv's taxonomy, spelled exactly as arXiv spells it ("astro-ph.GA",
// not "astro-ph.ga"). ValidCategory only checks the shape.
func KnownCategory(term string) bool {
	return ValidCategory(term) && slices.Contains(strings.Fields(taxonomy), term)
}

// SuggestCategory returns the taxonomy's spelling of term when term differs
// from a known category only in letter case ("astro-ph.ga" → "astro-ph.GA"),
// and "" otherwise. It lets error messages say what was probably meant.
func SuggestCategory(term string) string {
	for _, c := range strings.Fields(taxonomy) {
		if strings.EqualFold(c, term) {
			return c
		}
	}
	return ""
}

// KnownCategories returns every category of the taxonomy, archives first,
// in a new slice the caller may modify.
func KnownCategories() []string { return strings.Fields(taxonomy) }
