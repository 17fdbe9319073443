package controls

import (
	"fmt"
	"regexp"
	"sync"
)

// PatchIDsName is the member that holds, for pull request n, the patch id of the diff each head it was
// reviewed on (and its final head) shows against the base, as bundle --controls computed it from git:
// git/patchids/pr_<N>.json (PatchIDsDoc).
func PatchIDsName(n int) string { return fmt.Sprintf("git/patchids/pr_%d.json", n) }

// PatchIDsDoc is git/patchids/pr_<N>.json: {"v":1,"pr":N,"base":<the payload's base.sha>,"heads":[…]}, one
// entry a commit.
type PatchIDsDoc struct {
	V     int           `json:"v"`
	PR    int           `json:"pr"`
	Base  string        `json:"base"`
	Heads []PatchIDHead `json:"heads"`
}

// PatchIDHead is one head: the commit, its fork point (git merge-base of it and base), and the patch id (`git
// patch-id --stable`, full object ids on a binary file's index line) of `git diff <fork_point> <commit>`; null
// with why when it could not be computed (the commit is not in the clone) or the diff is empty.
type PatchIDHead struct {
	Commit    string  `json:"commit"`
	ForkPoint string  `json:"fork_point,omitempty"`
	PatchID   *string `json:"patch_id"`
	Why       string  `json:"why,omitempty"`
}

var hexID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`) })

// IsObjectID says whether s is a full lower-case SHA-1 or SHA-256 object id, as GitHub spells commit ids.
func IsObjectID(s string) bool { return hexID().MatchString(s) }

// patchIDs reads pull request p's git/patchids member once: commit → patch id (only the ids computed).
func (a *audit) patchIDs(p *pull) map[string]string {
	if p.patchIDs != nil {
		return p.patchIDs
	}
	p.patchIDs = map[string]string{}
	var doc PatchIDsDoc
	// Ids against another base than the payload's are of other diffs: verify --repo computes them again from the
	// member's base, so this is what ties them to the pull request.
	if a.read(PatchIDsName(p.n), &doc) != "" || doc.V != 1 || doc.PR != p.n || doc.Base != p.p.Base.SHA {
		return p.patchIDs
	}
	for _, h := range doc.Heads {
		if hexID().MatchString(h.Commit) && h.PatchID != nil && hexID().MatchString(*h.PatchID) {
			p.patchIDs[h.Commit] = *h.PatchID
		}
	}
	return p.patchIDs
}

// sameDiff says whether commits x and y show the pull request's diff unchanged: the same patch id against the
// base (a rebase onto a newer base, a merge of the base into the head, a reworded or squashed history).
func (a *audit) sameDiff(p *pull, x, y string) bool {
	ids := a.patchIDs(p)
	idx, ok1 := ids[x]
	idy, ok2 := ids[y]
	return ok1 && ok2 && idx == idy
}
