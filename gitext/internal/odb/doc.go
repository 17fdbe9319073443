// Package odb reads git's object database directly, for speed: raw objects from the pack files and parents and
// dates from the commit-graph, both in place from mapped memory. It exists because a history walk needs only a
// commit's header (parents, committer time, message), and go-git reads every object through its storage (a stat
// of the loose-object path, a seek and a fresh decoder per object, then a full object.Commit decode), which made
// a walk of 200,000 commits five times slower than `git log`. Only gitext imports it: gitext finds the
// repository's folders, gives odb a fallback for what it does not read, and turns what it returns into walks,
// graphs and errors a user can act on. odb itself knows no repository, no config and no product format.
//
// # Packs (gitformat-pack)
//
// OpenPacks maps every objects/pack/*.idx and its .pack. A version 2 index (magic "\377tOc", version 2: fanout
// table, sorted ids, CRCs, 31-bit offsets, then 64-bit offsets for entries whose high bit is set) is searched
// where it lies: the fanout range of the id's first byte, narrowed around the place its next bytes predict
// (ids are uniform), then a binary search, so that a lookup touches one or two pages of a large index rather
// than one per step; an index of another version is decoded by go-git's idxfile. An index without its .pack (a
// repack in progress) is skipped. An entry is read from its header (type and inflated size, at most 256 MiB)
// and inflated by package inflate, which decodes the zlib stream where it lies in the mapped pack straight into
// a buffer of that size, with a pooled decoder per goroutine; a stream it refuses (one that does not end at that
// size with its Adler-32, which git refuses too) is read again with klauspost's zlib reader, which reads that
// many bytes and looks no further, as the pack reader always did. Commits and tags come back with their content; trees and blobs by type
// only, unless the whole object is asked for (Packs.Object).
//
// Deltas of both kinds are resolved: OFS_DELTA (base at a negative offset in the same pack) and REF_DELTA (base
// named by id, looked up in the same pack's index), then patched (applyDelta, into one allocation of the size the
// delta states). Chains are followed at most maxDeltaDepth (512) deep, above git's own 250 for `git gc --aggressive`, so that a corrupt
// pack whose deltas loop cannot recurse for ever. Delta bases go through a cache of at most 16 MiB, since the
// objects of a chain share their bases.
//
// What the packs do not give (loose objects, alternates, an entry that does not read, a partial clone's missing
// objects) is read through the fallback function passed to OpenPacks, one object at a time, so its errors are
// the ones the caller returns. CommitEntries lists the commits of a pack's commit region (git writes
// commits and tags before trees and blobs) in pack order without inflating them (an entry's type is in its first
// byte), for a walk that inflates them on every core; pack order comes from the .rev file when git wrote one,
// else from the index's offsets, and the trees and blobs after the region are never touched.
//
// # Commit-graph (gitformat-commit-graph)
//
// OpenCommitGraph reads objects/info/commit-graph, else the layers objects/info/commit-graphs/commit-graph-chain
// lists (graph-<hash>.graph, base first). Each layer must be version 1 with SHA-1 ids and have the OIDF, OIDL and
// CDAT chunks (EDGE when a commit has more than two parents); positions number the commits of all layers, base
// first. For a position it gives the id, the parent positions and the committer time (34 bits); a walk then
// never reads the commit objects the graph covers. When the file is absent or any layer is malformed there is
// no graph, and walks read commit objects instead, which is always right.
//
// # Mapped memory
//
// Packs, version 2 indexes and commit-graph layers are mapped read-only (mmap, MAP_SHARED) on unix systems, so an
// entry is a slice of the file with no read call per object; elsewhere they are read into memory. They stay
// mapped until Close, which for gitext is the end of the command.
//
// ParseCommitHeader reads what a walk needs of a raw commit: the parent lines, the committer time and the
// message after the first blank line.
package odb
