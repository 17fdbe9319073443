package discover

import "strings"

// postingLists holds, while the ticket index is built, each index word and the node numbers of the commits whose
// message has it. A first run adds every word of every message here on the one goroutine that joins the walk,
// so the word's place is found with one map lookup: a map from word to list took two (look up, then store the
// grown list), and that was a tenth of the join's work.
//
// A history has a word for nearly every few commits (bug and pull request numbers, versions), and most words
// have one or two postings: 262,480 words and 990,180 postings on 200,000 commits. A slice per word cost 24
// bytes of header and a small allocation besides, regrown as it filled; the postings are instead one array in
// which each links to the word's one before, and a word costs its map entry and the place of its last posting.
type postingLists struct {
	at    map[string]int32 // word → its number
	last  []int32          // by word number: its last posting's place in links
	links []postingLink
}

// postingLink is one posting: a commit's node number and the place of the word's posting before it (-1: none).
type postingLink struct {
	node uint32
	prev int32
}

func newPostingLists() *postingLists { return &postingLists{at: map[string]int32{}} }

// add records that node's message has w. w may be a slice of a message (as when the index is extended from
// commits useIndex read): a new word is copied, so that the message is not kept alive by the index.
func (p *postingLists) add(w string, node uint32) {
	i, ok := p.at[w]
	if !ok {
		i = p.word(strings.Clone(w))
	}
	p.addTo(i, node)
}

// word adds w, which the postings do not have yet, and returns its number.
func (p *postingLists) word(w string) int32 {
	i := int32(len(p.last))
	p.at[w] = i
	p.last = append(p.last, -1)
	return i
}

// addTo records that node's message has the word numbered i.
func (p *postingLists) addTo(i int32, node uint32) {
	p.links = append(p.links, postingLink{node: node, prev: p.last[i]})
	p.last[i] = int32(len(p.links) - 1)
}

// each calls f with the node numbers of word number i, newest posting first.
func (p *postingLists) each(i int32, f func(node uint32)) {
	for l := p.last[i]; l >= 0; l = p.links[l].prev {
		f(p.links[l].node)
	}
}
