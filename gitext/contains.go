package gitext

import "math/bits"

// ContainedBy answers "which of these tips contain this commit?" for many commits at once: for each target it
// returns the positions in tips (ascending) of the tips whose history holds the target (a tip holds itself).
//
// It is one pass over the graph in topological order, carrying for every node a bit set (64 a word) of
// whichever side is smaller, so that a ticket with a thousand commits and four branches is one pass, not
// sixteen:
//   - targets (fewer targets than tips), parents first: a node reaches what its parents reach, plus itself when
//     it is a target; a tip contains the targets it reaches.
//   - tips (fewer tips), children first: a node is contained by the tips that contain any of its children, plus
//     itself when it is a tip; a target is contained by the tips it has.
//
// Nodes whose generation number is below the lowest target's cannot reach any target (a commit's generation is
// larger than each of its ancestors'), and none of them is a target, so they are skipped either way, as git's
// --contains stops at the generation cutoff. That is a single pass for all targets and tips together, not a
// walk per commit or per tip; with more than 64 on the smaller side it makes one pass per 64. Finish must have
// run (Rank and Gen).
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
	sets := make([]uint64, len(g.Nodes))
	if len(targets) <= len(tips) {
		self := make([]uint64, len(g.Nodes))
		for lo := 0; lo < len(targets); lo += 64 {
			chunk := targets[lo:min(lo+64, len(targets))]
			clear(sets)
			for k, t := range chunk {
				self[t] |= 1 << k
			}
			for _, i := range order {
				set := self[i]
				for _, p := range g.Nodes[i].Parents {
					set |= sets[p]
				}
				sets[i] = set
			}
			for _, t := range chunk {
				self[t] = 0
			}
			for ti, tip := range tips {
				for set := sets[tip]; set != 0; set &= set - 1 {
					k := bits.TrailingZeros64(set)
					out[lo+k] = append(out[lo+k], ti)
				}
			}
		}
		return out
	}
	for lo := 0; lo < len(tips); lo += 64 {
		chunk := tips[lo:min(lo+64, len(tips))]
		clear(sets)
		for k, t := range chunk {
			sets[t] |= 1 << k
		}
		for k := len(order) - 1; k >= 0; k-- {
			i := order[k]
			set := sets[i]
			if set == 0 {
				continue
			}
			for _, p := range g.Nodes[i].Parents {
				sets[p] |= set // a parent below the cutoff collects bits nobody reads
			}
		}
		for ti, t := range targets {
			for set := sets[t]; set != 0; set &= set - 1 {
				out[ti] = append(out[ti], lo+bits.TrailingZeros64(set))
			}
		}
	}
	return out
}
