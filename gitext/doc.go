// Package gitext holds everything that reads or writes git: finding the repository the way git does, reading
// configuration, walking history, refs and trailers; with gitext/objstore, notes and write-once trees.
//
// # Public API
//
// gitext and hooks are the module's public API: the only packages outside internal/, so other Go programs may
// import them, and their exported names change only on purpose (say so in the release notes). Inside the module
// gitext is the one door to git: no package outside gitext/ imports go-git (TestOnlyGitextImportsGoGit), and
// gitext's exported functions, methods and types are spelled in its own types (TestAPISpeaksGitext), so what
// reads git underneath (go-git, our pack readers in gitext/internal/odb, the user's git for promisor fetches)
// is gitext's business alone.
//
// # Types at the door
//
// Commit, Signature, TreeEntry, FileMode and the rest are gitext's own, copied out of go-git's
// values where they are read. Hash (an object id, [20]byte), RefName (a full ref name, a string) and ObjectType
// are aliases of go-git's value types, declared and justified in ids.go: every object read inside gitext keys
// by them, and callers spell them gitext.Hash, gitext.RefName, gitext.ParseHash, gitext.BranchRef.
//
// # What a Repo offers
//
// Discover opens the repository around a folder as git finds it (GIT_DIR, GIT_WORK_TREE, .git files, bare
// repositories); options (WithProgress, WithNotice, WithConfigCache) are given there, not set afterwards. Top is where a
// project's own files are looked for: the working tree's top, or a bare repository's git folder.
//
//   - revisions and objects: Commit and ReadCommit, MergeBase (as `git merge-base
//     --all`, walked on gitext's own reader and the commit-graph), ReadObject, NewAbbrev (ids shortened as git
//     prints them);
//   - refs: HistoryTips, CurrentBranch, ResolveBranch, BaseBranch, Reflog, Remotes, RangeOf (a
//     REV-RANGE, its revisions read by the caller's resolver: gitext/revparse);
//     a shallow clone's boundary: IsShallow, ShallowCommits;
//   - configuration: Configuration and Config (as `git config` sees it, includes and `git -c` too), UserConfig,
//     TrailerOptions, HooksFolder, ExcludeLocally;
//   - history: Walk, WalkFrom and WalkWith read every commit reachable from some tips once, on every core, into
//     a Graph that then answers ancestry without reading objects again: Index, Reachable, Exclusive,
//     ContainedBy, TopoOrder, and Len, Node, Rank and Gen to read it; NewGraph rebuilds one kept elsewhere.
//     ReadWalkCommit(s) read messages for nodes of a graph.
//
// gitext reads refs (loose files, packed-refs, symbolic refs), objects (packs and loose objects, package odb) and
// commits itself, and makes no go-git storage: the front (package front), which answers `git bernstein commits`
// on every run, links gitext, and go-git's storage, object and config packages would cost it their start-up
// (OpenPGP, a diff library, regular expressions, encoding/gob). Trees, blobs, notes and everything that writes
// are gitext/objstore's, on go-git's storage.
//
// ParseTrailers reads a message's trailers as `git interpret-trailers --parse` does.
//
// # The configuration cache
//
// WithConfigCache keeps `git config`'s answer for the keys its caller reads in <git dir>/bernstein/config-cache
// (this worktree's git folder), so that a run whose configuration has not changed starts no git. The file,
// mode 0600, written atomically:
//
//	bernstein config cache 1
//	file <absolute path>          one line for each file git reads or would read if it existed
//	…
//	sum <64 hex digits>
//	<empty line>
//	<key>\n<value>\0 …            the kept keys (normalised), in git's order, as `git config --null --list`
//	end <64 hex digits>           SHA-256 of every byte before this line
//
// The files are the system file (where `git config --system --edit` says it is, asked with echo as the
// editor), the global ones (GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config and ~/.gitconfig), the
// repository's config and this worktree's config.worktree, missing or not. sum is the SHA-256 of the git
// executable's path and stat, the repository's folders, what git config reads from the environment (HOME,
// XDG_CONFIG_HOME, PATH, GIT_CONFIG_NOSYSTEM, GIT_CONFIG_SYSTEM, GIT_CONFIG_GLOBAL, GIT_CONFIG_PARAMETERS and the
// GIT_CONFIG_COUNT pairs) and each file's stat: device, inode, mode, owner, size, modification and change
// time, or "absent" (/dev/null, GIT_CONFIG_GLOBAL's usual "no file", is read as empty and its stat does not
// change). A run reads the cache without following a symlink, as a regular file of at most 1 MiB, checks end,
// stats the files and recomputes sum; on any difference it asks git, answers with git's whole configuration,
// and writes the cache anew on the side (Repo.WaitConfigCache waits for that write).
//
// What a stat cannot see is never cached: an [include] or [includeIf] (the word include anywhere in a file, or
// in GIT_CONFIG_PARAMETERS or a GIT_CONFIG_KEY_n), since the included file and its condition (the branch, the
// folder, a remote) go unwatched; a file changed within the last two seconds, which could change again in the
// same timestamp tick with the same size (the change time, which no one can set back, is in the stat); a kept
// remote URL with a user or password in it (a copy of a credential). Only Linux and macOS cache (the change
// time and inode are read there). The cache is as trustworthy as .git/config: whoever can write one can write
// the other.
//
// # Sub-packages
//
// gitext/patch writes commits as a `git format-patch` series and computes `git patch-id --stable` (PatchID);
// gitext/patch/apply reads a series as `git am` does and applies it in memory; gitext/patch/patchcmp compares
// our parts with git's. gitext/revparse reads revisions as `git rev-parse` does (Resolve, ResolveRange) through
// go-git's revision parser, which comes only with go-git's Repository: gitext itself makes none, since that
// package links every transport and OpenPGP, whose start-up every run of the `commits` front would pay.
// gitext/objstore reads and writes through go-git's storage of a Repo: TreeEntries, TreeEntryAt, TreeFiles,
// CheckTree (bounded, for trees from elsewhere), DiffTree, BlobSize, ReadBlobMax, RefCommit; notes (Notes, Note,
// ReadNote, EditNote, NotesMerge); writing (WriteBlob, AddFiles and MergeRef, a commit on a ref by
// compare-and-swap, UnionTrees). Its WithGoGit, given to Discover, lets gitext read through that storage what its
// own readers leave (an alternate's objects, refs behind a symbolic link); git-bernstein-full gives it.
// gitext/internal/odb reads packs, loose objects and the commit-graph; gitext/internal/backend hands a Repo's
// folders and readers to gitext's own sub-packages (Repo.Backend) and, Go's internal/ rule seeing to it, to no
// one else.
package gitext
