// Package patch writes commits as a `git format-patch --stdout` series without running git, so that a ticket
// bundle carries patches that `git apply --index` and `git am` turn back into the very same trees (each part
// on its commit's first parent; the series in one `git am` run only along a straight line of commits), and that
// read, byte for byte, as git's own: each part is what `git format-patch --full-index --stdout -1 C` writes
// (git 2.39), but for the signature after "-- " and the deflated bytes of binary hunks (Go's zlib is not
// zlib; the hunks inflate to the same data). patchcmp holds that comparison; the tests run it against the git
// CLI and `make bench` reports the share on generated and real histories.
//
// # The rules followed, in the order a part is made
//
// Tree diff. A commit is diffed against its first parent (the empty tree for a root). Only subtrees whose ids
// differ are read. The queue of file pairs is in path order, a deletion before a creation at the same path;
// trees' old modes (100664) print as 100644/100755 (canon_mode).
//
// Settings (settings.go) come from the configuration as the user's git reads it (gitext.Repo.Configuration:
// `git config --list`, includes and `git -c` too), with the run's HOME and XDG_CONFIG_HOME for core.attributesFile.
//
// Renames and copies (renames.go; diffcore-rename.c). `diff.renames`: on by default (-M), "copies" adds -C
// (modified files are sources too), false turns detection off. Additions are destinations, deletions sources.
// First exact renames: the same blob (and, unless both are regular files, the same mode), preferring an
// unused source, then one with the same file name. Then sources and destinations whose file name no other
// remaining one shares are paired when at least 75% similar (only with -M). Then each remaining destination
// keeps its four best sources by score, then same-file-name; all candidates are stable-sorted and taken
// greedily down to 50% (DEFAULT_RENAME_SCORE), a source renamed once only under -M. With more than
// `diff.renameLimit`² (1000²) candidate pairs the inexact steps are skipped, as git does. Similarity is
// diffcore-delta.c's: both files cut after each "\n" or 64 bytes (CR before LF skipped in text), each chunk
// hashed into 107927 buckets, and the bytes common to both counted against the larger size; a size difference
// alone can rule a pair out. A source used by several destinations is a copy for all but the last in queue
// order; a deleted source that was renamed leaves the queue. The header shows `similarity index N%` (score ×
// 100 / 60000, rounded down) and `rename from`/`rename to` or `copy from`/`copy to`.
//
// Diff drivers (driver.go, attr.go; userdiff.c, attr.c). A regular file's `diff` attribute is looked up in
// $GIT_DIR/info/attributes, then the .gitattributes of its own folder and each parent up to the top (read from
// the worktree, as git does in a non-bare repository), then core.attributesFile; within a file the last
// matching line wins. Patterns without "/" match the file name, others the path from that file's folder
// ("**" spans folders). `diff` set means text, `-diff` and the `binary` macro binary, `diff=NAME` the driver
// NAME: `diff.NAME.xfuncname` (or the basic-regex `funcname`) and `diff.NAME.binary` from the config, else git's
// built-in driver of that name (userdiff_builtin.go, generated from userdiff.c: ada, bash, bibtex, cpp, csharp,
// css, dts, elixir, fortran, fountain, golang, html, java, kotlin, markdown, matlab, objc, pascal, perl, php,
// python, ruby, rust, scheme, tex), else the default. The old side's driver gives the function line, else the
// new side's.
//
// Binary or text. A side is binary when its driver says so, else when its first 8000 bytes hold a NUL.
// Binary pairs get `GIT binary patch` with a forward and a reverse hunk; each is a delta (diff-delta.c's
// Rabin-window matcher, ported in delta.go) when both sides are non-empty and its deflated form is smaller than
// the deflated new content, else a literal. Both are deflated at level 1 and cut into base85 lines of 52 bytes.
// Binary sides with equal content print no hunk.
//
// Line diff (xdiff.go; xprepare.c, xdiffi.c). git's default Myers: equal lines at both ends trimmed, lines
// with no match on the other side (and runs of lines with very many) left out of the search, the middle-snake
// search with its cost limit (sqrt of the size, at least 256) and snake heuristic, then xdl_change_compact
// slides each group of changes as far down as it can, joins neighbouring groups, lines it up with the other
// side's changes where possible, and otherwise places it with the indent heuristic (diff.indentHeuristic, on
// by default: blank lines and indentation around both ends of the group, within 100 lines).
//
// Hunks (hunks.go; xemit.c). Three lines of context; changes at most six unchanged lines apart share a hunk.
// "@@ -a,b +c,d @@": a count of 1 is left out, an empty side names the line before it. The function line is
// the nearest line above the hunk's first line that the driver's expressions match (first capture group, else
// the whole match; a "!" expression vetoes), or for the default driver that starts with a letter, "_" or "$";
// the search stops where the previous hunk's began and the last name found is kept; the name is cut to 80
// bytes and trailing blanks dropped. Context lines come from the new side. A last line without "\n" is
// followed by "\ No newline at end of file".
//
// File headers (filepair.go; diff.c builtin_diff). `diff --git a/X b/Y` with git's C quoting when a path needs
// it; `new file mode`, `deleted file mode`, or `old mode`/`new mode`, then the similarity lines; `index` with
// full ids and the mode when unchanged, left out when the blob is unchanged; `--- a/X` and `+++ b/Y` (/dev/null
// for a missing side, a tab after a name with a space). A change between file, symlink and gitlink is a
// deletion and a creation; a gitlink's content is "Subproject commit <id>".
//
// Diffstat and summary (diffstat.go; diff.c show_stats, diff_summary). Under "---": one line a pair at a total
// width of 72 (format-patch's MAIL_DEFAULT_WRAP): renames as "pfx{old => new}sfx", names cut from the left to
// ".../rest" when too wide, the count right-aligned and the +/- graph scaled when it does not fit; binaries as
// "Bin OLD -> NEW bytes" (or just "Bin" when unchanged); then "N files changed, I insertions(+), D
// deletions(-)" (binaries count as files, not lines), the summary lines (create/delete mode, rename/copy with
// the similarity, mode change) and a blank line before the first diff.
//
// Mail header (mailheader.go, message.go; pretty.c). "From <id> Mon Sep 17 00:00:00 2001", From with RFC 2047
// or RFC 822 quoting, the author date, "Subject: [PATCH i/n]" folded as git folds it, MIME headers when the
// message is not ASCII, the body with trailing blanks trimmed. Parts are separated by an empty line, and end in
// "-- \ngit-bernstein <version>" where git writes its own version.
//
// Checking a part. Differ.Part writes one commit's part, cut after its "---" line, without the signature:
// `verify --repo` (internal/repocheck) holds a bundle's part to it byte for byte, binary hunks by their data.
//
// Patch ids. PatchID (patchid.go) is `git patch-id --stable` of a Differ's diff, as `commits --json` reports it
// (internal/discover); its doc comment lists git's rules.
//
// Not done: break detection (-B, off in format-patch), textconv (off in format-patch), whitespace options,
// `diff.algorithm` other than myers, core.quotePath=false (names are always quoted as by default), attributes
// from the index when the worktree lacks a .gitattributes, and `[attr]` macros other than `binary`.
package patch
