package repocheck

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Check compares the bundle's git members with r: git/commits.json, git/diff.patch (m.Patch nil: the bundle
// has none) and git/patchids/ (patchids.go).
//
// Compared for each commit listed: that it exists, and, when the bundle has details, its parents, author,
// committer (name, email, date in the commit's zone), subject and cherry_picked_from (when recorded).
// patch_id, matched_by and landed_on are compared with what finding the ticket again at the recorded state
// gives, which also reports commits tied there that the bundle lacks (checkComplete, complete.go).
// Every part must be for a listed non-merge commit, at most one each,
// and must reproduce the commit's tree from its first parent's (package apply); every listed non-merge commit
// that changes its tree must have a part.
func Check(r *gitext.Repo, m verify.RepoMembers) verify.RepoResult {
	commitsJSON, diffPatch := m.Commits, m.Patch
	var res verify.RepoResult
	mismatch := func(format string, a ...any) { res.Mismatches = append(res.Mismatches, fmt.Sprintf(format, a...)) }

	doc, err := commitsjson.Parse(commitsJSON)
	if err != nil {
		mismatch("git/commits.json is not what `git bernstein commits --json` writes: %v", err)
		return res
	}
	details := map[string]*discover.CommitDetail{}
	for i := range doc.Details {
		d := &doc.Details[i]
		details[d.SHA] = d
		if !slices.Contains(doc.Commits, d.SHA) {
			mismatch("%s: git/commits.json has details for it but does not list it in commits", short(d.SHA))
		}
	}

	listed := map[string]bool{}
	found := map[string]*gitext.Commit{}
	for _, sha := range doc.Commits {
		listed[sha] = true
		if len(doc.Details) > 0 && details[sha] == nil {
			mismatch("%s: git/commits.json lists it but has no details for it", short(sha))
		}
		c, err := readCommit(r, sha)
		switch {
		case errors.Is(err, errNotCommit), errors.Is(err, errNotID):
			mismatch("%s: %v", short(sha), err)
			continue
		case errors.Is(err, gitext.ErrObjectNotFound):
			res.Missing = append(res.Missing, fmt.Sprintf("%s: not in the repository", sha))
			continue
		case err != nil:
			res.Err = err
			return res
		}
		found[sha] = c
		res.Commits++
		if d := details[sha]; d != nil {
			compareDetail(d, discover.Recorded(c), mismatch)
		}
	}

	// Parts: each for a listed commit, once, what format-patch writes for it, reproducing its tree (parts.go).
	parted := map[string]bool{}
	if diffPatch != nil {
		var err error
		if parted, err = checkParts(r, diffPatch, listed, found, &res, mismatch); err != nil {
			res.Err = err
			return res
		}
	}

	// Every commit that changes its tree has a part (format-patch writes none for merges and empty commits).
	for _, sha := range doc.Commits {
		c := found[sha]
		if c == nil || parted[sha] || len(c.ParentHashes) > 1 {
			continue
		}
		from, ok, err := parentTree(r, c)
		if err != nil {
			res.Err = err
			return res
		}
		if ok && from != c.TreeHash && !(from.IsZero() && c.TreeHash == emptyTree) {
			mismatch("%s: it changes files, but git/diff.patch has no part for it", short(sha))
		}
	}
	checkComplete(r, doc, &res, mismatch)
	if len(m.PatchIDs) > 0 {
		checkPatchIDs(r, m.PatchIDs, doc.Discovery, maxRecheckHeads, &res, mismatch)
	}
	return res
}

var (
	errNotID     = errors.New("not a full commit id")
	errNotCommit = errors.New("the repository has this object, but it is not a commit")
	emptyTree    = gitext.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")
)

func readCommit(r *gitext.Repo, sha string) (*gitext.Commit, error) {
	if len(sha) != 40 || !gitext.IsHash(sha) || strings.ToLower(sha) != sha {
		return nil, errNotID
	}
	h := gitext.NewHash(sha)
	typ, _, err := r.ReadObject(h)
	if err != nil {
		return nil, err
	}
	if typ != gitext.CommitObject {
		return nil, fmt.Errorf("%w (a %s)", errNotCommit, typ)
	}
	return r.ReadCommit(h, "git/commits.json")
}

// parentTree is the tree a commit's part starts from: its first parent's, or the zero hash (the empty tree)
// for a root commit. ok is false when the parent is not in the repository.
func parentTree(r *gitext.Repo, c *gitext.Commit) (gitext.Hash, bool, error) {
	if len(c.ParentHashes) == 0 {
		return gitext.Hash{}, true, nil
	}
	p, err := r.ReadCommit(c.ParentHashes[0], "the parent of "+c.Hash.String())
	if errors.Is(err, gitext.ErrObjectNotFound) || r.IsShallow(c.Hash) {
		return gitext.Hash{}, false, nil
	}
	if err != nil {
		return gitext.Hash{}, false, err
	}
	return p.TreeHash, true, nil
}

// compareDetail reports each field of the bundle's detail that differs from the commit's own.
func compareDetail(got *discover.CommitDetail, want discover.CommitDetail, mismatch func(string, ...any)) {
	sha := short(want.SHA)
	if !slices.Equal(got.Parents, want.Parents) {
		mismatch("%s: git/commits.json says its parents are [%s], the repository has [%s]", sha, strings.Join(got.Parents, " "), strings.Join(want.Parents, " "))
	}
	for _, p := range []struct {
		role      string
		got, want discover.Person
	}{{"author", got.Author, want.Author}, {"committer", got.Committer, want.Committer}} {
		if p.got != p.want {
			mismatch("%s: git/commits.json says its %s is %s, the repository has %s", sha, p.role, person(p.got), person(p.want))
		}
	}
	if got.Subject != want.Subject {
		mismatch("%s: git/commits.json says its subject is %q, the repository has %q", sha, got.Subject, want.Subject)
	}
	if got.CherryPickedFrom != nil && !slices.Equal(got.CherryPickedFrom, want.CherryPickedFrom) {
		mismatch("%s: git/commits.json says it was cherry-picked from [%s], its message names [%s]", sha, strings.Join(got.CherryPickedFrom, " "), strings.Join(want.CherryPickedFrom, " "))
	}
}

func person(p discover.Person) string { return fmt.Sprintf("%s <%s> %s", p.Name, p.Email, p.Date) }

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
