// Package prpatch computes, from git, what approved-final-head (package controls) needs to tell a push that
// changed a pull request from one that left its diff as approved: for each commit the pull request was
// reviewed on, and its final head, the patch id of the diff against the base (git/patchids/pr_<N>.json,
// controls.PatchIDsDoc). GitHub gives no such thing: its trees change with every rebase.
package prpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/controls"
)

// PR is what is read of one pull request: its number, its payload and its reviews, as GitHub sent them.
type PR struct {
	Number  int
	Payload []byte
	Reviews []byte
}

// Member is one git/patchids/pr_<N>.json.
type Member struct {
	Name string
	Data []byte
}

// maxHeads bounds the commits computed for one pull request (a review per push of a long-lived one).
const maxHeads = 50

// ErrDeadline is returned, with what was computed, when the deadline passed.
var ErrDeadline = errors.New("the time budget ran out")

// Members computes each pull request's member; a commit that cannot be diffed (not in this clone, no common
// history with the base) is recorded with why, and the control then says so. deadline, when set, stops the
// work between commits (the post-merge hook's budget).
func Members(repo *gitext.Repo, prs []PR, deadline time.Time, now func() time.Time) ([]Member, error) {
	if now == nil {
		now = time.Now
	}
	d := patch.NewDiffer(repo)
	var out []Member
	for _, pr := range prs {
		var p struct {
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
			Base struct {
				SHA string `json:"sha"`
			} `json:"base"`
		}
		if json.Unmarshal(pr.Payload, &p) != nil || !controls.IsObjectID(p.Base.SHA) || !controls.IsObjectID(p.Head.SHA) {
			continue
		}
		shas := []string{p.Head.SHA}
		var reviews []struct {
			CommitID string `json:"commit_id"`
		}
		_ = json.Unmarshal(pr.Reviews, &reviews) // no reviews: the head alone
		for _, r := range reviews {
			if controls.IsObjectID(r.CommitID) && !slices.Contains(shas, r.CommitID) && len(shas) < maxHeads {
				shas = append(shas, r.CommitID)
			}
		}
		doc := controls.PatchIDsDoc{V: 1, PR: pr.Number, Base: p.Base.SHA, Heads: []controls.PatchIDHead{}}
		for _, sha := range shas {
			if !deadline.IsZero() && now().After(deadline) {
				return out, ErrDeadline
			}
			h, _ := Head(repo, d, p.Base.SHA, sha, "")
			doc.Heads = append(doc.Heads, h)
		}
		data, _ := json.MarshalIndent(doc, "", "  ")
		out = append(out, Member{Name: controls.PatchIDsName(pr.Number), Data: append(data, '\n')})
	}
	return out, nil
}

// Head is one commit's entry: its fork point from base (a full object id) and the patch id of fork
// point..commit, diffed by d. Members writes it, and verify --repo (package repocheck) computes it again in the
// auditor's clone and compares. known is false when this clone cannot tell (the commit or the base is not in
// it, they share no history, the diff cannot be written): Why then says so. When prefer is one of several
// merge bases of the commit and the base (criss-cross history), it is the fork point taken, so that the
// recheck of a recorded entry does not call another equally good choice a difference.
func Head(repo *gitext.Repo, d *patch.Differ, base, sha, prefer string) (h controls.PatchIDHead, known bool) {
	h = controls.PatchIDHead{Commit: sha}
	c, err := revparse.Resolve(repo, sha)
	if err != nil {
		h.Why = "the commit is not in the bundler's clone (a force push replaced it; fetch it to compare)"
		return h, false
	}
	b, err := revparse.Resolve(repo, base)
	if err != nil {
		h.Why = "the base " + short(base) + " is not in the bundler's clone"
		return h, false
	}
	bases, err := repo.MergeBase(c, b)
	if err != nil || len(bases) == 0 {
		h.Why = fmt.Sprintf("no common history with the base %s (a shallow clone?)", short(base))
		return h, false
	}
	fork := bases[0]
	for _, m := range bases[1:] {
		if m.String() == prefer {
			fork = m
		}
	}
	h.ForkPoint = fork.String()
	var buf bytes.Buffer
	if err := d.WriteTreeDiff(&buf, fork, c); err != nil {
		h.Why = err.Error()
		return h, false
	}
	// Full object ids on a binary file's index line: the ids are compared with each other, not with git's
	// output, and an abbreviation would depend on the clone.
	if id, ok := patch.PatchID(buf.Bytes(), nil); ok {
		h.PatchID = &id
	} else {
		h.Why = EmptyDiff
	}
	return h, true
}

// EmptyDiff is the why of a head whose diff against the base is empty: computed, with no patch id.
const EmptyDiff = "the diff against the base is empty"

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
