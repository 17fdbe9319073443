package gitext

import "github.com/go-git/go-git/v5/plumbing/filemode"

// FileMode is a tree entry's mode, as git writes it in a tree (octal 100644 and so on).
type FileMode uint32

// The modes git writes in trees (Deprecated is the group-writable 100664 of very old repositories).
const (
	ModeDir        = FileMode(filemode.Dir)
	ModeRegular    = FileMode(filemode.Regular)
	ModeDeprecated = FileMode(filemode.Deprecated)
	ModeExecutable = FileMode(filemode.Executable)
	ModeSymlink    = FileMode(filemode.Symlink)
	ModeSubmodule  = FileMode(filemode.Submodule)
)

// TreeEntry is one entry of a tree: a name (no slash), its mode and the object it names.
type TreeEntry struct {
	Name string
	Mode FileMode
	Hash Hash
}

// String is the mode as git writes it in a tree listing, seven octal digits (0100644), as go-git prints it.
func (m FileMode) String() string { return filemode.FileMode(m).String() }
