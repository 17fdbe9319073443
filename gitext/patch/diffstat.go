package patch

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// statWidth is the diffstat's total width in a patch mail (builtin/log.c MAIL_DEFAULT_WRAP).
const statWidth = 72

// writeDiffstat writes the --stat block format-patch puts under "---" (diff.c show_stats with stat_width 72
// and no graph or name width of its own): one line a file, names cut from the left with "..." when too wide,
// the +/- graph scaled to fit, binaries as "Bin OLD -> NEW bytes", then the totals line.
func writeDiffstat(w *bufio.Writer, queue []filePair, stats []pairStat) {
	var files []pairStat
	for i, st := range stats {
		p := queue[i]
		if p.status == 'M' && st.added == 0 && st.deleted == 0 && p.from.mode == p.to.mode {
			continue // builtin_diffstat drops a modification that changed nothing
		}
		files = append(files, st)
	}
	if len(files) == 0 {
		return
	}
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	for _, f := range files {
		maxLen = max(maxLen, strWidth(f.name))
		if f.binary {
			binWidth = max(binWidth, 14+decimalWidth(f.added)+decimalWidth(f.deleted))
			numberWidth = 3
			continue
		}
		maxChange = max(maxChange, f.added+f.deleted)
	}
	width := statWidth
	numberWidth = max(decimalWidth(maxChange), numberWidth)
	if width < 16+6+numberWidth {
		width = 16 + 6 + numberWidth
	}
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	nameWidth := maxLen
	if nameWidth+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = max(width*3/8-numberWidth-6, 6)
		}
		if nameWidth > width-numberWidth-6-graphWidth {
			nameWidth = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameWidth
		}
	}

	adds, dels := 0, 0
	for _, f := range files {
		name, prefix := f.name, ""
		n := nameWidth
		if nameLen := strWidth(name); nameWidth < nameLen {
			prefix = "..."
			n -= 3
			name = name[nameLen-n:] // git advances by display width in bytes (a known NEEDSWORK)
			if i := strings.IndexByte(name, '/'); i >= 0 {
				name = name[i:]
			}
		}
		padding := max(n-strWidth(name), 0)
		fmt.Fprintf(w, " %s%s%s | ", prefix, name, strings.Repeat(" ", padding))
		if f.binary {
			fmt.Fprintf(w, "%*s", numberWidth, "Bin")
			if f.added != 0 || f.deleted != 0 {
				fmt.Fprintf(w, " %d -> %d bytes", f.deleted, f.added)
			}
			w.WriteByte('\n')
			continue
		}
		adds += f.added
		dels += f.deleted
		add, del := f.added, f.deleted
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add != 0 && del != 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		fmt.Fprintf(w, "%*d", numberWidth, f.added+f.deleted)
		if f.added+f.deleted != 0 {
			w.WriteByte(' ')
		}
		w.WriteString(strings.Repeat("+", add))
		w.WriteString(strings.Repeat("-", del))
		w.WriteByte('\n')
	}
	// print_stat_summary_inserts_deletes
	if len(files) == 1 {
		w.WriteString(" 1 file changed")
	} else {
		fmt.Fprintf(w, " %d files changed", len(files))
	}
	if adds != 0 || dels == 0 {
		fmt.Fprintf(w, ", %d insertion%s(+)", adds, plural(adds))
	}
	if dels != 0 || adds == 0 {
		fmt.Fprintf(w, ", %d deletion%s(-)", dels, plural(dels))
	}
	w.WriteByte('\n')
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func scaleLinear(it, width, maxChange int) int {
	if it == 0 {
		return 0
	}
	return 1 + it*(width-1)/maxChange
}

func decimalWidth(n int) int { return len(strconv.Itoa(n)) }

// strWidth approximates utf8_strwidth: names are C-quoted (ASCII) unless core.quotePath is off.
func strWidth(s string) int {
	if utf8.ValidString(s) {
		return utf8.RuneCountInString(s)
	}
	return len(s)
}

// writeSummary writes the --summary lines (diff.c diff_summary): creations, deletions, renames and copies with
// their similarity, and mode changes.
func writeSummary(w *bufio.Writer, queue []filePair) {
	modeChange := func(p filePair, withName bool) {
		if p.from.exists() && p.to.exists() && p.from.mode != p.to.mode {
			fmt.Fprintf(w, " mode change %06o => %06o", uint32(p.from.mode), uint32(p.to.mode))
			if withName {
				w.WriteString(" " + quotePath(p.to.path))
			}
			w.WriteByte('\n')
		}
	}
	for _, p := range queue {
		switch p.status {
		case 'D':
			fmt.Fprintf(w, " delete mode %06o %s\n", uint32(p.from.mode), quotePath(p.from.path))
		case 'A':
			fmt.Fprintf(w, " create mode %06o %s\n", uint32(p.to.mode), quotePath(p.to.path))
		case 'R', 'C':
			verb := "rename"
			if p.status == 'C' {
				verb = "copy"
			}
			fmt.Fprintf(w, " %s %s (%d%%)\n", verb, prettyRename(p.from.path, p.to.path), p.similarity())
			modeChange(p, false)
		default:
			modeChange(p, true)
		}
	}
}

// prettyRename is diff.c pprint_rename: "pfx{old => new}sfx" around the longest common folder prefix and
// suffix, or both names whole when either must be quoted.
func prettyRename(a, b string) string {
	if needsQuote(a) || needsQuote(b) {
		return quotePath(a) + " => " + quotePath(b)
	}
	pfx := 0
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			pfx = i + 1
		}
	}
	sfx := 0
	adj := 0
	if pfx > 0 {
		adj = 1
	}
	// Walk back from the ends (C starts at the terminating NUL, which is equal on both sides).
	ia, ib := len(a), len(b)
	for pfx-adj <= ia && pfx-adj <= ib {
		ca, cb := byteAt(a, ia), byteAt(b, ib)
		if ca != cb {
			break
		}
		if ca == '/' {
			sfx = len(a) - ia
		}
		ia--
		ib--
	}
	aMid := max(len(a)-pfx-sfx, 0)
	bMid := max(len(b)-pfx-sfx, 0)
	var s strings.Builder
	if pfx+sfx > 0 {
		s.WriteString(a[:pfx])
		s.WriteByte('{')
	}
	s.WriteString(a[pfx : pfx+aMid])
	s.WriteString(" => ")
	s.WriteString(b[pfx : pfx+bMid])
	if pfx+sfx > 0 {
		s.WriteByte('}')
		s.WriteString(a[len(a)-sfx:])
	}
	return s.String()
}

func byteAt(s string, i int) int {
	if i < 0 {
		return -1
	}
	if i >= len(s) {
		return 0
	}
	return int(s[i])
}
