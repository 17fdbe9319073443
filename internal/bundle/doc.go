// Package bundle assembles a ticket bundle: git/commits.json, git/diff.patch, the ticket's .sdd artefacts and
// a manifest, packed into one deterministic tar.gz and signed with a detached JWS (REFERENCE sections 1 and 2).
//
// The .sdd folder is read through package nofollow: no symlink is followed below the folder given, and .sdd
// itself must not be one (a symlinked folder is skipped with a warning naming it). A file is chosen through an
// open descriptor, and every later read of it (hashing, packing) reopens it the same way and checks it is the
// same device and inode; a file that changed identity in between is an error naming it, so what was chosen is
// exactly what is signed. Slices (lineage and audit JSONL) are cut from the descriptor that was read.
package bundle
