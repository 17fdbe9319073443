package patch

import (
	"bufio"
	"strconv"
	"strings"
)

// contextLines is git's default -U3.
const contextLines = 3

// funcLineMax is the size of xdiff's function-name buffer (xemit.c struct func_line); longer names are cut.
const funcLineMax = 80

// textDiff is one file pair's line diff: both sides' lines and git's edit script between them.
type textDiff struct {
	old, new *xdfile
	script   []xchange
}

func diffText(oldText, newText string) textDiff {
	a, b, script := xdiff(splitLines(oldText), splitLines(newText))
	return textDiff{old: a, new: b, script: script}
}

// counts is the diffstat's added and deleted line counts.
func (d textDiff) counts() (added, deleted int) {
	for _, c := range d.script {
		added += c.chg2
		deleted += c.chg1
	}
	return added, deleted
}

// writeHunks prints the unified hunks as xdl_emit_diff does: changes at most 2×3 unchanged lines apart share a
// hunk (xdl_get_hunk), context comes from the new side, and each header names the function line found by ff,
// searched backwards from the line above the hunk down to the previous hunk's search start and remembered
// across hunks when none is found (get_func_line with funclineprev).
func writeHunks(w *bufio.Writer, d textDiff, ff funcFinder) {
	x1, x2 := d.old, d.new
	funcPrev := -1
	var funcText string
	for k := 0; k < len(d.script); {
		first := k
		last := k
		for last+1 < len(d.script) {
			next, prev := d.script[last+1], d.script[last]
			if next.i1-(prev.i1+prev.chg1) > 2*contextLines {
				break
			}
			last++
		}
		xch, xche := d.script[first], d.script[last]
		s1 := max(xch.i1-contextLines, 0)
		s2 := max(xch.i2-contextLines, 0)
		lctx := min(contextLines, x1.nrec()-(xche.i1+xche.chg1), x2.nrec()-(xche.i2+xche.chg2))
		e1 := xche.i1 + xche.chg1 + lctx
		e2 := xche.i2 + xche.chg2 + lctx

		for l := s1 - 1; l != funcPrev && l >= 0 && l < x1.nrec(); l-- {
			if f, ok := ff.find(x1.recs[l]); ok {
				funcText = f
				break
			}
		}
		funcPrev = s1 - 1

		w.WriteString("@@ -")
		writeRange(w, s1+1, e1-s1)
		w.WriteString(" +")
		writeRange(w, s2+1, e2-s2)
		w.WriteString(" @@")
		if funcText != "" {
			w.WriteByte(' ')
			w.WriteString(funcText)
		}
		w.WriteByte('\n')

		for ; s2 < xch.i2; s2++ {
			writeLine(w, ' ', x2.recs[s2])
		}
		for c := first; c <= last; c++ {
			ch := d.script[c]
			for ; s2 < ch.i2; s2++ {
				writeLine(w, ' ', x2.recs[s2])
			}
			for i := ch.i1; i < ch.i1+ch.chg1; i++ {
				writeLine(w, '-', x1.recs[i])
			}
			for i := ch.i2; i < ch.i2+ch.chg2; i++ {
				writeLine(w, '+', x2.recs[i])
			}
			s2 = ch.i2 + ch.chg2
		}
		for ; s2 < e2; s2++ {
			writeLine(w, ' ', x2.recs[s2])
		}
		k = last + 1
	}
}

func writeLine(w *bufio.Writer, kind byte, text string) {
	w.WriteByte(kind)
	w.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

// writeRange prints "start,count" as xdl_format_hunk_hdr does: the count is left out when it is 1, and an
// empty side names the line before it (so a new file reads -0,0).
func writeRange(w *bufio.Writer, start, count int) {
	if count == 0 {
		start--
	}
	w.WriteString(strconv.Itoa(start))
	if count != 1 {
		w.WriteByte(',')
		w.WriteString(strconv.Itoa(count))
	}
}
