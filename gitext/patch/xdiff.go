package patch

// A port of git's xdiff (xprepare.c, xdiffi.c) for the one configuration format-patch uses: the Myers
// algorithm with xdiff's own heuristics (lines with no match discarded before the search, the cost limit
// that ends the search at sqrt of the size, the snake heuristic), then xdl_change_compact with the indent
// heuristic. Any diff is a valid diff; git's is the one a reader has already seen, and hunks land where it puts
// them only if every one of those steps is the same, so this is a line-for-line port rather than a library
// (go-git's and sergi/go-diff's Myers find other, equally short, scripts). See doc.go.

import (
	"strings"
	"sync"
)

const (
	xdlMaxCostMin   = 256
	xdlHeurMinCost  = 256
	xdlSnakeCnt     = 20
	xdlKHeur        = 4
	xdlKPDisRun     = 4
	xdlMaxEqLimit   = 1024
	xdlSimScanWin   = 100
	xdlLineMax      = int(^uint(0) >> 1)
	maxIndent       = 200
	maxBlanks       = 20
	indentMaxSlide  = 100
	indentWeight    = 60
	startOfFilePen  = 1
	endOfFilePen    = 21
	totalBlankW     = -30
	postBlankW      = 6
	relIndentPen    = -4
	relIndentBlank  = 10
	relOutdentPen   = 24
	relOutdentBlank = 17
	relDedentPen    = 23
	relDedentBlank  = 17
)

// xdfile is one side: its lines (with their "\n"), their equivalence classes, and which are changed.
type xdfile struct {
	recs   []string
	ha     []int
	rchg   []bool // index i+1 is line i; the ends are sentinels that are never changed
	rindex []int  // lines kept for the search, by position among them
	hreff  []int  // their classes
	dstart int
	dend   int
}

func (x *xdfile) changed(i int) bool  { return i >= -1 && i <= len(x.recs) && x.rchg[i+1] }
func (x *xdfile) set(i int, v bool)   { x.rchg[i+1] = v }
func (x *xdfile) nrec() int           { return len(x.recs) }
func (x *xdfile) match(i, j int) bool { return x.ha[i] == x.ha[j] }

// xchange is a run of changed lines: chg1 lines at i1 in the old side replaced by chg2 lines at i2 in the new.
type xchange struct {
	i1, i2, chg1, chg2 int
}

// splitLines cuts a text into records as xdl_hash_record does: each ends after its "\n", the last maybe not.
func splitLines(s string) []string {
	lines := make([]string, 0, len(s)/32+1)
	for len(s) > 0 {
		n := indexNL(s) + 1
		if n == 0 {
			n = len(s)
		}
		lines = append(lines, s[:n])
		s = s[n:]
	}
	return lines
}

// indexNL is strings.IndexByte for '\n', which is vectorised: a byte loop here was a tenth of the patch ids'
// time on Kafka's tied commits.
func indexNL(s string) int { return strings.IndexByte(s, '\n') }

// xdiff returns git's edit script between two line lists (xdl_do_diff, both xdl_change_compact passes,
// xdl_build_script).
func xdiff(a, b []string) (x1, x2 *xdfile, script []xchange) {
	x1, x2 = &xdfile{recs: a}, &xdfile{recs: b}
	classes := classesPool.Get().(map[string]int)
	defer func() {
		if len(classes) <= maxPooledClasses {
			clear(classes)
			classesPool.Put(classes)
		}
	}()
	var len1, len2 []int
	classify := func(x *xdfile, pass int) {
		x.ha = make([]int, len(x.recs))
		for i, r := range x.recs {
			c, ok := classes[r]
			if !ok {
				c = len(len1)
				classes[r] = c
				len1, len2 = append(len1, 0), append(len2, 0)
			}
			if pass == 1 {
				len1[c]++
			} else {
				len2[c]++
			}
			x.ha[i] = c
		}
		x.rchg = make([]bool, len(x.recs)+2)
	}
	classify(x1, 1)
	classify(x2, 2)
	trimEnds(x1, x2)
	cleanupRecords(x1, x2, len1, len2)

	n1, n2 := len(x1.rindex), len(x2.rindex)
	ndiags := n1 + n2 + 3
	kvd := make([]int, 2*ndiags+2)
	e := &xenv{
		kvdf: kvd[:ndiags], kvdb: kvd[ndiags:], off: n2 + 1,
		mxcost: max(bogosqrt(ndiags), xdlMaxCostMin),
	}
	e.recsCmp(x1, 0, n1, x2, 0, n2, false)
	changeCompact(x1, x2)
	changeCompact(x2, x1)
	return x1, x2, buildScript(x1, x2)
}

// classesPool holds the line-class maps of finished diffs: a map made for each file pair was a third of what a
// first run of commits allocated on Kafka (its tied commits' 319 files, some of thousands of lines; 218 MB in all
// before, 146 MB after). A map that grew past maxPooledClasses is dropped rather than kept, since clearing costs
// its size on every later use.
var classesPool = sync.Pool{New: func() any { return map[string]int{} }}

const maxPooledClasses = 1 << 16

func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// trimEnds is xdl_trim_ends: equal lines at both ends are left out of the search.
func trimEnds(x1, x2 *xdfile) {
	lim := min(x1.nrec(), x2.nrec())
	i := 0
	for ; i < lim && x1.ha[i] == x2.ha[i]; i++ {
	}
	x1.dstart, x2.dstart = i, i
	lim -= i
	j := 0
	for ; j < lim && x1.ha[x1.nrec()-1-j] == x2.ha[x2.nrec()-1-j]; j++ {
	}
	x1.dend = x1.nrec() - j - 1
	x2.dend = x2.nrec() - j - 1
}

// cleanupRecords is xdl_cleanup_records: a line with no match on the other side is changed for sure and left
// out of the search; so is one with very many matches amid such lines.
func cleanupRecords(x1, x2 *xdfile, len1, len2 []int) {
	mark := func(x *xdfile, other []int) {
		mlim := min(bogosqrt(x.nrec()), xdlMaxEqLimit)
		dis := make([]byte, x.nrec()+1)
		for i := x.dstart; i <= x.dend; i++ {
			nm := other[x.ha[i]]
			switch {
			case nm == 0:
				dis[i] = 0
			case nm >= mlim:
				dis[i] = 2
			default:
				dis[i] = 1
			}
		}
		for i := x.dstart; i <= x.dend; i++ {
			if dis[i] == 1 || dis[i] == 2 && !cleanMMatch(dis, i, x.dstart, x.dend) {
				x.rindex = append(x.rindex, i)
				x.hreff = append(x.hreff, x.ha[i])
			} else {
				x.set(i, true)
			}
		}
	}
	mark(x1, len2)
	mark(x2, len1)
}

func cleanMMatch(dis []byte, i, s, e int) bool {
	if i-s > xdlSimScanWin {
		s = i - xdlSimScanWin
	}
	if e-i > xdlSimScanWin {
		e = i + xdlSimScanWin
	}
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*xdlKPDisRun < rpdis1+rdis1
}

// xenv holds the forward and backward diagonal vectors, indexed by diagonal + off.
type xenv struct {
	kvdf, kvdb []int
	off        int
	mxcost     int
}

type split struct {
	i1, i2       int
	minLo, minHi bool
}

// xsplit is xdl_split: the middle snake of the box, or a good-enough point once the cost grows too high.
func (e *xenv) xsplit(ha1 []int, off1, lim1 int, ha2 []int, off2, lim2 int, needMin bool) split {
	kf := func(d int) *int { return &e.kvdf[d+e.off] }
	kb := func(d int) *int { return &e.kvdb[d+e.off] }
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	*kf(fmid) = off1
	*kb(bmid) = lim1
	for ec := 1; ; ec++ {
		gotSnake := false
		if fmin > dmin {
			fmin--
			*kf(fmin - 1) = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			*kf(fmax + 1) = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			var i1 int
			if *kf(d - 1) >= *kf(d + 1) {
				i1 = *kf(d - 1) + 1
			} else {
				i1 = *kf(d + 1)
			}
			prev1 := i1
			i2 := i1 - d
			for i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
				i1++
				i2++
			}
			if i1-prev1 > xdlSnakeCnt {
				gotSnake = true
			}
			*kf(d) = i1
			if odd && bmin <= d && d <= bmax && *kb(d) <= i1 {
				return split{i1, i2, true, true}
			}
		}
		if bmin > dmin {
			bmin--
			*kb(bmin - 1) = xdlLineMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			*kb(bmax + 1) = xdlLineMax
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			var i1 int
			if *kb(d - 1) < *kb(d + 1) {
				i1 = *kb(d - 1)
			} else {
				i1 = *kb(d + 1) - 1
			}
			prev1 := i1
			i2 := i1 - d
			for i1 > off1 && i2 > off2 && ha1[i1-1] == ha2[i2-1] {
				i1--
				i2--
			}
			if prev1-i1 > xdlSnakeCnt {
				gotSnake = true
			}
			*kb(d) = i1
			if !odd && fmin <= d && d <= fmax && i1 <= *kf(d) {
				return split{i1, i2, true, true}
			}
		}
		if needMin {
			continue
		}
		if gotSnake && ec > xdlHeurMinCost {
			best := 0
			var sp split
			for d := fmax; d >= fmin; d -= 2 {
				dd := d - fmid
				if dd < 0 {
					dd = -dd
				}
				i1 := *kf(d)
				i2 := i1 - d
				v := (i1 - off1) + (i2 - off2) - dd
				if v > xdlKHeur*ec && v > best && off1+xdlSnakeCnt <= i1 && i1 < lim1 &&
					off2+xdlSnakeCnt <= i2 && i2 < lim2 {
					for k := 1; ha1[i1-k] == ha2[i2-k]; k++ {
						if k == xdlSnakeCnt {
							best = v
							sp.i1, sp.i2 = i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				sp.minLo, sp.minHi = true, false
				return sp
			}
			for d := bmax; d >= bmin; d -= 2 {
				dd := d - bmid
				if dd < 0 {
					dd = -dd
				}
				i1 := *kb(d)
				i2 := i1 - d
				v := (lim1 - i1) + (lim2 - i2) - dd
				if v > xdlKHeur*ec && v > best && off1 < i1 && i1 <= lim1-xdlSnakeCnt &&
					off2 < i2 && i2 <= lim2-xdlSnakeCnt {
					for k := 0; ha1[i1+k] == ha2[i2+k]; k++ {
						if k == xdlSnakeCnt-1 {
							best = v
							sp.i1, sp.i2 = i1, i2
							break
						}
					}
				}
			}
			if best > 0 {
				sp.minLo, sp.minHi = false, true
				return sp
			}
		}
		if ec >= e.mxcost {
			fbest, fbest1 := -1, -1
			for d := fmax; d >= fmin; d -= 2 {
				i1 := min(*kf(d), lim1)
				i2 := i1 - d
				if lim2 < i2 {
					i1, i2 = lim2+d, lim2
				}
				if fbest < i1+i2 {
					fbest, fbest1 = i1+i2, i1
				}
			}
			bbest, bbest1 := xdlLineMax, xdlLineMax
			for d := bmax; d >= bmin; d -= 2 {
				i1 := max(off1, *kb(d))
				i2 := i1 - d
				if i2 < off2 {
					i1, i2 = off2+d, off2
				}
				if i1+i2 < bbest {
					bbest, bbest1 = i1+i2, i1
				}
			}
			if (lim1+lim2)-bbest < fbest-(off1+off2) {
				return split{fbest1, fbest - fbest1, true, false}
			}
			return split{bbest1, bbest - bbest1, false, true}
		}
	}
}

// recsCmp is xdl_recs_cmp: divide at the middle snake and conquer both halves.
func (e *xenv) recsCmp(x1 *xdfile, off1, lim1 int, x2 *xdfile, off2, lim2 int, needMin bool) {
	ha1, ha2 := x1.hreff, x2.hreff
	for off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
		off1++
		off2++
	}
	for off1 < lim1 && off2 < lim2 && ha1[lim1-1] == ha2[lim2-1] {
		lim1--
		lim2--
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			x2.set(x2.rindex[off2], true)
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			x1.set(x1.rindex[off1], true)
		}
	default:
		sp := e.xsplit(ha1, off1, lim1, ha2, off2, lim2, needMin)
		e.recsCmp(x1, off1, sp.i1, x2, off2, sp.i2, sp.minLo)
		e.recsCmp(x1, sp.i1, lim1, x2, sp.i2, lim2, sp.minHi)
	}
}

// group is a run of changed lines [start, end) in one side (xdlgroup); empty between unchanged lines.
type group struct{ start, end int }

func groupInit(x *xdfile) group {
	g := group{}
	for x.changed(g.end) {
		g.end++
	}
	return g
}

func (g *group) next(x *xdfile) bool {
	if g.end == x.nrec() {
		return false
	}
	g.start = g.end + 1
	for g.end = g.start; x.changed(g.end); g.end++ {
	}
	return true
}

func (g *group) previous(x *xdfile) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	for g.start = g.end; x.changed(g.start - 1); g.start-- {
	}
	return true
}

func (g *group) slideDown(x *xdfile) bool {
	if g.end < x.nrec() && x.match(g.start, g.end) {
		x.set(g.start, false)
		g.start++
		x.set(g.end, true)
		g.end++
		for x.changed(g.end) {
			g.end++
		}
		return true
	}
	return false
}

func (g *group) slideUp(x *xdfile) bool {
	if g.start > 0 && x.match(g.start-1, g.end-1) {
		g.start--
		x.set(g.start, true)
		g.end--
		x.set(g.end, false)
		for x.changed(g.start - 1) {
			g.start--
		}
		return true
	}
	return false
}

// changeCompact is xdl_change_compact with XDF_INDENT_HEURISTIC (diff.indentHeuristic, on by default).
func changeCompact(x, xo *xdfile) {
	g, gO := groupInit(x), groupInit(xo)
	for {
		if g.end != g.start {
			var groupsize, earliestEnd, endMatchingOther int
			for {
				groupsize = g.end - g.start
				endMatchingOther = -1
				for g.slideUp(x) {
					gO.previous(xo)
				}
				earliestEnd = g.end
				if gO.end > gO.start {
					endMatchingOther = g.end
				}
				for g.slideDown(x) {
					gO.next(xo)
					if gO.end > gO.start {
						endMatchingOther = g.end
					}
				}
				if groupsize == g.end-g.start {
					break
				}
			}
			switch {
			case g.end == earliestEnd:
			case endMatchingOther != -1:
				for gO.end == gO.start {
					g.slideUp(x)
					gO.previous(xo)
				}
			default:
				shift := earliestEnd
				if g.end-groupsize-1 > shift {
					shift = g.end - groupsize - 1
				}
				if g.end-indentMaxSlide > shift {
					shift = g.end - indentMaxSlide
				}
				bestShift := -1
				var best splitScore
				for ; shift <= g.end; shift++ {
					var s splitScore
					s.add(measureSplit(x, shift))
					s.add(measureSplit(x, shift-groupsize))
					if bestShift == -1 || s.cmp(best) <= 0 {
						best, bestShift = s, shift
					}
				}
				for g.end > bestShift {
					g.slideUp(x)
					gO.previous(xo)
				}
			}
		}
		if !g.next(x) {
			break
		}
		gO.next(xo)
	}
}

func getIndent(rec string) int {
	ret := 0
	for i := 0; i < len(rec); i++ {
		c := rec[i]
		if !isSpace(c) {
			return ret
		}
		if c == ' ' {
			ret++
		} else if c == '\t' {
			ret += 8 - ret%8
		}
		if ret >= maxIndent {
			return maxIndent
		}
	}
	return -1
}

type splitMeasure struct {
	endOfFile, indent, preBlank, preIndent, postBlank, postIndent int
}

func measureSplit(x *xdfile, split int) splitMeasure {
	var m splitMeasure
	if split >= x.nrec() {
		m.endOfFile, m.indent = 1, -1
	} else {
		m.indent = getIndent(x.recs[split])
	}
	m.preIndent = -1
	for i := split - 1; i >= 0; i-- {
		m.preIndent = getIndent(x.recs[i])
		if m.preIndent != -1 {
			break
		}
		m.preBlank++
		if m.preBlank == maxBlanks {
			m.preIndent = 0
			break
		}
	}
	m.postIndent = -1
	for i := split + 1; i < x.nrec(); i++ {
		m.postIndent = getIndent(x.recs[i])
		if m.postIndent != -1 {
			break
		}
		m.postBlank++
		if m.postBlank == maxBlanks {
			m.postIndent = 0
			break
		}
	}
	return m
}

type splitScore struct{ effectiveIndent, penalty int }

func (s *splitScore) add(m splitMeasure) {
	if m.preIndent == -1 && m.preBlank == 0 {
		s.penalty += startOfFilePen
	}
	if m.endOfFile != 0 {
		s.penalty += endOfFilePen
	}
	postBlank := 0
	if m.indent == -1 {
		postBlank = 1 + m.postBlank
	}
	totalBlank := m.preBlank + postBlank
	s.penalty += totalBlankW * totalBlank
	s.penalty += postBlankW * postBlank
	indent := m.indent
	if indent == -1 {
		indent = m.postIndent
	}
	anyBlanks := totalBlank != 0
	s.effectiveIndent += indent
	pick := func(withBlank, without int) int {
		if anyBlanks {
			return withBlank
		}
		return without
	}
	switch {
	case indent == -1, m.preIndent == -1:
	case indent > m.preIndent:
		s.penalty += pick(relIndentBlank, relIndentPen)
	case indent == m.preIndent:
	case m.postIndent != -1 && m.postIndent > indent:
		s.penalty += pick(relOutdentBlank, relOutdentPen)
	default:
		s.penalty += pick(relDedentBlank, relDedentPen)
	}
}

func (s splitScore) cmp(o splitScore) int {
	c := 0
	if s.effectiveIndent > o.effectiveIndent {
		c = 1
	} else if s.effectiveIndent < o.effectiveIndent {
		c = -1
	}
	return indentWeight*c + (s.penalty - o.penalty)
}

// buildScript is xdl_build_script: the runs of changed lines, first to last.
func buildScript(x1, x2 *xdfile) []xchange {
	var rev []xchange
	for i1, i2 := x1.nrec(), x2.nrec(); i1 >= 0 || i2 >= 0; i1, i2 = i1-1, i2-1 {
		if x1.changed(i1-1) || x2.changed(i2-1) {
			l1, l2 := i1, i2
			for x1.changed(i1 - 1) {
				i1--
			}
			for x2.changed(i2 - 1) {
				i2--
			}
			rev = append(rev, xchange{i1, i2, l1 - i1, l2 - i2})
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
