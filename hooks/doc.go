// Package hooks installs, removes and reports git-bernstein's git hooks without hurting anyone else's: it finds
// the hooks folder the way git does, never overwrites a hook it did not write (it moves it aside and calls it
// first), installs idempotently and uninstalls exactly, putting the original back byte for byte.
//
// # Public API
//
// hooks and gitext are the module's public API: the only packages outside internal/, so other Go programs may
// import them, and their exported names change only on purpose (say so in the release notes). hooks reads git
// through gitext only (Folder is gitext's HooksFolder, found by gitext.Repo.HooksFolder):
//
//   - Install(folder, name, force) writes our hook, moving a foreign one aside to be called first;
//   - Uninstall(folder, name) removes ours and puts the original back;
//   - Inspect(folder, name) says what is there (Status, Describe) without changing anything;
//   - Script(name) is the hook we write, and IsOurs tells it from anyone else's.
package hooks
