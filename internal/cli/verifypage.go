package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
	"github.com/git-bernstein/git-bernstein/internal/verifypage"
)

const verifyPageDescription = `Writes the verifier itself as one self-contained HTML file, for auditors who will not install a CLI:
git-bernstein's Go verifier compiled to WebAssembly, with a page where they drop (or choose) the bundle, its
.jws and the signer's card(s). It shows the same check lines and verdict as 'git bernstein verify' for the
same files, computed in the browser. Its Content Security Policy forbids every connection (connect-src
'none'), and it loads nothing, so no file leaves the machine; it works offline, from file://.

The page is written atomically to --out. It is the same for every bundle: send it once, or publish it.`

func verifyPageCommand() *ucli.Command {
	return &ucli.Command{
		Name:        "verify-page",
		Usage:       "write the verifier as one HTML page that checks bundles in a browser, offline",
		Description: verifyPageDescription,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "out", Value: "verify.html", Usage: "write the page to `FILE.html`"},
		},
		Action: runVerifyPage,
	}
}

func runVerifyPage(_ context.Context, c *ucli.Command) error {
	args := c.Args().Slice()
	if len(args) != 0 {
		return usageError("verify-page takes no arguments (got %d); use --out FILE.html", len(args))
	}
	wd, err := envOf(c).getwd()
	if err != nil {
		return fmt.Errorf("find the current folder: %w", err)
	}
	out := inDir(wd, c.String("out"))
	page, err := verifypage.Write(out, buildinfo.Version())
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "wrote %s (%d KiB; verifier built with %s)\n", out, page.Size>>10, page.Toolchain)
	return nil
}
