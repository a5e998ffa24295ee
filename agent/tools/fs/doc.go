// Package fs holds the agent's filesystem tools (docs/features.md T1–T3, T5, T6):
// read_file, grep_files, glob_files, file_write and file_edit, plus the
// file-state cache they share (C10).
//
// # Confinement
//
// Every access goes through an os.Root, one per allowed directory, so a
// path can never leave its directory: not with "..", not through a symbolic
// link (os.Root refuses links that lead outside, and absolute links), not
// through a link swapped in mid-operation. On top of that the model's paths
// are checked early (CleanPath) so the usual mistakes get a clear message
// naming the allowed roots instead of an opaque error. Directory walks
// (grep_files, glob_files) go through Root.FS with io/fs.WalkDir, which
// never descends into a symbolic link, and they skip symbolic links to
// files as well. The application's database and configuration are never
// inside a root: OpenRoots refuses a root that is, or contains, the data
// directory or any Options.Protected path.
//
// # Addressing scheme
//
// Paths are slash-separated and relative. The first component names a root:
//
//	workspace/notes.md            read-write scratch space of the calling user
//	library/2401.01234.md         downloaded, parsed papers (read-only)
//	skills/photometry/SKILL.md    skill files (read-only unless Options.SkillsWritable)
//	tool-results/<session>/x.txt  large outputs saved by the runtime (docs/features.md R14),
//	                              read-only and only the calling session's own
//
// A path whose first component is not a root name is inside workspace/
// ("notes.md" is "workspace/notes.md"); a workspace file whose name starts
// with a root name must be written with the explicit prefix
// ("workspace/library/x"). A bare root name ("library") is that root's top
// directory. tool-results/ also accepts the short form "tool-results/x.txt".
// Results always show full paths with the root prefix, so the model learns
// the scheme from what it reads.
//
// By default each user gets a private workspace directory
// ({workspace}/u{UserID}); the model never sees that level.
package fs
