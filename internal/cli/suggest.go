package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	ucli "github.com/urfave/cli/v3"
)

// A mistyped command or flag gets the nearest names, as git answers `git comit`:
//
//	git-bernstein: 'comits' is not a git-bernstein command. See 'git bernstein --help'.
//
//	The most similar command is
//		commits
//
// Nearness is git's own (help.c): a weighted Damerau-Levenshtein distance where a swap of two letters costs 0, a
// substitution 2, an insertion 1 and a deletion 3, and a name the typed word starts (`ver` → `verify`,
// `verify-page`) is nearest of all. Like git, only names with a distance (plus one) below 7 are offered, and only the best.

// similarNames returns the names nearest to typed, best first (ties in the order given); none when nothing is
// near enough.
func similarNames(typed string, names []string) []string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	for _, n := range names {
		d := gitDistance(typed, n) + 1
		if typed != "" && strings.HasPrefix(n, typed) {
			d = 0
		}
		if d < 7 {
			cs = append(cs, cand{n, d})
		}
	}
	if len(cs) == 0 {
		return nil
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	var out []string
	for _, c := range cs {
		if c.dist == cs[0].dist {
			out = append(out, c.name)
		}
	}
	return out
}

// gitDistance is git's levenshtein(a, b, 0, 2, 1, 3): swap, substitution, insertion (a letter of b missing from
// a), deletion (a letter of a not in b).
func gitDistance(a, b string) int {
	const swap, sub, ins, del = 0, 2, 1, 3
	row0 := make([]int, len(b)+1)
	row1 := make([]int, len(b)+1)
	row2 := make([]int, len(b)+1)
	for j := range row1 {
		row1[j] = j * ins
	}
	for i := 0; i < len(a); i++ {
		row2[0] = (i + 1) * del
		for j := 0; j < len(b); j++ {
			row2[j+1] = row1[j]
			if a[i] != b[j] {
				row2[j+1] += sub
			}
			if i > 0 && j > 0 && a[i-1] == b[j] && a[i] == b[j-1] && row2[j+1] > row0[j-1]+swap {
				row2[j+1] = row0[j-1] + swap
			}
			if row2[j+1] > row1[j+1]+del {
				row2[j+1] = row1[j+1] + del
			}
			if row2[j+1] > row2[j]+ins {
				row2[j+1] = row2[j] + ins
			}
		}
		row0, row1, row2 = row1, row2, row0
	}
	return row1[len(b)]
}

// commandNotFound says that name is not a command and offers the nearest visible ones.
func commandNotFound(w io.Writer, c *ucli.Command, name string) {
	cmds := c.Root().Commands
	var path []string
	if c != c.Root() && len(c.Commands) > 0 {
		cmds = c.Commands
		path = c.Path()[1:]
	}
	if parent := strings.Join(path, " "); parent != "" {
		fmt.Fprintf(w, "git-bernstein: '%s' is not a 'git bernstein %s' command. See 'git bernstein help %s'.\n", name, parent, parent)
	} else {
		fmt.Fprintf(w, "git-bernstein: '%s' is not a git-bernstein command. See 'git bernstein --help'.\n", name)
	}
	var names []string
	for _, cmd := range cmds {
		if !cmd.Hidden {
			names = append(names, cmd.Name)
		}
	}
	writeSimilar(w, "command", similarNames(name, names))
}

func writeSimilar(w io.Writer, what string, near []string) {
	switch len(near) {
	case 0:
		return
	case 1:
		fmt.Fprintf(w, "\nThe most similar %s is\n", what)
	default:
		fmt.Fprintf(w, "\nThe most similar %ss are\n", what)
	}
	for _, n := range near {
		fmt.Fprintf(w, "\t%s\n", n)
	}
}

// flagSuggestion is " (did you mean --card?)" for a flag error naming a mistyped flag of flags, else "".
func flagSuggestion(err error, flags []ucli.Flag) string {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	i := strings.Index(msg, undefined)
	if i < 0 {
		return ""
	}
	typed := strings.TrimLeft(strings.TrimSpace(msg[i+len(undefined):]), "-")
	var names []string
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 {
				names = append(names, n)
			}
		}
	}
	near := similarNames(typed, names)
	if len(near) == 0 {
		return ""
	}
	for i := range near {
		near[i] = "--" + near[i]
	}
	return " (did you mean " + strings.Join(near, " or ") + "?)"
}
