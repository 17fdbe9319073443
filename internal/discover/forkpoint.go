package discover

import (
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// baseCopy is one copy of the base branch: its ref and its tip's node.
type baseCopy struct {
	ref  gitext.RefName
	node int
}

// baseCopies returns every copy of the base branch: the local branch and each remote's remote-tracking branch of
// the same name (trunk, origin/trunk, upstream/trunk), whichever of them base names. A clone's local trunk may be
// commits ahead of origin/trunk, and a ticket branch made from it forked there: compared with origin/trunk
// alone, those unpushed commits would join the ticket.
func baseCopies(r *gitext.Repo, g *gitext.Graph, tips []gitext.Tip, base gitext.RefName) []baseCopy {
	remotes := map[string]bool{}
	if names, err := r.Remotes(); err == nil {
		for _, name := range names {
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
	var out []baseCopy
	for _, t := range tips {
		same := t.Name == base || t.Name == gitext.BranchRef(short)
		if !same && t.Name.IsRemote() {
			rest := strings.TrimPrefix(t.Name.String(), "refs/remotes/")
			for rm := range remotes {
				if rest == rm+"/"+short {
					same = true
				}
			}
		}
		if i, ok := g.Index(t.Commit); same && ok {
			out = append(out, baseCopy{t.Name, i})
		}
	}
	return out
}

// reflogFunc reads a ref's reflog (gitext.Repo.Reflog); ok is false when it has none.
type reflogFunc func(gitext.RefName) (entries []gitext.ReflogEntry, ok bool)

// forkStops returns where the ticket branch (tip node t, ref name) forked from the base, one node per copy of
// the base (baseCopies):
//   - a copy that does not hold t: its tip;
//   - a copy that holds t through a merge: the first-parent ancestor just before that merge (what the base was
//     when the branch was merged), so that the branch's own commits stay its own after it is merged;
//   - a local copy with t on its first-parent line (fast-forwarded to the branch, or the branch made on it):
//     the graph keeps no trace of where the branch started, but the copy's reflog does (beforeMerging): its
//     first "merge <branch>: …" entry of the branch's work says where it was before; with none, the branch
//     was made on the copy's line and adds nothing over it (the copy's tip). A copy without a reflog (a
//     remote-tracking branch, core.logAllRefUpdates off) is left out, unless every copy is: then the branch
//     adds nothing.
//
// The base merged into the ticket branch is no trouble: its commits are reachable from the stops.
func forkStops(g *gitext.Graph, t int, name gitext.RefName, copies []baseCopy, reflog reflogFunc) []int {
	// Each copy's first-parent line down to the first commit older (by generation) than t, which cannot hold t.
	var line []int
	starts := make([]int, len(copies)+1)
	for k, b := range copies {
		starts[k] = len(line)
		for i := b.node; ; {
			line = append(line, i)
			if g.Gen(i) < g.Gen(t) || len(g.Node(i).Parents) == 0 {
				break
			}
			i = g.Node(i).Parents[0]
		}
	}
	starts[len(copies)] = len(line)
	holds := make([]bool, len(line))
	for _, k := range g.ContainedBy([]int{t}, line)[0] {
		holds[k] = true
	}
	var stops []int
	for k, b := range copies {
		stop, onLine := -1, false
		for j := starts[k]; j < starts[k+1]; j++ {
			if line[j] == t {
				onLine = true
				break
			}
			if !holds[j] {
				stop = line[j]
				break
			}
		}
		switch {
		case onLine:
			if at, ok := beforeMerging(g, t, b.ref, name, reflog); ok && at >= 0 {
				stops = append(stops, at)
			} else if ok {
				stops = append(stops, b.node) // made on the copy's line: it adds nothing over it
			}
		case stop >= 0:
			stops = append(stops, stop)
		default: // a shallow boundary before the commit that brought t in: stop at the copy itself
			stops = append(stops, b.node)
		}
	}
	if len(stops) == 0 {
		nodes := make([]int, len(copies))
		for k, b := range copies {
			nodes[k] = b.node
		}
		return nodes
	}
	return stops
}

// beforeMerging reads where local branch base was before it first merged (fast-forwarded to) the ticket branch
// tip t of ref name, from base's reflog: the old value of the oldest "merge <name>: …" entry (git merge writes
// "merge <what was given>: Fast-forward") whose new value t has, that is the first merge of the work that is now
// t's. A branch merged twice forked where the first merge began; entries written after t was recorded (a later
// merge of more work, a reset) are not t's, so finding the ticket again at a recorded state gives the same answer
// while the entry lasts (gc.reflogExpire). -1 when the reflog has no such entry; ok is false when base keeps no
// reflog.
func beforeMerging(g *gitext.Graph, t int, base, name gitext.RefName, reflog reflogFunc) (int, bool) {
	if !base.IsBranch() || reflog == nil {
		return 0, false
	}
	entries, ok := reflog(base)
	if !ok || len(entries) == 0 {
		return 0, false
	}
	var olds, news []int // of the "merge <name>" entries whose commits the graph has, oldest first
	for _, e := range entries {
		if !strings.HasPrefix(e.Message, "merge "+gitext.ShortName(name)+":") && !strings.HasPrefix(e.Message, "merge "+name.String()+":") {
			continue
		}
		o, ok1 := g.Index(e.Old)
		n, ok2 := g.Index(e.New)
		if ok1 && ok2 {
			olds, news = append(olds, o), append(news, n)
		}
	}
	if len(news) == 0 {
		return -1, true
	}
	for k, holders := range g.ContainedBy(news, []int{t}) {
		if len(holders) > 0 { // t has what this merge brought
			return olds[k], true
		}
	}
	return -1, true
}
