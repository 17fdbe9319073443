// Package apply reads a `git format-patch --stdout` series the way `git am` reads it and applies its parts in
// memory, to check that each part turns its commit's parent tree into the commit's tree (verify --repo).
// Nothing is written: no index, no worktree, no object.
//
// # Reading: what git reads, in the shape format-patch writes
//
// A part is checked for what git would do with it, so the reader follows git's own (mailsplit, mailinfo.c,
// apply.c), and anything git would take as a patch that is not one of the part's "diff --git" sections is an
// error naming its line (Part.Err):
//   - parts start at "From <id> Mon Sep 17 00:00:00 2001", and no other line git mailsplit would cut a mail at
//     (mailsplit.c is_from_line) may stand in one; the mail header ends as mailinfo ends it (an empty line, or
//     a line that is no header line, which starts the message), a transfer encoding mailinfo would decode is an
//     error, and the message ends at mailinfo's patch break ("---", "--- NAME", "diff -", "Index: ");
//   - from the break on, `git apply` reads every line (find_header): a "diff --git" line starts a section; a
//     "--- " line followed by "+++ " and "@@ -" starts a traditional diff, which git applies wherever it stands
//     (after the last section, after the signature, in the diffstat); a lone "@@ -a,b +c,d @@" is an error to
//     git; and `git apply` given the whole mail reads the header and message that way too. So before the
//     first section nothing may be such a start; the sections must follow one another with nothing between
//     them; after the last one come the signature "-- ", one line that is no start, and at most two empty
//     lines. "diff --cc" (combined diffs, which git apply does not take) is named as such;
//   - a section is read in the order git's diff.c writes it, each extended header line at most once: names from
//     the "diff --git" line, replaced by "rename/copy from/to" and the "---"/"+++" lines (which must agree),
//     C-quoted or plain, a tab ending a name with a space, /dev/null for a missing side; the "diff --git" line's
//     two names are one file's, or a rename's or copy's two (git takes no name from it otherwise);
//     "old mode"/"new mode" (together), "new file mode", "deleted file mode", similarity lines (with
//     rename/copy from/to), "index OLD..NEW [MODE]"; a section must change something (apply.c
//     metadata_changes: a hunk, a binary patch, a creation, deletion, rename, copy or mode change), and a
//     "diff --git" line with nothing after it (git skips it) is an error;
//   - a binary patch's reverse hunk must give back the parent's file, and a deletion's hunk must remove
//     exactly its content, as git apply checks them;
//   - text hunks are read by their counts (apply.c parse_fragment): every line ends in "\n" and starts with ' ',
//     '-', '+' or is empty (an empty context line, as git takes it); "\ No newline at end of file" may follow a
//     line; a hunk that changes nothing is an error, as to git. Hunks keep their bytes as a slice of the series
//     (one struct a hunk, not a line), and lines are walked with a cursor, never cut up first: a part of 96 MiB
//     of newlines costs no memory beyond the series;
//   - `GIT binary patch` forward and reverse hunks, literal or delta (base85 lines of git's alphabet, zlib, the
//     delta format of pack-format(5)); git refuses a binary patch without a full index line, and so do we.
//     "Binary files … differ" carries no data and cannot be applied.
//
// Two sections that write one path are not a reading error: CheckTrees fails them, since every section of a
// tree diff is relative to the parent, and `git am` would apply the second on top of the first (a deletion
// then a creation, git's way of showing a file turned symlink, is one change).
//
// # Applying: strict, and bounded by the commit
//
// Applying is strict where `git apply` is lenient: a hunk must apply exactly at its line numbers, with every
// context and removed line byte for byte; no offsets, no fuzz, no whitespace fixes. A part is checked against
// the very tree it was made from, so any leniency would only hide a mismatch. The index line's ids, when
// present, must name the parent's blob and the blob the part produces. A gitlink's content is
// "Subproject commit <id>" as git shows it. A binary patch's reverse hunk must give back the parent's file:
// at a corrupt one git apply stops reading and applies only the sections before it, with exit status 0.
//
// Every size a patch states is held to the commit's own file before anything is allocated: a literal's length
// must be the file's size, a delta's target size too, a delta's own length at most 8 bytes a byte of old and
// new content, and a text hunk's output stops with an error as soon as it passes the file's size. So a part
// can make the check allocate no more than the repository holds, whatever it claims (a delta stating a 16 GiB
// target, a literal stating 2^40 bytes). MaxFileSize (128 MiB) is the budget for a legitimate file: a section
// whose file is larger is not applied, and CheckTrees lists it as unjudged (ErrOverBudget) for the caller to
// report as unverifiable.
package apply
