// Package notes is git-bernstein's record in git notes: which bundles were made for which commit, with their
// digests, so that reviewers can check a bundle against the repository (`verify --rev`, `show`, `log`). Reading
// and writing the notes tree itself is plain git and lives in gitext/objstore (Store.Note, Store.Notes,
// Store.EditNote).
//
// # Ref
//
// The notes live on refs/notes/bernstein unless `git config bernstein.notesRef` names another; a short name is
// expanded as git's expand_notes_ref does ("bernstein" and "notes/bernstein" both mean refs/notes/bernstein).
//
// # Note line
//
// A note is text, one line per bundle recorded on the commit, each line one JSON object with exactly these keys,
// written in sorted order with no spaces and no HTML escaping, so two machines noting the same bundle write the
// same bytes:
//
//	{"bundle":"ab12cd34ef56.tar.gz","bundle_sha256":"<64 hex>","commits":2,"created_at":"2026-01-01T00:00:00Z",
//	 "files":7,"kid":"alice-2026","manifest_sha256":"<64 hex>","signed":true,"ticket":"ENG-42",
//	 "tracker":"github","v":1}
//
// (one line in the note; wrapped here). bundle is the archive's file name, bundle_sha256 the sha256 of the
// whole archive file, manifest_sha256 that of its manifest.json, commits and files the manifest's counts, kid ""
// when unsigned. v is 1; lines with another v, and lines that are not JSON, are kept untouched and reported, never
// dropped.
//
// One optional key, in its sorted place between kid and manifest_sha256:
//
//	"lineage_v2_checkpoint_sha256":"<64 hex>"
//
// the sha256 of the bundle's lineage/v2/checkpoint.json (package lineage, "Checkpoints"), present only when the
// bundle carries one (lineage v2 enabled). A line without it is byte for byte the line earlier versions wrote,
// and earlier versions read a line with it (they ignore keys they do not know) as the same bundle, so v stays
// 1. The line is still one sorted JSON object, so the merging below is unchanged: a line is kept or dropped
// whole, and two machines recording the same bundle with the same checkpoint write the same line.
//
// # Merging
//
// The note's lines are kept sorted and unique, each ending in a newline: exactly what `git notes merge -s
// cat_sort_uniq` makes of two notes, so notes fetched from another clone merge with git's own strategy and read
// the same here. Adding a line for a tracker, ticket and bundle file name that the note already has replaces that
// line (the file was rewritten, so the old digest no longer describes it). Writers move the ref with a
// compare-and-swap and retry, so concurrent writers never lose each other's lines.
//
// note.schema.json beside this file is a note line in JSON Schema (draft 2020-12); tests hold the lines record
// writes to it (internal/schematest).
package notes
