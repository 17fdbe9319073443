// Package apply reads a `git format-patch --stdout` series and applies its parts in memory, to check that each
// part turns its commit's parent tree into the commit's tree (verify --repo). Nothing is written: no index, no
// worktree, no object.
//
// It reads what package patch writes and what git writes (apply.c's git diff format):
//   - parts start at "From <id> Mon Sep 17 00:00:00 2001"; a part's message ends at git mailinfo's patch break
//     ("---", "--- NAME", "diff -", "Index: "), and every "diff --git" section after it is read;
//   - names from the "diff --git" line, replaced by "rename/copy from/to" and the "---"/"+++" lines (which must
//     agree), C-quoted or plain, a tab ending a name with a space, /dev/null for a missing side;
//   - "old mode"/"new mode", "new file mode", "deleted file mode", similarity lines, "index OLD..NEW [MODE]";
//   - text hunks read by their counts, "\ No newline at end of file" after a line;
//   - `GIT binary patch` forward hunks, literal or delta (base85 lines of git's alphabet, zlib, the delta format
//     of pack-format(5)); the reverse hunk is read and not used. "Binary files … differ" carries no data and
//     cannot be applied.
//
// Applying is strict where `git apply` is lenient: a hunk must apply exactly at its line numbers, with every
// context and removed line byte for byte; no offsets, no fuzz, no whitespace fixes. A part is checked against
// the very tree it was made from, so any leniency would only hide a mismatch. The index line's ids, when
// present, must name the parent's blob and the blob the part produces. A gitlink's content is
// "Subproject commit <id>" as git shows it.
package apply
