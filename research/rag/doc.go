// Package rag is retrieval over the papers in the library (docs/features.md T12): it
// cuts each paper's Markdown into passages along section boundaries,
// indexes them with FTS5 (BM25) and, when an embedding model is
// configured, with vectors (a binary-quantised sqlite-vec vec0 index,
// re-ranked by exact cosine distance), fuses both rankings by reciprocal
// rank fusion, and answers questions from the best passages with numbered
// citations.
//
// Other packages use it through a Service:
//
//	func (s *Service) IndexPaper(ctx context.Context, paperID int64, markdown string) error
//	func (s *Service) Enqueue(ctx context.Context, paperID int64) error // background indexing (Run)
//	func (s *Service) Search(ctx context.Context, q Query) (Results, error)
//	func (s *Service) Ask(ctx context.Context, q Query) (Answer, error)
//	func (s *Service) Passage(ctx context.Context, chunkID int64) (Passage, error)
//
// Passage (contract 3) has ID, PaperID, SectionPath, Start, End and Text,
// where Text is exactly markdown[Start:End] in bytes of the Markdown the
// passage was cut from; a missing passage is an error wrapping
// store.ErrNotFound. PassageURL builds the reader link that highlights it:
// /library/{paper}/read?passage={id}#passage-{id}.
//
// Indexing state is persisted per paper (rag_documents), so background
// indexing resumes after a restart; a paper is cut again only when its
// Markdown's hash changes, and re-embedded when the embedding model
// changes. Without an embedding model retrieval is BM25 alone and
// Results.Note says so. The library is shared by the instance's users, so
// retrieval covers every paper in it.
package rag
