package cli

import (
	"fmt"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v3"
)

// TestFlagHelpSaysOneDefault: a flag whose usage states its own default must not get the flag library's
// "(default: false)" or "(default: 0)" after it, and an optional-value flag is shown as git shows one.
func TestFlagHelpSaysOneDefault(t *testing.T) {
	t.Parallel()
	var walk func(path string, cmds []*ucli.Command)
	walk = func(path string, cmds []*ucli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(path + " " + c.Name)
			for _, f := range c.Flags {
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
	walk("", commands())
}
