// Package bundle assembles a ticket bundle: git/commits.json, git/diff.patch, the ticket's .sdd artefacts and
// a manifest, packed into one deterministic tar.gz and signed with a detached JWS. The manifest and the
// archive's members are specified in package manifest ("manifest.json, schema_version 1", "Bundle layout"),
// the signature in package sign ("Signature"), the archive's tar and gzip shape in package verify ("Archive
// shape"). What this package decides is which .sdd files go in.
//
// # Choosing .sdd files
//
// The folders transcripts, traces, lineage and audit of .sdd are read one level deep (lineage/v2 has a reader
// of its own, below); only regular files with one name count (a symlink or a hard link is skipped with a
// warning, below), and a file whose name is not UTF-8 or holds a backslash or control character, which
// verifiers refuse in member names, is skipped with a warning. A file is taken:
//   - whole, when its name names the ticket (package ticket's whole-token rule: ENG-42 is named by
//     "ENG-42-trace.jsonl", never by "ENG-420-trace.jsonl"), whatever its size;
//   - else, when it is .json or .jsonl of at most the probe limit (DefaultProbeLimit, 2 MiB; --probe-limit)
//     and one record (the whole .json document, or one JSONL line; lines that are not JSON are skipped) has,
//     among its string values at any depth, one equal to the tracker and one equal to the ticket id (case
//     ignored; "#123" also counts for a GitHub number; keys and numbers do not count). A .json file and a
//     transcripts or traces file are then taken whole; a .jsonl file in lineage or audit is taken as the slice
//     of its matching lines, whole lines byte for byte in file order, unless WholeFiles (--whole-files).
//
// With lineage v2 on (Options.LineageV2, as package settings reads it: BERNSTEIN_LINEAGE_V2, when set, decides: 1
// or true; else lineage.version 2 in <project root>/bernstein.yaml), the tasks of .sdd/lineage/v2 tied to the ticket are packed too: a task
// is tied when its task_id names the ticket, or when one of its parent refs, or one of the child files they
// point at (each read only when at most the probe limit), has a record naming tracker and ticket as above.
// The bundle then holds the slice of parent.jsonl with those tasks' lines and, whole, the child files they
// point at (package lineage, "Lineage v1 and bundles"). Given a checkpoint (record takes one per run), it also
// holds it as lineage/v2/checkpoint.json and, given the refs it counted, lineage/v2/checkpoint-refs.json: the
// positions and hmacs at the checkpoint of the refs of the ticket's tasks (package lineage, "Checkpoints").
//
// The .sdd folder is read through package nofollow: no symlink is followed below the folder given, and .sdd
// itself must not be one (a symlinked folder is skipped with a warning naming it). A file is chosen through an
// open descriptor, and every later read of it (hashing, packing) reopens it the same way and checks it is the
// same device and inode; a file that changed identity in between is an error naming it, so what was chosen is
// exactly what is signed. Slices (lineage and audit JSONL) are cut from the descriptor that was read. A file
// with more than one name (a hard link, which could be any file the user can read) is skipped with a warning.
package bundle
