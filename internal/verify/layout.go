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
	tree  pathTree
	files map[string]int // member name → member number
}

func newMemberTree() *memberTree {
	return &memberTree{tree: newPathTree(), files: map[string]int{}}
}

// add checks member n named name (already a safe name, and not a duplicate) and records it.
func (t *memberTree) add(n int, name string) *archiveFailure {
	if top := manifest.TopFolder(name); !manifest.IsSection(top) {
		return refuse("member %d %.200q is not inside a section's folder (%s): no bundle writer makes one", n, name, sectionList)
	}
	switch other, clash := t.tree.add(name, name); clash {
	case fileAboveName:
		return refuse("member %d %.200q is inside member %d %.200q as a folder, but that member is a file: a file system holds only one of them "+
			"(GNU tar and Python's tarfile each lose one); no bundle has both", n, name, t.files[other], other)
	case nameAboveFile:
		return refuse("member %d %.200q is a file, but member %d %.200q is inside it as a folder: a file system holds only one of them "+
			"(GNU tar and Python's tarfile each lose one); no bundle has both", n, name, t.files[other], other)
	}
	t.files[name] = n
	return nil
}

// pathTree records slash-separated keys part by part, a map look-up per part, so that a name costs its length
// once, not a hash of each of its prefixes (a name has up to MaxNameDepth parts and MaxNameLength bytes).
type pathTree struct {
	edges map[pathEdge]int32 // (folder, part) → node
	nodes []pathNode         // nodes[0] is the root folder
}

type pathEdge struct {
	parent int32
	part   string
}

// pathNode is a file (the name recorded there) or a folder (file "": the first name recorded below it).
type pathNode struct {
	file, inside string
}

type pathClash int

const (
	noClash       pathClash = iota
	fileAboveName           // a recorded file is a folder of the new name
	nameAboveFile           // the new name is a folder of a recorded name
)

func newPathTree() pathTree { return pathTree{edges: map[pathEdge]int32{}, nodes: []pathNode{{}}} }

// add records name under key (name itself, or its folded form) and returns the recorded name it clashes with, if
// any: a file on key's way, or a name below key. A key recorded before as a file is no clash here.
func (t *pathTree) add(key, name string) (string, pathClash) {
	cur := int32(0)
	for {
		i := strings.IndexByte(key, '/')
		if i < 0 {
			break
		}
		e := pathEdge{cur, key[:i]}
		id, ok := t.edges[e]
		if !ok {
			id = int32(len(t.nodes))
			t.nodes = append(t.nodes, pathNode{inside: name})
			t.edges[e] = id
		} else if f := t.nodes[id].file; f != "" {
			return f, fileAboveName
		}
		cur, key = id, key[i+1:]
	}
	e := pathEdge{cur, key}
	if id, ok := t.edges[e]; ok {
		if t.nodes[id].file == "" {
			return t.nodes[id].inside, nameAboveFile
		}
		return "", noClash
	}
	t.edges[e] = int32(len(t.nodes))
	t.nodes = append(t.nodes, pathNode{file: name})
	return "", noClash
}
