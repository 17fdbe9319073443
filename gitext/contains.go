package gitext

import "math/bits"

// ContainedBy answers "which of these tips contain this commit?" for many commits at once: for each target it
// returns the positions in tips (ascending) of the tips whose history holds the target (a tip holds itself).
//
// It is one pass over the graph in topological order, parents first, carrying for every node the set of
// targets it reaches as a bit set (64 targets a word): a node reaches what its parents reach, plus itself when
// it is a target. Nodes whose generation number is below the lowest target's cannot reach any target (a
// commit's generation is larger than each of its ancestors'), so they are skipped, as git's --contains stops
// at the generation cutoff. That is a single pass for all targets and tips together, not a walk per commit or
// per tip; with more than 64 targets it makes one pass per 64. Finish must have run (Rank and Gen).
func (g *Graph) ContainedBy(targets, tips []int) [][]int {
	out := make([][]int, len(targets))
	if len(targets) == 0 || len(tips) == 0 {
		return out
	}
	minGen := ^uint32(0)
	for _, t := range targets {
		minGen = min(minGen, g.Gen[t])
	}
	order := make([]int, len(g.Nodes)) // then only the nodes at or above the cutoff, parents first
	for i, r := range g.Rank {
		order[r] = i
	}
	kept := order[:0]
	for _, i := range order {
		if g.Gen[i] >= minGen {
			kept = append(kept, i)
		}
	}
	order = kept
	reach := make([]uint64, len(g.Nodes))
	self := make([]uint64, len(g.Nodes))
	for lo := 0; lo < len(targets); lo += 64 {
		chunk := targets[lo:min(lo+64, len(targets))]
		clear(reach)
		for k, t := range chunk {
			self[t] |= 1 << k
		}
		for _, i := range order {
			set := self[i]
			for _, p := range g.Nodes[i].Parents {
				set |= reach[p]
			}
			reach[i] = set
		}
		for _, t := range chunk {
			self[t] = 0
		}
		for ti, tip := range tips {
			for set := reach[tip]; set != 0; set &= set - 1 {
				k := bits.TrailingZeros64(set)
				out[lo+k] = append(out[lo+k], ti)
			}
		}
	}
	return out
}
