package gitext

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Tip is a ref that history starts from, resolved to a commit.
type Tip struct {
	Name   plumbing.ReferenceName
	Commit plumbing.Hash
}

// HistoryTips returns the refs whose history counts as the repository's history: HEAD, local and
// remote-tracking branches and tags (peeled to commits). Notes and the stash are not history: go-git's
// Log(All) walks them too, which would tie a notes commit or a stash to a ticket.
func (r *Repo) HistoryTips() ([]Tip, error) {
	var tips []Tip
	if head, err := r.Head(); err == nil {
		tips = append(tips, Tip{Name: plumbing.HEAD, Commit: head.Hash()})
	} else if !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	iter, err := r.References()
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name()
		if !name.IsBranch() && !name.IsRemote() && !name.IsTag() {
			return nil
		}
		if ref.Type() == plumbing.SymbolicReference {
			return nil // origin/HEAD and friends point at a branch we list anyway
		}
		h, ok, err := r.peelToCommit(ref.Hash())
		if err != nil {
			return fmt.Errorf("ref %s: %w", name, err)
		}
		if ok {
			tips = append(tips, Tip{Name: name, Commit: h})
		}
		return nil
	})
	return tips, err
}

// peelToCommit follows annotated tags to the commit they name; ok is false for tags of trees or blobs.
func (r *Repo) peelToCommit(h plumbing.Hash) (plumbing.Hash, bool, error) {
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
			obj := &plumbing.MemoryObject{}
			obj.SetType(plumbing.TagObject)
			obj.Write(data)
			tag, err := object.DecodeTag(r.Storer, obj)
			if err != nil {
				return h, false, fmt.Errorf("tag object %s is corrupt: %w", h, err)
			}
			h = tag.Target
		default:
			return h, false, nil
		}
	}
	return h, false, fmt.Errorf("tag %s: too many nested tags", h)
}

// ResolveBranch finds a branch by short name: a local branch, else a remote-tracking one (origin/main).
func (r *Repo) ResolveBranch(name string) (plumbing.ReferenceName, plumbing.Hash, bool) {
	for _, full := range []plumbing.ReferenceName{
		plumbing.ReferenceName(name),
		plumbing.NewBranchReferenceName(name),
		plumbing.ReferenceName("refs/remotes/" + name),
	} {
		if !strings.HasPrefix(full.String(), "refs/") {
			continue
		}
		ref, err := r.Reference(full, true)
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
func (r *Repo) BaseBranch(configured string) (plumbing.ReferenceName, plumbing.Hash, bool) {
	if configured != "" {
		return r.ResolveBranch(configured)
	}
	if ref, err := r.Reference("refs/remotes/origin/HEAD", false); err == nil && ref.Type() == plumbing.SymbolicReference {
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
