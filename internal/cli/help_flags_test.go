package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	ucli "github.com/urfave/cli/v3"
)

// TestFlagHelpSaysOneDefault: a flag whose usage states its own default must not get the flag library's
// "(default: false)" or "(default: 0)" after it, an optional-value flag is shown as git shows one, and every
// flag is its own command's (urfave/cli v3 would otherwise hand it down to the subcommands).
func TestFlagHelpSaysOneDefault(t *testing.T) {
	t.Parallel()
	var walk func(path string, cmds []*ucli.Command)
	walk = func(path string, cmds []*ucli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(path + " " + c.Name)
			for _, f := range c.Flags {
				if l, ok := f.(ucli.LocalFlag); !ok || !l.IsLocal() {
					t.Errorf("%s: --%s is handed down to the subcommands: setLocal does not know its type %T", name, f.Names()[0], f)
				}
				line := fmt.Sprint(f)
				if n := strings.Count(line, "(default"); n > 1 {
					t.Errorf("%s: %d defaults in %q", name, n, line)
				}
				if strings.HasPrefix(line, "--repo ") {
					t.Errorf("%s: %q: --repo takes its value only after =, so help must say --repo[=DIR]", name, line)
				}
			}
			walk(name, c.Commands)
		}
	}
	root := &ucli.Command{Commands: commands()}
	setUsageHandler(root, func() {})
	walk("", root.Commands)
}

// TestHelpPagesSayGitBernstein: every page, whichever way urfave/cli reaches it (--help, `help CMD`, a command
// with subcommands run alone), names the command as the user types it and ends with the exit codes.
func TestHelpPagesSayGitBernstein(t *testing.T) {
	t.Parallel()
	var paths [][]string
	var walk func(path []string, cmds []*ucli.Command)
	walk = func(path []string, cmds []*ucli.Command) {
		for _, c := range cmds {
			if c.Hidden {
				continue
			}
			p := append(append([]string{}, path...), c.Name)
			paths = append(paths, p)
			walk(p, c.Commands)
		}
	}
	walk(nil, commands())
	for _, p := range paths {
		for _, args := range [][]string{append(append([]string{}, p...), "--help"), append([]string{"help"}, p...)} {
			out, errOut, code := runEnv(t, &Env{Now: time.Now}, args...)
			if code != 0 || errOut != "" {
				t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
				continue
			}
			if want := "NAME:\n   git bernstein " + strings.Join(p, " ") + " - "; !strings.HasPrefix(out, want) {
				t.Errorf("%q: page starts %q, want %q", args, firstLines(out, 2), want)
			}
			if !strings.Contains(out, "\nUSAGE:\n   git bernstein "+strings.Join(p, " ")) || !strings.Contains(out, "\nEXIT CODES:\n") {
				t.Errorf("%q: no usage line naming git bernstein, or no exit codes:\n%s", args, out)
			}
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
