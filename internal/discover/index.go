package discover

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/parallel"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// The ticket index, <common dir>/bernstein/index, lets `commits` answer without reading history again: the
// commit graph in topological order, and for every word of a commit message made of digits only (every ticket id
// holds one: ENG-42, #123), and every pair word ("eng-42", IndexWords), the commits whose message has it. A query
// reads only the commits of its ticket's words and applies the exact rules to them, so the index narrows the
// search but never decides a match. Version 3 added the pair words and version 4 changed the checksum (indexSum):
// an older file's magic no longer matches and it is rebuilt.
// It records the tips it was built from: new commits are added from there, and if a tip it knew is no longer
// reachable (history was rewritten) it is rebuilt. A file that does not check out (magic, checksum, bounds) is
// rebuilt too. It is written atomically, so concurrent writers each leave a whole file.
const indexMagic = "git-bernstein ticket index 4\n"

// IndexPath is where the ticket index lives.
func IndexPath(r *gitext.Repo) string { return filepath.Join(r.CommonDir, "bernstein", "index") }

// ticketIndex is a loaded index: the graph (node i has rank i) and the word postings, decoded on demand.
type ticketIndex struct {
	g     *gitext.Graph
	tips  []gitext.Hash
	words []byte // the encoded word section
}

// IndexWords returns the words of text the index keys on: runs of letters, digits and '_' that are digits only,
// of at most maxIndexWord bytes. Every ticket id holds a number (ENG-42, #123, Launchpad's 2161868), and an id
// named in a text as a token leaves its numbers whole in that text, so the commits of its numbers are all the
// commits that can name it. Words that mix letters and digits (abbreviated commit ids, "py3", "v2") are left
// out: on a long-lived project's history they are nearly half the distinct words and seldom ticket words. An
// id whose words are all mixed, and longer words (Gerrit's Change-Id, full commit ids), are answered by a full
// walk.
//
// A word of digits right after a word without digits and one '-' also gives a pair word, the two with the '-'
// between, folded: "land-7" of "Refs: LAND-7". A tracker id is usually such a pair, and its number alone is a
// poor key: "7" is in a fifth of a real-shaped history's messages (versions, counts, dates), so LAND-7 would read
// all of them where "land-7" reads the thirty that name it. A text that names the id as a token holds the id's
// pairs whole too (no word rune stands beside the token, so its first and last runs are whole runs of the text).
// A pair is folded rune by rune (foldPair) because the token rule compares case-insensitively; pairs longer than
// maxIndexWord once folded are left out, as long words are.
func IndexWords(text string, emit func(string)) {
	for i := 0; i < len(text); {
		// Most of a message is letters, spaces and punctuation: pass over them a byte at a time, stopping only at
		// a digit or a non-ASCII byte, the only places a word of digits can begin.
		for i < len(text) && passOver[text[i]] {
			i++
		}
		if i == len(text) {
			return
		}
		// A digit right after a letter or '_' that was passed over is inside a word that mixes them.
		digitsOnly := i == 0 || !asciiWordByte(text[i-1])
		j := i
		for j < len(text) {
			if c := text[j]; c < utf8.RuneSelf {
				if c-'0' < 10 {
					j++
					continue
				}
				if !asciiWordByte(c) {
					break
				}
				digitsOnly = false
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[j:])
			if !ticket.IsWordRune(r) {
				break
			}
			if !unicode.IsDigit(r) {
				digitsOnly = false
			}
			j += size
		}
		if j == i { // a non-ASCII rune that is not a word rune
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		if digitsOnly && j-i <= maxIndexWord {
			emit(text[i:j])
			if i >= 2 && text[i-1] == '-' {
				if w := pairBefore(text, i-1, j); w != "" {
					emit(w)
				}
			}
		}
		i = j
	}
}

// pairBefore is the folded pair word of the word of digits text[dash+1:end] and the word that ends at the '-' at
// dash; "" when that word is empty or has a digit, or the pair is too long.
func pairBefore(text string, dash, end int) string {
	start := dash
	for start > 0 {
		if dash-start > maxPairBytes {
			return "" // the pair would be too long once folded: no need to find where the word starts
		}
		c := text[start-1]
		if c < utf8.RuneSelf {
			if c-'0' < 10 {
				return ""
			}
			if !asciiWordByte(c) {
				break
			}
			start--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if !ticket.IsWordRune(r) {
			break
		}
		if unicode.IsDigit(r) {
			return ""
		}
		start -= size
	}
	if start == dash || end-start > maxPairBytes {
		return ""
	}
	return foldPair(text[start:end])
}

// maxPairBytes bounds a pair word before folding: folding shortens a pair by at most two bytes a rune (the
// Kelvin sign, three bytes, folds to k), so every pair whose folded form fits maxIndexWord is looked at.
const maxPairBytes = 3 * maxIndexWord

// foldPair folds a pair word: ASCII by lower-casing; any other rune to the lower case of the smallest rune of its
// case-folding orbit, so that runes strings.EqualFold calls equal fold alike (lower-casing alone does not: the
// Kelvin sign and 'ſ' are their own lower case). "" when the folded pair is longer than maxIndexWord.
func foldPair(p string) string {
	ascii := true
	for i := 0; i < len(p); i++ {
		if p[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		p = strings.ToLower(p)
	} else {
		p = strings.Map(func(r rune) rune {
			least := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				least = min(least, f)
			}
			return unicode.ToLower(least)
		}, p)
	}
	if len(p) > maxIndexWord {
		return ""
	}
	return p
}

// asciiWordByte says whether an ASCII byte is a word character other than a digit: a letter or '_'.
func asciiWordByte(c byte) bool { return c-'a' < 26 || c-'A' < 26 || c == '_' }

// passOver marks the bytes IndexWords passes over without looking further: every ASCII byte but the digits.
var passOver = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = c < '0' || c > '9'
	}
	return t
}()

// maxIndexWord is the longest word the index keeps, in bytes.
const maxIndexWord = 32

// encodeIndex is the index file writeIndex writes, in memory (for tests).
func encodeIndex(g *gitext.Graph, tips []gitext.Hash, postings *postingLists) []byte {
	var b bytes.Buffer
	_ = writeIndex(&b, g, tips, postings) // a bytes.Buffer takes every write
	return b.Bytes()
}

// writeIndex writes g (renumbered by rank), the tips and the postings (node numbers of g) to out, and the
// checksum of it all. It streams: on a million commits the file is 57 MB, and building it in one buffer (grown
// by doubling) held up to twice that on the heap at the end of a first run, beside the history's graph. It
// empties postings' word map on the way (its words are moved into a sorted array), so postings can be written
// once and not added to afterwards.
func writeIndex(out io.Writer, g *gitext.Graph, tips []gitext.Hash, postings *postingLists) error {
	n := g.Len()
	order := make([]int, n) // rank → old node
	for i := range n {
		order[g.Rank(i)] = i
	}
	sum := newIndexSum()
	b := bufio.NewWriterSize(io.MultiWriter(out, sum), 64<<10)
	b.WriteString(indexMagic)
	// Every fixed-size field goes through tmp: a slice of a variable of the loop handed to Write made the
	// compiler move the variable to the heap, an allocation for every node and every hash table entry.
	var tmp [len(gitext.Hash{})]byte
	uv := func(x uint64) { b.Write(tmp[:binary.PutUvarint(tmp[:], x)]) }
	sv := func(x int64) { b.Write(tmp[:binary.PutVarint(tmp[:], x)]) }
	uv(uint64(n))
	for rank, old := range order {
		nd := g.Node(old)
		b.Write(append(tmp[:0], nd.Hash[:]...))
		sv(nd.When)
		flags := uint64(len(nd.Parents)) << 1
		if nd.Shallow {
			flags |= 1
		}
		uv(flags)
		for _, p := range nd.Parents {
			uv(uint64(rank) - uint64(g.Rank(p))) // parents come first, so the distance is positive
		}
	}
	for _, x := range ranksByHash(g, order) {
		b.Write(binary.LittleEndian.AppendUint32(tmp[:0], x))
	}
	uv(uint64(len(tips)))
	for _, t := range tips {
		b.Write(append(tmp[:0], t[:]...))
	}
	// The word section is most of the work of a first run's index (a real history has hundreds of thousands of
	// words: bug numbers, versions, abbreviated commit ids): it is sorted and encoded in two parts, one a core,
	// the first straight into the file. The parts are split around a pivot and sorted in place: sorting two
	// halves and merging them took a second array of the words, and the first part was a buffer of its own,
	// beside the history's graph at the heap's peak.
	type posting struct {
		word string
		num  int32
	}
	words := make([]posting, 0, len(postings.at))
	for w, i := range postings.at {
		words = append(words, posting{w, i})
	}
	postings.at = nil // the words' numbers are all that is used from here: the map can go
	mid := splitSorted(words, func(p posting) string { return p.word })
	parts := [2][]posting{words[:mid], words[mid:]}
	uv(uint64(len(words)))
	var second bytes.Buffer
	parallel.Each(2, 2, func(_, h int) {
		slices.SortFunc(parts[h], func(a, c posting) int { return strings.Compare(a.word, c.word) })
		var out interface {
			io.Writer
			io.StringWriter
		} = b
		if h == 1 {
			out = &second
		}
		var tmp [binary.MaxVarintLen64]byte
		var list bytes.Buffer
		var ranks []uint32
		for _, p := range parts[h] {
			ranks = ranks[:0]
			postings.each(p.num, func(old uint32) { ranks = append(ranks, g.Rank(int(old))) })
			slices.Sort(ranks)
			ranks = slices.Compact(ranks)
			list.Reset()
			prev := uint64(0)
			for _, r := range ranks {
				list.Write(tmp[:binary.PutUvarint(tmp[:], uint64(r)-prev)])
				prev = uint64(r)
			}
			// Neither can fail here: a bytes.Buffer does not, and the bufio.Writer keeps its first error for
			// the Flush below.
			_, _ = out.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(p.word)))])
			_, _ = out.WriteString(p.word)
			_, _ = out.Write(tmp[:binary.PutUvarint(tmp[:], uint64(len(ranks)))])
			_, _ = out.Write(tmp[:binary.PutUvarint(tmp[:], uint64(list.Len()))])
			_, _ = out.Write(list.Bytes())
		}
	})
	b.Write(second.Bytes())
	if err := b.Flush(); err != nil {
		return err
	}
	_, err := out.Write(indexSumBytes(sum))
	return err
}

// indexSumSize is the length of the checksum that ends an index file.
const indexSumSize = 4

// indexSum is the checksum that ends an index file: CRC-32 (IEEE) of everything before it, little-endian.
// It finds a torn or damaged file, which is then rebuilt. It is no defence against someone who writes the file on
// purpose, and needs none: whoever can write .git can change history itself, and the index never decides a
// match (every candidate is read and judged again). A sha256 here was a third of a warm run's CPU on 70,000
// commits; CRC-32 runs at memory speed. IEEE's and not Castagnoli's (version 3): on amd64 Go builds
// Castagnoli's SSE4.2 tables on first use, 0.2 ms of every warm run (7% of one on go-git), IEEE's in 25 µs,
// and IEEE's carry-less multiply is also the faster of the two (6.4 ms against 10 ms for 50 MB).
func indexSum(body []byte) []byte {
	h := newIndexSum()
	h.Write(body)
	return indexSumBytes(h)
}

// newIndexSum starts an index file's checksum (indexSum) over what is written to it.
func newIndexSum() hash.Hash32 { return crc32.NewIEEE() }

// indexSumBytes is the checksum as the file ends with it: little-endian (hash.Hash32's Sum is big-endian).
func indexSumBytes(h hash.Hash32) []byte { return binary.LittleEndian.AppendUint32(nil, h.Sum32()) }

// ranksByHash lists the ranks of g's nodes sorted by their commit's hash. It sorts each hash's first eight bytes
// with the rank beside it, which compares as one integer: a sort that compared whole hashes through two
// indirections was a quarter of a first run's index writing.
func ranksByHash(g *gitext.Graph, order []int) []uint32 {
	type keyed struct {
		prefix uint64
		rank   uint32
	}
	keys := make([]keyed, len(order))
	for rank, old := range order {
		h := g.Node(old).Hash
		keys[rank] = keyed{binary.BigEndian.Uint64(h[:8]), uint32(rank)}
	}
	slices.SortFunc(keys, func(a, c keyed) int {
		if a.prefix != c.prefix {
			return cmp.Compare(a.prefix, c.prefix)
		}
		ha, hc := g.Node(order[a.rank]).Hash, g.Node(order[c.rank]).Hash
		return bytes.Compare(ha[8:], hc[8:])
	})
	out := make([]uint32, len(keys))
	for i, k := range keys {
		out[i] = k.rank
	}
	return out
}

// splitSorted reorders s, whose keys are distinct, so that the keys of s[:mid] all sort before those of s[mid:],
// and returns mid, about half of len(s): the pivot is the median of a sample. Each side can then be sorted on
// its own core, in place.
func splitSorted[T any](s []T, key func(T) string) (mid int) {
	if len(s) < 2 {
		return 0
	}
	const samples = 63
	step := max(1, len(s)/samples)
	var sample []string
	for i := 0; i < len(s); i += step {
		sample = append(sample, key(s[i]))
	}
	slices.Sort(sample)
	pivot := sample[len(sample)/2]
	for i := range s {
		if key(s[i]) < pivot {
			s[mid], s[i] = s[i], s[mid]
			mid++
		}
	}
	return mid
}

var errBadIndex = errors.New("ticket index is corrupt")

// decodeIndex checks and loads an index file. Any inconsistency is errBadIndex: the caller rebuilds. The
// decoding is bounded on its own (every count is checked against the bytes left, every parent against the nodes
// before it), whatever the checksum says.
func decodeIndex(data []byte) (*ticketIndex, error) {
	if len(data) < len(indexMagic)+indexSumSize || string(data[:len(indexMagic)]) != indexMagic {
		return nil, errBadIndex
	}
	body := data[:len(data)-indexSumSize]
	if !bytes.Equal(indexSum(body), data[len(body):]) {
		return nil, errBadIndex
	}
	ix, ok := decodeIndexBody(body[len(indexMagic):])
	if !ok {
		return nil, errBadIndex
	}
	return ix, nil
}

// decodeIndexBody decodes what follows the magic; false when it is not a well-formed index.
func decodeIndexBody(b []byte) (*ticketIndex, bool) {
	pos := 0
	// uv and sv read a varint at pos; ok turns false for good at the first one that is cut short or too long.
	ok := true
	uv := func() uint64 {
		if pos < len(b) && b[pos] < 0x80 { // one byte: nearly every flag and parent distance
			pos++
			return uint64(b[pos-1])
		}
		x, k := binary.Uvarint(b[min(pos, len(b)):])
		if k <= 0 {
			ok = false
			return 0
		}
		pos += k
		return x
	}
	sv := func() int64 {
		x, k := binary.Varint(b[min(pos, len(b)):])
		if k <= 0 {
			ok = false
			return 0
		}
		pos += k
		return x
	}
	n := uv()
	// Each node takes at least 22 bytes (hash, time, flags) and 4 more in the hash table.
	if !ok || n > uint64(len(b)-pos)/26 {
		return nil, false
	}
	// Room for the commits a merge adds: the walk that extends the graph appends there (gitext.WalkFrom).
	nodes := make([]gitext.Node, n, n+n/64+64)
	// All parent lists share one array: one allocation, not one a commit. Each list's capacity is its length,
	// so a walk that grows the graph copies instead of writing into its neighbour's list.
	parents := make([]int, 0, n+n/4+1)
	for i := range nodes {
		nd := &nodes[i]
		if len(b)-pos < 20 {
			return nil, false
		}
		copy(nd.Hash[:], b[pos:pos+20])
		pos += 20
		nd.When = sv()
		flags := uv()
		nd.Shallow = flags&1 == 1
		np := flags >> 1
		if np > 0 {
			if np > uint64(len(b)-pos) { // each distance takes a byte at least
				return nil, false
			}
			start := len(parents)
			for range np {
				dist := uv()
				if dist == 0 || dist > uint64(i) {
					return nil, false
				}
				parents = append(parents, i-int(dist))
			}
			nd.Parents = parents[start:len(parents):len(parents)]
		}
		if !ok {
			return nil, false
		}
	}
	if uint64(len(b)-pos)/4 < n {
		return nil, false
	}
	byHash := make([]uint32, n)
	for i := range byHash {
		byHash[i] = binary.LittleEndian.Uint32(b[pos+4*i:])
	}
	pos += 4 * int(n)
	g, valid := gitext.NewGraph(nodes, byHash)
	if !valid {
		return nil, false
	}
	nt := uv()
	if !ok || nt > uint64(len(b)-pos)/20 {
		return nil, false
	}
	tips := make([]gitext.Hash, nt)
	for i := range tips {
		copy(tips[i][:], b[pos:pos+20])
		pos += 20
	}
	return &ticketIndex{g: g, tips: tips, words: b[pos:]}, true
}

// postings returns, for each of words, the sorted node numbers whose message has it (nil for a word the index
// lacks); ok is false when the word section is corrupt. It is one pass over the section for all the words, with
// no copy of the words it passes, and it stops after the last word asked about: the words are sorted, which it
// checks as far as it reads (a file out of order there is corrupt). Past that point only a forged file, one
// with a valid checksum, could hide a word, as it could by leaving a commit out of a posting list.
func (ix *ticketIndex) postings(words ...string) ([][]int, bool) {
	out := make([][]int, len(words))
	wanted := slices.Clone(words)
	slices.Sort(wanted)
	wanted = slices.Compact(wanted) // an id may repeat a word: 42-42
	lists := make([][]int, len(wanted))
	d := &decoder{b: ix.words}
	nw := d.uv()
	var prev []byte
	next := 0 // the first wanted word not passed yet: the section and wanted are both sorted, so one merge
	for k := uint64(0); k < nw && d.err == nil && next < len(wanted); k++ {
		w := d.take(int(d.uv()))
		count := d.uv()
		list := d.take(int(d.uv()))
		if d.err != nil || (k > 0 && bytes.Compare(prev, w) >= 0) {
			return nil, false
		}
		prev = w
		for next < len(wanted) && wanted[next] < string(w) {
			next++ // a word the index lacks
		}
		if next == len(wanted) || wanted[next] != string(w) {
			continue
		}
		if count > uint64(len(list)) { // each posting takes at least one byte
			return nil, false
		}
		ld := &decoder{b: list}
		ns := make([]int, 0, count)
		p := uint64(0)
		for c := uint64(0); c < count; c++ {
			p += ld.uv()
			if ld.err != nil || p >= uint64(ix.g.Len()) {
				return nil, false
			}
			ns = append(ns, int(p))
		}
		lists[next] = ns
		next++
	}
	if d.err != nil {
		return nil, false
	}
	for k, w := range words {
		at, _ := slices.BinarySearch(wanted, w)
		out[k] = lists[at]
	}
	return out, true
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uv() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errBadIndex
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.err = errBadIndex
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

// Preloaded is the ticket index read ahead of a listing (Preload), for Options.Index: a caller that waits for
// something else first (the front waits for git config) reads it meanwhile.
type Preloaded struct {
	ix  *ticketIndex
	err error
}

// Preload reads r's ticket index as a listing would (loadIndex), to give it in Options.Index.
func Preload(r *gitext.Repo) *Preloaded {
	ix, err := loadIndex(r)
	return &Preloaded{ix, err}
}

// load is the index p preloaded, or, with none, the index read now.
func (p *Preloaded) load(r *gitext.Repo) (*ticketIndex, error) {
	if p == nil {
		return loadIndex(r)
	}
	return p.ix, p.err
}

// loadIndex reads the index; (nil, nil) when there is none or it must be rebuilt.
func loadIndex(r *gitext.Repo) (*ticketIndex, error) {
	data, err := readIndexFile(IndexPath(r))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read ticket index %s: %w (delete it to rebuild)", IndexPath(r), err)
	}
	ix, err := decodeIndex(data)
	if err != nil {
		return nil, nil
	}
	// The word section is kept as bytes: a slice of data, which is memory of our own (readIndexFile).
	return ix, nil
}

// saveIndex writes the index atomically. Failing to write it is not an error of the command: the answer is
// right without it, so the caller only warns.
func saveIndex(r *gitext.Repo, g *gitext.Graph, tips []gitext.Tip, postings *postingLists) error {
	path := IndexPath(r)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	seen := map[gitext.Hash]bool{}
	var hs []gitext.Hash
	for _, t := range tips {
		if !seen[t.Commit] {
			seen[t.Commit] = true
			hs = append(hs, t.Commit)
		}
	}
	return atomicfile.Write(path, 0o644, false, func(w io.Writer) error {
		return writeIndex(w, g, hs, postings)
	})
}

// ticketWords are the index words of a ticket id; empty when the id has none and the index cannot help.
func ticketWords(id string) []string {
	var out []string
	IndexWords(id, func(w string) { out = append(out, w) })
	if !utf8.ValidString(id) {
		return nil
	}
	return out
}

// allPostings decodes every word's postings (for rewriting the index after new commits).
func (ix *ticketIndex) allPostings() (*postingLists, bool) {
	out := newPostingLists()
	d := &decoder{b: ix.words}
	nw := d.uv()
	for k := uint64(0); k < nw && d.err == nil; k++ {
		w := string(d.take(int(d.uv())))
		count := d.uv()
		ld := &decoder{b: d.take(int(d.uv()))}
		if d.err != nil || count > uint64(len(ld.b)) {
			return nil, false
		}
		if _, dup := out.at[w]; dup {
			return nil, false
		}
		i := out.word(w)
		prev := uint64(0)
		for c := uint64(0); c < count; c++ {
			prev += ld.uv()
			if ld.err != nil || prev >= uint64(ix.g.Len()) {
				return nil, false
			}
			out.addTo(i, uint32(prev))
		}
	}
	return out, d.err == nil
}
