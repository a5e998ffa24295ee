// Package rag is retrieval over the papers in the library (SPEC T12): it
// cuts each paper's Markdown into passages along section boundaries,
// indexes them with FTS5 (BM25) and, when an embedding model is
// configured, with vectors in a sqlite-vec vec0 table, and answers
// questions from the best passages with numbered citations.
package rag
