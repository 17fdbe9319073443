package cli

import (
	"encoding/json"

	ucli "github.com/urfave/cli/v2"
)

// printJSON writes v as indented JSON on stdout, with no HTML escaping (scripts read it, not browsers).
func printJSON(c *ucli.Context, v any) error {
	enc := json.NewEncoder(c.App.Writer)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
