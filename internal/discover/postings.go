package discover

import "strings"

// postingLists holds, while the ticket index is built, each index word and the node numbers of the commits whose
// message has it. A first run adds every word of every message here on the one goroutine that joins the walk,
// so the word's place is found with one map lookup: a map from word to list took two (look up, then store the
// grown list), and that was a tenth of the join's work.
type postingLists struct {
	at    map[string]int32 // word → its place in words and lists
	words []string
	lists [][]uint32
}

func newPostingLists() *postingLists { return &postingLists{at: map[string]int32{}} }

// add records that node's message has w. w may be a slice of a message: a new word is copied, so that the
// message is not kept alive by the index.
func (p *postingLists) add(w string, node uint32) {
	i, ok := p.at[w]
	if !ok {
		w = strings.Clone(w)
		i = int32(len(p.words))
		p.at[w] = i
		p.words = append(p.words, w)
		p.lists = append(p.lists, nil)
	}
	p.lists[i] = append(p.lists[i], node)
}
