package verify

import (
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// The layout rules (doc.go, "Archive shape", Names) that need more than one name at a time: every member sits
// in the folder of a section the bundle format defines, the manifest's sections are those folders, and no name
// is a folder of another.

// sectionList is the defined sections as messages print them.
var sectionList = strings.Join(manifest.Sections, ", ")

// checkManifestSections holds each entry of the manifest (read from the archive's first member, before any other
// member streams by) to the layout: its section is one the format defines and its arcname sits in that
// section's folder. An arcname elsewhere (".git/config" listed in section "git") is refused before it is read.
func checkManifestSections(m *manifest.Manifest) *archiveFailure {
	for _, e := range m.Files {
		if !manifest.IsSection(e.Section) {
			return refuse("the manifest lists %.200q in section %.100q, which is not a bundle section (%s): no bundle writer makes one", e.Arcname, e.Section, sectionList)
		}
		if top := manifest.TopFolder(e.Arcname); top != e.Section {
			return refuse("the manifest lists %.200q in section %q, but its top folder is %.100q: every member sits in its section's folder", e.Arcname, e.Section, top)
		}
	}
	return nil
}

// memberTree refuses a member that cannot be extracted beside the others: one outside every section's folder,
// and one whose name is a folder of another member's (transcripts/a and transcripts/a/b: a file system holds
// only one of the two, and GNU tar and Python's tarfile each silently lose one, issue 25, 13).
type memberTree struct {
	files map[string]int    // member name → member number
	dirs  map[string]string // folder → the first member inside it
}

func newMemberTree() *memberTree {
	return &memberTree{files: map[string]int{}, dirs: map[string]string{}}
}

// add checks member n named name (already a safe name, and not a duplicate) and records it. Names are at most
// MaxNameDepth parts, so this is a bounded number of map look-ups per member.
func (t *memberTree) add(n int, name string) *archiveFailure {
	if top := manifest.TopFolder(name); !manifest.IsSection(top) {
		return refuse("member %d %.200q is not inside a section's folder (%s): no bundle writer makes one", n, name, sectionList)
	}
	if inside, ok := t.dirs[name]; ok {
		return refuse("member %d %.200q is a file, but member %d %.200q is inside it as a folder: a file system holds only one of them "+
			"(GNU tar and Python's tarfile each lose one); no bundle has both", n, name, t.files[inside], inside)
	}
	for i := strings.IndexByte(name, '/'); i >= 0; i = next(name, i) {
		if m, ok := t.files[name[:i]]; ok {
			return refuse("member %d %.200q is inside member %d %.200q as a folder, but that member is a file: a file system holds only one of them "+
				"(GNU tar and Python's tarfile each lose one); no bundle has both", n, name, m, name[:i])
		}
	}
	t.files[name] = n
	for i := strings.IndexByte(name, '/'); i >= 0; i = next(name, i) {
		if _, ok := t.dirs[name[:i]]; !ok {
			t.dirs[name[:i]] = name
		}
	}
	return nil
}

// next is the index of the next "/" in name after i, or -1.
func next(name string, i int) int {
	j := strings.IndexByte(name[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
