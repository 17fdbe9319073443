package patch

import (
	"bufio"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// contextLines is git's default -U3.
const contextLines = 3

// funcLineMax is the size of xdiff's function-name buffer; longer lines are cut.
const funcLineMax = 80

// lineOp is one line of the edit script: ' ' kept, '-' removed, '+' added. text keeps its "\n" unless it is
// the last line of a file that lacks one.
type lineOp struct {
	kind byte
	text string
}

// editScript diffs two texts line by line with go-git's Myers diff and returns the script with every run of
// changes ordered removals first, as git prints them.
func editScript(oldText, newText string) (ops []lineOp, oldLines []string) {
	for _, d := range diff.Do(oldText, newText) {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		for rest := d.Text; rest != ""; {
			n := strings.IndexByte(rest, '\n') + 1
			if n == 0 {
				n = len(rest)
			}
			ops = append(ops, lineOp{kind: kind, text: rest[:n]})
			if kind != '+' {
				oldLines = append(oldLines, rest[:n])
			}
			rest = rest[n:]
		}
	}
	// Stable partition of each change run; oldLines is unaffected since '-' lines keep their order.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		run := make([]lineOp, 0, j-i)
		for _, op := range ops[i:j] {
			if op.kind == '-' {
				run = append(run, op)
			}
		}
		for _, op := range ops[i:j] {
			if op.kind == '+' {
				run = append(run, op)
			}
		}
		copy(ops[i:j], run)
		i = j
	}
	return ops, oldLines
}

func hasChanges(ops []lineOp) bool {
	for _, op := range ops {
		if op.kind != ' ' {
			return true
		}
	}
	return false
}

// writeHunks prints the unified hunks of ops with 3 lines of context, merging changes that are at most 6
// unchanged lines apart (xdiff's xdl_get_hunk), and headers as xdl_emit_hunk_hdr writes them.
func writeHunks(w *bufio.Writer, ops []lineOp, oldLines []string) {
	// Lines of each side before op i, to number the hunks.
	oldBefore := make([]int, len(ops)+1)
	newBefore := make([]int, len(ops)+1)
	for i, op := range ops {
		oldBefore[i+1], newBefore[i+1] = oldBefore[i], newBefore[i]
		if op.kind != '+' {
			oldBefore[i+1]++
		}
		if op.kind != '-' {
			newBefore[i+1]++
		}
	}
	funcs := funcLine{prev: -1}
	for i := 0; i < len(ops); {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			return
		}
		start := max(i-contextLines, 0)
		last := i
		for j := i; j < len(ops); {
			if ops[j].kind != ' ' {
				last = j
				j++
				continue
			}
			k := j
			for k < len(ops) && ops[k].kind == ' ' {
				k++
			}
			if k == len(ops) || k-j > 2*contextLines {
				break
			}
			j = k
		}
		end := min(last+contextLines+1, len(ops))

		oldStart, oldCount := oldBefore[start], oldBefore[end]-oldBefore[start]
		newStart, newCount := newBefore[start], newBefore[end]-newBefore[start]
		w.WriteString("@@ -")
		writeRange(w, oldStart, oldCount)
		w.WriteString(" +")
		writeRange(w, newStart, newCount)
		w.WriteString(" @@")
		if f := funcs.find(oldLines, oldStart-1); f != "" {
			w.WriteByte(' ')
			w.WriteString(f)
		}
		w.WriteByte('\n')
		for _, op := range ops[start:end] {
			w.WriteByte(op.kind)
			w.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				w.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
}

// writeRange prints "start,count" with git's rules: the count is left out when it is 1, and an empty side
// names the line before it (so a new file reads -0,0).
func writeRange(w *bufio.Writer, before, count int) {
	if count == 0 {
		w.WriteString(strconv.Itoa(before))
	} else {
		w.WriteString(strconv.Itoa(before + 1))
	}
	if count != 1 {
		w.WriteByte(',')
		w.WriteString(strconv.Itoa(count))
	}
}

// funcLine reproduces xdiff's default hunk-header function name (xemit.c get_func_line with def_ff): the
// nearest preceding old line that starts with a letter, '_' or '$', searched back only as far as the previous
// hunk's search, and remembered across hunks.
type funcLine struct {
	prev int
	text string
}

func (f *funcLine) find(oldLines []string, start int) string {
	for l := start; l > f.prev && l >= 0; l-- {
		if line := oldLines[l]; line != "" && isFuncStart(line[0]) {
			line = line[:min(len(line), funcLineMax)]
			f.text = strings.TrimRight(line, " \t\n\v\f\r")
			break
		}
	}
	f.prev = start
	return f.text
}

func isFuncStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}
