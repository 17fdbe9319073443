package cli

import (
	"fmt"
	"strings"
	"testing"

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
