package hostilepatch

import "pgregory.net/rapid"

// EditLine makes one random edit to a part's lines at line at, for the differential tests that hold our
// patch reader to git's: insert one of snippets before it, delete it, repeat it, replace it with a snippet, or
// set one of its bytes to one of flips. op is which (0 to 4), drawn by the caller so it can add edits of its own.
func EditLine(rt *rapid.T, op int, lines []string, at int, snippets []string, flips string) []string {
	switch op {
	case 0:
		s := rapid.SampledFrom(snippets).Draw(rt, "insert")
		return append(lines[:at], append([]string{s}, lines[at:]...)...)
	case 1:
		return append(lines[:at], lines[at+1:]...)
	case 2:
		return append(lines[:at], append([]string{lines[at]}, lines[at:]...)...)
	case 3:
		lines[at] = rapid.SampledFrom(snippets).Draw(rt, "replace")
	case 4:
		l := []byte(lines[at])
		b := rapid.IntRange(0, len(l)-1).Draw(rt, "byte")
		l[b] = rapid.SampledFrom([]byte(flips)).Draw(rt, "to")
		lines[at] = string(l)
	}
	return lines
}
