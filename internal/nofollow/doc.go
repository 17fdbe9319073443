// Package nofollow reads a folder tree that someone else may write (the agents' .sdd folder) without ever
// following a symbolic link inside it, and without any check-then-open race.
//
// A Dir is an open folder descriptor. Everything beneath it is reached through that descriptor, one path
// component at a time, each opened with O_NOFOLLOW (on Linux first with openat2 and RESOLVE_NO_SYMLINKS |
// RESOLVE_BENEATH, which does the same walk in the kernel in one call): a symlink anywhere below the Dir, put
// there before or during the walk, is refused with ErrSymlink instead of being followed. Only the path given to
// OpenDir up to its last component is resolved as usual: that part is the caller's choice (a worktree under a
// symlinked home folder is fine), while the last component (.sdd itself) must not be a symlink either.
//
// Files are opened without blocking (a FIFO never waits for a writer) and must be regular files, checked on the
// descriptor (regularfile's rule). Reopen opens a file again and checks that it is the very file (same device
// and inode) that was opened first, so a file chosen once and read again later cannot be swapped in between.
//
// OpenAppend (append.go) is the writing side for a log of ours in a folder others can write (the post-merge
// hook's .git/bernstein/hook.log): appended to only when the name is a regular file with one name, never
// through a symlink, never waiting on a FIFO.
package nofollow
