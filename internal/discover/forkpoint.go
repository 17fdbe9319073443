package discover

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// baseCopies returns the nodes of every copy of the base branch: the local branch and each remote's
// remote-tracking branch of the same name (trunk, origin/trunk, upstream/trunk), whichever of them base names.
// A clone's local trunk may be commits ahead of origin/trunk, and a ticket branch made from it forked there:
// compared with origin/trunk alone, those unpushed commits would join the ticket.
func baseCopies(r *gitext.Repo, g *gitext.Graph, tips []gitext.Tip, base plumbing.ReferenceName) []int {
	remotes := map[string]bool{}
	if cfg, err := r.Repository.Config(); err == nil {
		for name := range cfg.Remotes {
			remotes[name] = true
		}
	}
	short := base.String()
	switch {
	case base.IsBranch():
		short = strings.TrimPrefix(short, "refs/heads/")
	case base.IsRemote():
		rest := strings.TrimPrefix(short, "refs/remotes/")
		remote, name, _ := strings.Cut(rest, "/") // without a configured remote of that name: origin/…
		for rm := range remotes {
			if strings.HasPrefix(rest, rm+"/") && len(rm) > len(remote) {
				remote, name = rm, strings.TrimPrefix(rest, rm+"/")
			}
		}
		remotes[remote] = true
		short = name
	}
	var out []int
	seen := map[int]bool{}
	for _, t := range tips {
		same := t.Name == base || t.Name == plumbing.NewBranchReferenceName(short)
		if !same && t.Name.IsRemote() {
			rest := strings.TrimPrefix(t.Name.String(), "refs/remotes/")
			for rm := range remotes {
				if rest == rm+"/"+short {
					same = true
				}
			}
		}
		if i, ok := g.Index(t.Commit); same && ok && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

// forkStops returns where ticket branch tip t forked from the base, one node per copy of the base (baseCopies):
// the copy's tip when it does not hold t; when it holds t through a merge, the first-parent ancestor just
// before that merge (what the base was when the branch was merged), so that the branch's own commits stay its own
// after it is merged. A copy with t on its first-parent line (fast-forwarded to the branch, or t is the copy's
// tip) keeps no trace of where the branch started and is left out, unless every copy is such: then the base holds
// the branch as its own line and the branch adds nothing over it (`git log base..branch` is empty).
//
// The base merged into the ticket branch is no trouble: its commits are reachable from the stops.
func forkStops(g *gitext.Graph, t int, copies []int) []int {
	// Each copy's first-parent line down to the first commit older (by generation) than t, which cannot hold t.
	var line []int
	starts := make([]int, len(copies)+1)
	for k, b := range copies {
		starts[k] = len(line)
		for i := b; ; {
			line = append(line, i)
			if g.Gen[i] < g.Gen[t] || len(g.Nodes[i].Parents) == 0 {
				break
			}
			i = g.Nodes[i].Parents[0]
		}
	}
	starts[len(copies)] = len(line)
	holds := make([]bool, len(line))
	for _, k := range g.ContainedBy([]int{t}, line)[0] {
		holds[k] = true
	}
	var stops []int
	for k, b := range copies {
		stop, fastForward := -1, false
		for j := starts[k]; j < starts[k+1]; j++ {
			if line[j] == t {
				fastForward = true
				break
			}
			if !holds[j] {
				stop = line[j]
				break
			}
		}
		switch {
		case fastForward:
		case stop >= 0:
			stops = append(stops, stop)
		default: // a shallow boundary before the commit that brought t in: stop at the copy itself
			stops = append(stops, b)
		}
	}
	if len(stops) == 0 {
		return copies
	}
	return stops
}
