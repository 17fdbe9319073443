package gitext

import "math/bits"

// ContainedBy answers "which of these tips contain this commit?" for many commits at once: for each target it
// returns the positions in tips (ascending) of the tips whose history holds the target (a tip holds itself).
//
// It is one pass over the graph in topological order, carrying for every node a bit set of whichever side is
// smaller, so that a ticket with a thousand commits and four branches is one pass with one word a node:
//   - targets (no more targets than tips), parents first: a node reaches what its parents reach, plus itself
//     when it is a target; a tip contains the targets it reaches.
//   - tips (fewer tips), children first: a node is contained by the tips that contain any of its children, plus
//     itself when it is a tip; a target is contained by the tips it has.
//
// A node's set is up to maxSetWords words (512 bits) kept side by side, so one pass serves them all; a side
// larger than that takes a pass per 512. Nodes whose generation number is below the lowest target's cannot
// reach any target (a commit's generation is larger than each of its ancestors'), and none of them is a target,
// so they are skipped, as git's --contains stops at the generation cutoff. That is not a walk per commit or per
// tip.
func (g *Graph) ContainedBy(targets, tips []int) [][]int {
	out := make([][]int, len(targets))
	if len(targets) == 0 || len(tips) == 0 {
		return out
	}
	minGen := ^uint32(0)
	for _, t := range targets {
		minGen = min(minGen, g.gen[t])
	}
	order := make([]int, len(g.nodes)) // then only the nodes at or above the cutoff, parents first
	for i, r := range g.rank {
		order[r] = i
	}
	kept := order[:0]
	for _, i := range order {
		if g.gen[i] >= minGen {
			kept = append(kept, i)
		}
	}
	order = kept
	byTarget := len(targets) <= len(tips)
	carried := tips
	if byTarget {
		carried = targets
	}
	words := min(maxSetWords, (len(carried)+63)/64)
	sets := make([]uint64, len(g.nodes)*words)
	for lo := 0; lo < len(carried); lo += 64 * words {
		chunk := carried[lo:min(lo+64*words, len(carried))]
		w := (len(chunk) + 63) / 64
		sets := sets[:len(g.nodes)*w]
		if lo > 0 {
			clear(sets) // the first pass has it fresh from make
		}
		for k, x := range chunk {
			sets[x*w+k/64] |= 1 << (k % 64)
		}
		if byTarget {
			for _, i := range order {
				set := sets[i*w : i*w+w]
				for _, p := range g.nodes[i].Parents {
					for k, bits := range sets[p*w : p*w+w] {
						set[k] |= bits
					}
				}
			}
			for k := range chunk {
				word, bit := k/64, uint64(1)<<(k%64)
				for ti, tip := range tips {
					if sets[tip*w+word]&bit != 0 {
						out[lo+k] = append(out[lo+k], ti)
					}
				}
			}
			continue
		}
		for k := len(order) - 1; k >= 0; k-- {
			i := order[k]
			set := sets[i*w : i*w+w]
			for _, p := range g.nodes[i].Parents {
				// A parent below the cutoff collects bits nobody reads.
				for k, bits := range set {
					sets[p*w+k] |= bits
				}
			}
		}
		for ti, t := range targets {
			for word, set := range sets[t*w : t*w+w] {
				for ; set != 0; set &= set - 1 {
					out[ti] = append(out[ti], lo+word*64+bits.TrailingZeros64(set))
				}
			}
		}
	}
	return out
}

// maxSetWords bounds the words of a node's bit set in one pass of ContainedBy: 512 targets or tips, and 4 KiB
// of sets for every 1000 commits.
const maxSetWords = 8
