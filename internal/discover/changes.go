package discover

// Change is one change and its copies: commits with the same patch id (a clean backport, a rebase) or linked by
// `(cherry picked from commit X)` (a backport that needed a conflict fix has another patch id but still names
// its original).
type Change struct {
	// Commits index the details, in their order (parents before children). The first is the original: the
	// oldest commit of the change that is not cherry-picked from another of them, else the oldest.
	Commits []int
}

// Changes groups details into changes, ordered by their oldest commit. Details without patch ids or cherry-pick
// lines (bundles made before those fields) are each a change of their own.
func Changes(details []CommitDetail) []Change {
	parent := make([]int, len(details))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		ra, rb := find(a), find(b)
		if ra < rb {
			parent[rb] = ra
		} else if rb < ra {
			parent[ra] = rb
		}
	}
	byPatch := map[string]int{}
	bySHA := map[string]int{}
	for i, d := range details {
		bySHA[d.SHA] = i
	}
	source := map[string]int{} // a cherry-pick source (maybe not tied itself) → first commit naming it
	for i, d := range details {
		if d.PatchID != nil {
			if j, ok := byPatch[*d.PatchID]; ok {
				union(i, j)
			} else {
				byPatch[*d.PatchID] = i
			}
		}
		for _, from := range d.CherryPickedFrom {
			if j, ok := bySHA[from]; ok {
				union(i, j)
			}
			if j, ok := source[from]; ok {
				union(i, j)
			} else {
				source[from] = i
			}
		}
	}
	at := map[int]int{} // root → position in out
	var out []Change
	for i := range details {
		r := find(i)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, Change{})
		}
		out[k].Commits = append(out[k].Commits, i)
	}
	for k, c := range out {
		inChange := map[string]bool{}
		for _, i := range c.Commits {
			inChange[details[i].SHA] = true
		}
		for pos, i := range c.Commits {
			picked := false
			for _, from := range details[i].CherryPickedFrom {
				picked = picked || inChange[from]
			}
			if !picked {
				if pos > 0 {
					rest := append([]int{i}, c.Commits[:pos]...)
					out[k].Commits = append(rest, c.Commits[pos+1:]...)
				}
				break
			}
		}
	}
	return out
}
