// Package revparse reads revisions as `git rev-parse` does (a full or abbreviated id, a ref or branch name,
// HEAD, ORIG_HEAD, rev~n, rev^n; an annotated tag is peeled; rev^{tree} and rev:path are not supported) and
// ranges of them (A..B, REV), through go-git's revision parser. It is apart from gitext because that parser
// comes only with go-git's Repository, whose package links every transport (HTTP, SSH) and OpenPGP: the front
// (package front), which never reads a revision, does not pay their start-up on every run.
package revparse

import (
	"fmt"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/internal/backend"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
)

// Resolve returns the commit rev names in r.
func Resolve(r *gitext.Repo, rev string) (gitext.Hash, error) {
	b := r.Backend(backend.Key{})
	wt := b.WorkTree
	if wt == "" {
		wt = b.GitDir // go-git wants a worktree; a bare repository's is never read or written
	}
	g, err := git.Open(objstore.Of(r).Storer(backend.Key{}), osfs.New(wt))
	if err != nil {
		return gitext.Hash{}, fmt.Errorf("open repository %s: %w", r.GitDir, err)
	}
	h, err := g.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return gitext.Hash{}, err
	}
	return *h, nil
}

// ResolveRange reads a REV-RANGE in r: "A..B" (the commits B has and A lacks) or "REV" (REV^1..REV); see
// gitext.Repo.RangeOf.
func ResolveRange(r *gitext.Repo, spec string) (*gitext.Range, error) {
	return r.RangeOf(spec, func(rev string) (gitext.Hash, error) { return Resolve(r, rev) })
}
