package gitext

import (
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/parallel"
)

// Tip is a ref that history starts from, resolved to a commit.
type Tip struct {
	Name   RefName
	Commit Hash
}

// HistoryTips returns the refs whose history counts as the repository's history: HEAD, local and
// remote-tracking branches and tags (peeled to commits). Notes and the stash are not history: go-git's
// Log(All) walks them too, which would tie a notes commit or a stash to a ticket.
//
// Peeling a ref reads its object only when the commit-graph does not list it (a commit-graph holds commits
// alone): a repository with hundreds of review branches and tags otherwise inflates hundreds of commits just to
// learn that they are commits. Those that must be read are read on every core.
func (r *Repo) HistoryTips() ([]Tip, error) {
	var tips, refs []Tip
	if head, err := r.resolveRef(plumbing.HEAD); err == nil {
		tips = append(tips, Tip{Name: plumbing.HEAD, Commit: head.Hash()})
	} else if !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	listed, ok := r.listRefs()
	if !ok {
		var err error
		if listed, err = r.goGitRefs(); err != nil {
			return nil, err
		}
	}
	for _, l := range listed {
		if l.symbolic {
			continue // origin/HEAD and friends point at a branch we list anyway
		}
		// What packed-refs says an annotated tag peels to spares reading the tag object, when the commit-graph
		// then says it is a commit; otherwise the object is read and peeled below, as any other.
		t := Tip{Name: l.name, Commit: l.id}
		if !l.peeled.IsZero() {
			t.Commit = l.peeled
		}
		refs = append(refs, t)
	}
	peeled := make([]bool, len(refs))
	var read []int // refs whose object must be read
	cg := r.graphFile()
	for k, t := range refs {
		if cg != nil {
			if _, ok := cg.Find(t.Commit); ok {
				peeled[k] = true
				continue
			}
		}
		read = append(read, k)
	}
	errs := make([]error, len(refs))
	// A few refs are not worth a goroutine.
	parallel.Each(len(read), min(runtime.GOMAXPROCS(0), 1+len(read)/32), func(_, j int) {
		k := read[j]
		h, ok, err := r.peelToCommit(refs[k].Commit)
		refs[k].Commit, peeled[k], errs[k] = h, ok, err
	})
	for k, t := range refs {
		if errs[k] != nil {
			return nil, fmt.Errorf("ref %s: %w", t.Name, errs[k])
		}
		if peeled[k] {
			tips = append(tips, t)
		}
	}
	return tips, nil
}

// errRefsLeft is goGitRefs' error when no go-git storage is attached to read what listRefs leaves.
var errRefsLeft = errors.New("the refs folder holds what gitext does not read itself (a link or an odd file): " +
	"open the repository with gitext/objstore's WithGoGit to read it through go-git")

// goGitRefs lists the history refs through go-git's storage (attached by gitext/objstore), for repositories
// listRefs leaves to it; without that storage it fails, and Unreadable says why.
func (r *Repo) goGitRefs() ([]listedRef, error) {
	if r.be.Refs == nil {
		err := fmt.Errorf("list refs: %w", errRefsLeft)
		r.leftUnread(err)
		return nil, err
	}
	all, err := r.be.Refs()
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	var refs []listedRef
	for _, ref := range all {
		if isHistoryRef(ref.Name()) {
			refs = append(refs, listedRef{name: ref.Name(), id: ref.Hash(),
				symbolic: ref.Type() == plumbing.SymbolicReference})
		}
	}
	return refs, nil
}

// peelToCommit follows annotated tags to the commit they name; ok is false for tags of trees or blobs.
func (r *Repo) peelToCommit(h Hash) (Hash, bool, error) {
	pr, err := r.packs()
	if err != nil {
		return h, false, err
	}
	for depth := 0; depth < 16; depth++ {
		typ, data, err := pr.RawObject(h)
		if err != nil {
			return h, false, fmt.Errorf("object %s: %w", h, err)
		}
		switch typ {
		case plumbing.CommitObject:
			return h, true, nil
		case plumbing.TagObject:
			// A tag object starts "object <id>" (git's parse_tag_buffer requires it first): that line is all a
			// peel needs. Decoding the whole tag with go-git was a sixth of a warm commits on Kafka's 253 tags.
			if len(data) > 48 && string(data[:7]) == "object " && data[47] == '\n' {
				if target, ok := parseHexID(data[7:47]); ok {
					h = target
					continue
				}
			}
			target, err := tagTarget(data)
			if err != nil {
				return h, false, fmt.Errorf("tag object %s is corrupt: %w", h, err)
			}
			h = target
		default:
			return h, false, nil
		}
	}
	return h, false, fmt.Errorf("tag %s: too many nested tags", h)
}

// ResolveBranch finds a branch by short name: a local branch, else a remote-tracking one (origin/main).
func (r *Repo) ResolveBranch(name string) (RefName, Hash, bool) {
	for _, full := range []plumbing.ReferenceName{
		plumbing.ReferenceName(name),
		plumbing.NewBranchReferenceName(name),
		plumbing.ReferenceName("refs/remotes/" + name),
	} {
		if !strings.HasPrefix(full.String(), "refs/") {
			continue
		}
		ref, err := r.resolveRef(full)
		if err != nil {
			continue
		}
		if h, ok, err := r.peelToCommit(ref.Hash()); err == nil && ok {
			return full, h, true
		}
	}
	return "", plumbing.ZeroHash, false
}

// BaseBranch picks the branch that ticket branches are compared against: configured, else what origin/HEAD
// points to, else main, else master. ok is false when none exists.
func (r *Repo) BaseBranch(configured string) (RefName, Hash, bool) {
	if configured != "" {
		return r.ResolveBranch(configured)
	}
	if ref, err := r.reference("refs/remotes/origin/HEAD"); err == nil && ref.Type() == plumbing.SymbolicReference {
		if name, h, ok := r.ResolveBranch(ref.Target().String()); ok {
			return name, h, true
		}
	}
	for _, b := range []string{"main", "master"} {
		if name, h, ok := r.ResolveBranch("refs/heads/" + b); ok {
			return name, h, true
		}
	}
	return "", plumbing.ZeroHash, false
}

// parseHexID reads a full hexadecimal object id.
func parseHexID(b []byte) (Hash, bool) {
	var h plumbing.Hash
	if len(b) != 2*len(h) {
		return h, false
	}
	_, err := hex.Decode(h[:], b)
	return h, err == nil
}

// CurrentBranch is the local branch HEAD points to; ok is false when HEAD is detached or unreadable.
func (r *Repo) CurrentBranch() (branch RefName, ok bool) {
	head, err := r.reference(plumbing.HEAD)
	if err != nil || head.Type() != plumbing.SymbolicReference || !head.Target().IsBranch() {
		return "", false
	}
	return head.Target(), true
}
