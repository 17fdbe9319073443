package cli

import (
	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/jsonout"
)

// printJSON writes v as indented JSON on stdout, with no HTML escaping (scripts read it, not browsers).
func printJSON(c *ucli.Command, v any) error {
	return jsonout.Write(c.Root().Writer, v)
}
