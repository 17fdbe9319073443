package patch

import (
	"path"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Rename and copy detection as git's diffcore-rename.c does it for `git diff -M` / `-C` (diff.renames), without
// the merge-only directory-rename machinery: exact renames first, then files with the same unique basename at
// 75% similarity or more, then the full matrix of remaining sources and destinations, best four candidates a
// destination, stable-sorted by score then by whether basenames agree, taken greedily down to the 50% threshold.

const (
	maxScore           = 60000 // diffcore.h MAX_SCORE
	defaultRenameScore = 30000 // DEFAULT_RENAME_SCORE: -M's 50%
	candidatesPerDst   = 4     // NUM_CANDIDATE_PER_DST
)

// filePair is one entry of the diff queue: an addition, deletion, modification, rename or copy.
type filePair struct {
	from, to side
	status   byte // 'A', 'D', 'M', 'R', 'C'
	score    int  // similarity for R and C, out of maxScore
}

func (p filePair) path() string {
	if p.to.exists() {
		return p.to.path
	}
	return p.from.path
}

// similarity is the percentage git prints (diff.c similarity_index).
func (p filePair) similarity() int { return p.score * 100 / maxScore }

// fileSpec is a source or destination side with what the scoring learns about it.
type fileSpec struct {
	side
	renameUsed int
	loaded     bool
	size       int
	counts     map[uint32]int
}

type renameDst struct {
	pairIdx  int
	src      *fileSpec
	isRename bool
	score    int
}

// detectRenames turns the tree diff's queue (sorted by path) into git's queue after diffcore_rename and
// diff_resolve_rename_copy.
func detectRenames(src objectSource, cfg *settings, queue [][2]side) ([]filePair, error) {
	mode := renamesOn
	limit := 1000
	if cfg != nil {
		mode, limit = cfg.renames, cfg.renameLimit
	}
	copies := mode == renamesAndCopies
	specs := make([]*fileSpec, len(queue)) // the "one" side of each entry, shared when renamed from
	var dsts []*renameDst
	var srcs []*fileSpec
	for i, p := range queue {
		specs[i] = &fileSpec{side: p[0]}
		if mode == renamesOff {
			continue
		}
		switch {
		case !p[0].exists():
			dsts = append(dsts, &renameDst{pairIdx: i})
		case !p[1].exists():
			srcs = append(srcs, specs[i])
		case copies:
			specs[i].renameUsed++
			srcs = append(srcs, specs[i])
		}
	}
	if len(dsts) > 0 && len(srcs) > 0 {
		r := renamer{src: src, cfg: cfg, queue: queue, dsts: dsts, srcs: srcs, copies: copies}
		if err := r.run(limit); err != nil {
			return nil, err
		}
	}

	renamedTo := map[int]*renameDst{}
	for _, d := range dsts {
		if d.isRename {
			renamedTo[d.pairIdx] = d
		}
	}
	// Write back (the end of diffcore_rename): a deletion whose file was renamed or copied from leaves the queue.
	var out []filePair
	var used []*fileSpec
	for i, p := range queue {
		switch {
		case !p[0].exists():
			if d := renamedTo[i]; d != nil {
				out = append(out, filePair{from: d.src.side, to: p[1], score: d.score, status: 'R'})
				used = append(used, d.src)
				continue
			}
			out = append(out, filePair{to: p[1], status: 'A'})
		case !p[1].exists():
			if specs[i].renameUsed > 0 {
				continue
			}
			out = append(out, filePair{from: p[0], status: 'D'})
		default:
			out = append(out, filePair{from: p[0], to: p[1], status: 'M'})
		}
	}
	// diff_resolve_rename_copy: every use of a source but the last in queue order is a copy.
	k := 0
	for i := range out {
		if out[i].status == 'R' {
			s := used[k]
			k++
			s.renameUsed--
			if s.renameUsed > 0 {
				out[i].status = 'C'
			}
		}
	}
	return out, nil
}

type renamer struct {
	src    objectSource
	cfg    *settings
	queue  [][2]side
	dsts   []*renameDst
	srcs   []*fileSpec
	copies bool
	// dstCache keeps each destination's counts across the sources it is scored against.
	dstCache map[string]*fileSpec
}

func (r *renamer) dstSide(d *renameDst) side { return r.queue[d.pairIdx][1] }

func (r *renamer) record(d *renameDst, s *fileSpec, score int) {
	s.renameUsed++
	d.src, d.isRename, d.score = s, true, score
}

func (r *renamer) run(limit int) error {
	// Exact renames (find_exact_renames): the best source with the same blob, preferring unused sources and
	// the same basename; sources are met in their queue order.
	byHash := map[plumbing.Hash][]*fileSpec{}
	for _, s := range r.srcs {
		byHash[s.hash] = append(byHash[s.hash], s)
	}
	for _, d := range r.dsts {
		t := r.dstSide(d)
		var best *fileSpec
		bestScore := -1
		tries := 100
		for _, s := range byHash[t.hash] {
			if (!isRegular(s.mode) || !isRegular(t.mode)) && s.mode != t.mode {
				continue
			}
			score := 0
			if s.renameUsed == 0 {
				score = 1
			}
			if s.renameUsed > 0 && !r.copies {
				continue
			}
			score += basenameSame(s.path, t.path)
			if score > bestScore {
				best, bestScore = s, score
				if score == 2 {
					break
				}
			}
			if tries--; tries == 0 {
				break
			}
		}
		if best != nil {
			r.record(d, best, maxScore)
		}
	}

	if !r.copies {
		r.cullUsedSources()
		if err := r.basenameMatches(defaultRenameScore + (maxScore-defaultRenameScore)/2); err != nil {
			return err
		}
		r.cullUsedSources()
	}
	var left []*renameDst
	for _, d := range r.dsts {
		if !d.isRename {
			left = append(left, d)
		}
	}
	if len(left) == 0 || len(r.srcs) == 0 {
		return nil
	}
	if limit > 0 && len(left)*len(r.srcs) > limit*limit {
		return nil // too_many_rename_candidates: git gives up on inexact renames (and warns)
	}

	type score struct {
		src, dst  int
		score     int
		nameScore int
	}
	mx := make([]score, 0, len(left)*candidatesPerDst)
	// score_compare: unused slots last, then higher score, then same basename first.
	cmp := func(a, b score) int {
		if a.dst < 0 {
			if b.dst >= 0 {
				return 1
			}
			return 0
		}
		if b.dst < 0 {
			return -1
		}
		if a.score == b.score {
			return b.nameScore - a.nameScore
		}
		return b.score - a.score
	}
	for di, d := range left {
		m := [candidatesPerDst]score{{dst: -1}, {dst: -1}, {dst: -1}, {dst: -1}}
		t := r.dstSide(d)
		for si, s := range r.srcs {
			sc, err := r.estimate(s, t, defaultRenameScore)
			if err != nil {
				return err
			}
			o := score{src: si, dst: di, score: sc, nameScore: basenameSame(s.path, t.path)}
			worst := 0
			for i := 1; i < candidatesPerDst; i++ {
				if cmp(m[i], m[worst]) > 0 {
					worst = i
				}
			}
			if cmp(m[worst], o) > 0 {
				m[worst] = o
			}
		}
		mx = append(mx, m[:]...)
	}
	sort.SliceStable(mx, func(i, j int) bool { return cmp(mx[i], mx[j]) < 0 })
	find := func(copies bool) {
		for _, m := range mx {
			if m.dst < 0 || m.score < defaultRenameScore {
				break
			}
			d := left[m.dst]
			if d.isRename {
				continue
			}
			if !copies && r.srcs[m.src].renameUsed > 0 {
				continue
			}
			r.record(d, r.srcs[m.src], m.score)
		}
	}
	find(false)
	if r.copies {
		find(true)
	}
	return nil
}

func (r *renamer) cullUsedSources() {
	kept := r.srcs[:0]
	for _, s := range r.srcs {
		if s.renameUsed == 0 {
			kept = append(kept, s)
		}
	}
	r.srcs = kept
}

// basenameMatches is find_basename_matches: a source and a destination whose basename no other remaining
// source or destination shares are paired when at least minScore similar.
func (r *renamer) basenameMatches(minScore int) error {
	srcByBase := map[string]int{}
	for i, s := range r.srcs {
		b := path.Base(s.path)
		if _, dup := srcByBase[b]; dup {
			srcByBase[b] = -1
		} else {
			srcByBase[b] = i
		}
	}
	dstByBase := map[string]int{}
	for i, d := range r.dsts {
		if d.isRename {
			continue
		}
		b := path.Base(r.dstSide(d).path)
		if _, dup := dstByBase[b]; dup {
			dstByBase[b] = -1
		} else {
			dstByBase[b] = i
		}
	}
	for i, s := range r.srcs {
		b := path.Base(s.path)
		di, ok := dstByBase[b]
		if !ok || srcByBase[b] != i || di == -1 {
			continue
		}
		d := r.dsts[di]
		if d.isRename {
			continue
		}
		sc, err := r.estimate(s, r.dstSide(d), minScore)
		if err != nil {
			return err
		}
		if sc < minScore {
			continue
		}
		r.record(d, s, sc)
	}
	return nil
}

func isRegular(m filemode.FileMode) bool { return m == filemode.Regular || m == filemode.Executable }

// basenameSame is diffcore-rename.c basename_same: 1 when both paths end in the same file name.
func basenameSame(a, b string) int {
	i, j := len(a), len(b)
	for i > 0 && j > 0 {
		i--
		j--
		if a[i] != b[j] {
			return 0
		}
		if a[i] == '/' {
			return 1
		}
	}
	if (i == 0 || a[i-1] == '/') && (j == 0 || b[j-1] == '/') {
		return 1
	}
	return 0
}

// estimate is estimate_similarity: how much of the larger file's bytes the smaller one supplies, out of
// maxScore, or 0 when the sizes alone rule a match out.
func (r *renamer) estimate(s *fileSpec, t side, minScore int) (int, error) {
	if !isRegular(s.mode) || !isRegular(t.mode) {
		return 0, nil
	}
	ts, err := r.spec(t)
	if err != nil {
		return 0, err
	}
	if err := r.load(s); err != nil {
		return 0, err
	}
	maxSize, baseSize := max(s.size, ts.size), min(s.size, ts.size)
	delta := maxSize - baseSize
	if uint64(maxSize)*uint64(maxScore-minScore) < uint64(delta)*maxScore {
		return 0, nil
	}
	copied := 0
	for h, n := range s.counts {
		copied += min(n, ts.counts[h])
	}
	if ts.size == 0 {
		return 0, nil
	}
	return int(uint64(copied) * maxScore / uint64(maxSize)), nil
}

// spec finds (or makes) the fileSpec of a destination side, so its counts are computed once.
func (r *renamer) spec(t side) (*fileSpec, error) {
	if r.dstCache == nil {
		r.dstCache = map[string]*fileSpec{}
	}
	if fs, ok := r.dstCache[t.path]; ok {
		return fs, nil
	}
	fs := &fileSpec{side: t}
	r.dstCache[t.path] = fs
	return fs, r.load(fs)
}

func (r *renamer) load(fs *fileSpec) error {
	if fs.loaded {
		return nil
	}
	data, err := readSide(r.src, fs.side)
	if err != nil {
		return err
	}
	fs.loaded = true
	fs.size = len(data)
	binary := r.cfg.driverFor(fs.side).binary
	if binary == -1 {
		binary = 0
		if isBinaryData(data) {
			binary = 1
		}
	}
	fs.counts = spanCounts(data, binary == 0)
	return nil
}

// spanCounts is diffcore-delta.c hash_chars: the content cut after each "\n" or 64 bytes, each chunk hashed
// to one of 107927 values, counting bytes a value; a last chunk with neither end is not counted, and a text
// file's CR before LF is skipped.
func spanCounts(buf string, text bool) map[uint32]int {
	counts := map[uint32]int{}
	var accum1, accum2 uint32
	n := 0
	for i := 0; i < len(buf); i++ {
		c := uint32(buf[i])
		if text && c == '\r' && i+1 < len(buf) && buf[i+1] == '\n' {
			continue
		}
		old1 := accum1
		accum1 = (accum1 << 7) ^ (accum2 >> 25)
		accum2 = (accum2 << 7) ^ (old1 >> 25)
		accum1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(accum1+accum2*0x61)%107927] += n
		n = 0
		accum1, accum2 = 0, 0
	}
	return counts
}
