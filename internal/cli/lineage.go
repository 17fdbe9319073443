package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

const lineageExitHelp = `EXIT CODES:
   0  success (verify: the store is intact)
   1  error, or verify found failures (each is listed with the file and record at fault)
   2  usage error (bad flags or arguments)`

func lineageCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "lineage",
		Usage: "read, check and write Bernstein's lineage stores",
		Commands: []*ucli.Command{lineageV1VerifyCommand(), lineageV1LogCommand(), {
			Name:  "v2",
			Usage: "lineage v2: HMAC-chained parent refs (parent.jsonl) pointing at detached child bodies (children/<sha>.jsonl)",
			Description: `Bernstein writes lineage v2 when BERNSTEIN_LINEAGE_V2=1 or bernstein.yaml sets lineage.version: 2.
The store lives in <worktree root>/.sdd/lineage/v2 unless --root says otherwise; these commands read and
write the same bytes as Bernstein's Python store, so both can share one.`,
			Commands: []*ucli.Command{
				lineageShowCommand(), withCheckpoints(lineageVerifyCommand()), lineageExportCommand(), lineageAppendCommand(),
				lineageCheckpointCommand(),
			},
		}},
	}
}

func lineageRootFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "root", Usage: "lineage v2 store `PATH` (default: <worktree root>/.sdd/lineage/v2)"}
}

func lineageKeyFlag() ucli.Flag {
	return &ucli.StringFlag{
		Name: "key-file",
		// Not EnvVars: urfave would read the process's environment; lineage.ResolveKey reads the run's (Env).
		Usage: "`FILE` holding the secret HMAC key (its bytes, one trailing newline ignored); default: $" + lineage.KeyFileEnv + ", else Bernstein's public key " + lineage.DefaultKey,
	}
}

func withLineageHelp(cmd *ucli.Command) *ucli.Command {
	cmd.CustomHelpTemplate = commandHelpPage + lineageExitHelp + "\n"
	return cmd
}

func lineageShowCommand() *ucli.Command {
	return withLineageHelp(&ucli.Command{
		Name:      "show",
		Usage:     "print the timeline of a task: each parent ref and how many child bodies it has",
		ArgsUsage: "TASK_ID",
		Description: `The table shows run id, parent call id, summary, body count and the first 24 characters of child_sha.
--json (or --output-json) prints [{"parent":{…},"bodies":[…]}] as Bernstein does (json.dumps, indent 2, sorted keys).
show reads without checking the HMACs: run 'git bernstein lineage v2 verify' when the answer matters.`,
		Flags: []ucli.Flag{
			lineageRootFlag(),
			&ucli.BoolFlag{Name: "json", Aliases: []string{"output-json"}, Usage: "print JSON instead of a table"},
		},
		Action: runLineageShow,
	})
}

func lineageVerifyCommand() *ucli.Command {
	return withLineageHelp(&ucli.Command{
		Name:  "verify",
		Usage: "check both HMAC chain layers, every line's canonical bytes, content addresses and orphan child files",
		Description: `Prints "Lineage v2: OK (<p> parent / <c> child)", or "Lineage v2: FAIL (<n> issue(s))" and one line per
failure naming the file and record, with the repair where there is one (a torn last line after a crash, an
orphan child file). The last line says which key class checked the HMACs: public-default (Bernstein's
published key: the chain catches accidents, not forgery) or secret-file.
--json (or --output-json) prints {"ok","failures","parent_count","child_count","key"}.`,
		Flags: []ucli.Flag{
			lineageRootFlag(),
			&ucli.BoolFlag{Name: "json", Aliases: []string{"output-json"}, Usage: "print JSON instead of text"},
			lineageKeyFlag(),
			&ucli.BoolFlag{Name: "strict", Usage: "fail a store checked under the public default key, since anyone can forge it"},
		},
		Action: runLineageVerify,
	})
}

func lineageExportCommand() *ucli.Command {
	return withLineageHelp(&ucli.Command{
		Name:      "export",
		Usage:     "export a task's timeline as JSONL or as in-toto statements for sigstore",
		ArgsUsage: "TASK_ID",
		Description: `--format jsonl: per parent ref a {"_kind":"parent",…} line, then its {"_kind":"child",…} body lines.
--format sigstore: a JSON list with one in-toto Statement v1 per parent ref (subject: the child's sha256,
predicateType https://slsa.dev/provenance/v0.3, an SLSA 1.0 shaped predicate), ready to sign.
--out (or --output) writes the file atomically and prints "Wrote <n> bytes -> <path>".`,
		Flags: flagGroups([]ucli.Flag{
			&ucli.StringFlag{Name: "format", Value: lineage.FormatJSONL, Usage: "`FORMAT`: jsonl or sigstore"},
			lineageRootFlag(),
			&ucli.StringFlag{Name: "out", Aliases: []string{"output"}, Usage: "write to `FILE` instead of standard output"},
		}, exportSignFlags()),
		Action: runLineageExport,
	})
}

func lineageAppendCommand() *ucli.Command {
	return withLineageHelp(&ucli.Command{
		Name:  "append",
		Usage: "record one child body (a new child and its parent ref, or with --child-sha one more body of a child)",
		Description: `For agents and scripts that are not Python. ts_ns comes from the clock. A new child is written and
fsynced first, then its parent ref, under flock(LOCK_EX) on parent.jsonl (the lock Bernstein's fcntl.flock
takes, so both can write one store). With --child-sha the body is chained onto that child file with the next
seq and the parent timeline is untouched. Prints "Appended sha256:<hex> seq <n>".`,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "task", Usage: "`TASK_ID` the record belongs to (required)"},
			&ucli.StringFlag{Name: "run", Usage: "child `RUN_ID` (required)"},
			&ucli.StringFlag{Name: "call", Usage: "parent tool/call `ID` that spawned the child"},
			&ucli.StringFlag{Name: "summary", Usage: "short operator-readable `TEXT`"},
			&ucli.StringFlag{Name: "kind", Usage: "body `KIND`, e.g. subagent.started (required)"},
			&ucli.StringFlag{Name: "payload", Value: "{}", Usage: "body payload, a JSON `OBJECT`"},
			&ucli.StringFlag{Name: "child-sha", Usage: "append to the existing child `SHA` (sha256:<hex> or <hex>) instead of starting a new one"},
			lineageRootFlag(),
			lineageKeyFlag(),
		},
		Action: runLineageAppend,
	})
}

// defaultLineageRoot is <worktree root>/.sdd/lineage/v2, the worktree found the way git finds it (subfolders,
// linked worktrees, GIT_DIR/GIT_WORK_TREE).
func defaultLineageRoot(env *Env) (string, error) {
	s, err := openSession(env)
	if err != nil {
		return "", fmt.Errorf("%v; or pass --root PATH", err)
	}
	if s.repo.WorkTree == "" {
		return "", fmt.Errorf("repository %s has no worktree: pass --root PATH", s.repo.GitDir)
	}
	sdd, err := s.sddFolder("", false)
	if err != nil {
		return "", err
	}
	return filepath.Join(sdd, "lineage", "v2"), nil
}

func lineageRoot(c *ucli.Command) (string, error) {
	if r := c.String("root"); r != "" {
		return r, nil
	}
	return defaultLineageRoot(envOf(c))
}

func lineageTaskArg(c *ucli.Command) (string, error) {
	args := c.Args().Slice()
	if len(args) != 1 {
		return "", usageError("lineage v2 %s takes exactly one TASK_ID (got %d arguments); see 'git bernstein lineage v2 %s --help'",
			c.Name, len(args), c.Name)
	}
	return args[0], nil
}

func noLineageArgs(c *ucli.Command) error {
	args := c.Args().Slice()
	if len(args) != 0 {
		return usageError("lineage v2 %s takes no arguments (got %q); see 'git bernstein lineage v2 %s --help'", c.Name, args, c.Name)
	}
	return nil
}

// lineageStore is the store --root (or the default root) names, under the key --key-file or
// $BERNSTEIN_LINEAGE_V2_KEY_FILE gives (else the public key).
func lineageStore(c *ucli.Command) (*lineage.Store, error) {
	root, key, err := lineageWhere(c)
	if err != nil {
		return nil, err
	}
	return lineage.Open(root, key), nil
}

// lineageWhere is the root and key of lineageStore.
func lineageWhere(c *ucli.Command) (string, lineage.Key, error) {
	root, err := lineageRoot(c)
	if err != nil {
		return "", lineage.Key{}, err
	}
	key, err := lineage.ResolveKey(c.String("key-file"), envOf(c).getenv)
	return root, key, err
}

func runLineageShow(_ context.Context, c *ucli.Command) error {
	task, err := lineageTaskArg(c)
	if err != nil {
		return err
	}
	root, err := lineageRoot(c)
	if err != nil {
		return err
	}
	timeline, err := lineage.Show(root, task)
	if err != nil {
		return err
	}
	w := c.Root().Writer
	if c.Bool("json") {
		out, err := timeline.Marshal()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", out)
		return err
	}
	if len(timeline) == 0 {
		fmt.Fprintf(w, "No v2 records for task %s\n", termtext.Clean(task))
		return nil
	}
	fmt.Fprintf(w, "Lineage v2 timeline for %s (%d ref(s))\n\n", termtext.Clean(task), len(timeline))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tCALL ID\tSUMMARY\tBODIES\tCHILD_SHA (PREFIX)")
	for _, e := range timeline {
		p := e.Parent
		sha := p.ChildSHA
		if len(sha) > 24 {
			sha = sha[:24]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s...\n", cell(p.ChildRunID), cell(p.ParentCallID), cell(p.Summary), len(e.Bodies), cell(sha))
	}
	return tw.Flush()
}

// cell makes store text safe and single-line for the table: records come from files anyone could have edited.
func cell(s string) string {
	s = termtext.Clean(strings.NewReplacer("\n", " ", "\r", " ").Replace(s))
	if s == "" {
		return "-"
	}
	return s
}

func runLineageVerify(_ context.Context, c *ucli.Command) error {
	if err := noLineageArgs(c); err != nil {
		return err
	}
	store, err := lineageStore(c)
	if err != nil {
		return err
	}
	key := store.Key
	res := store.Verify(lineage.VerifyOptions{Strict: c.Bool("strict")})
	w := c.Root().Writer
	if c.Bool("json") {
		if err := printJSON(c, struct {
			OK          bool             `json:"ok"`
			Failures    []string         `json:"failures"`
			ParentCount int              `json:"parent_count"`
			ChildCount  int              `json:"child_count"`
			Key         lineage.KeyClass `json:"key"`
		}{res.OK, res.Messages(), res.ParentCount, res.ChildCount, res.Key}); err != nil {
			return err
		}
	} else {
		printVerify(w, res, key)
	}
	if !res.OK {
		return errReported
	}
	return nil
}

func printVerify(w io.Writer, res lineage.VerifyResult, key lineage.Key) {
	if res.OK {
		fmt.Fprintf(w, "Lineage v2: OK (%d parent / %d child)\n", res.ParentCount, res.ChildCount)
	} else {
		fmt.Fprintf(w, "Lineage v2: FAIL (%d issue(s))\n", len(res.Failures))
		for _, f := range res.Failures {
			where := ""
			if f.File != "" {
				where = f.File + ": "
			}
			fmt.Fprintf(w, "  - %s%s\n", termtext.Clean(where), termtext.Clean(f.Message))
			if f.Repair != "" {
				fmt.Fprintf(w, "    repair: %s\n", termtext.Clean(f.Repair))
			}
		}
	}
	switch key.Class {
	case lineage.KeyPublicDefault:
		fmt.Fprintf(w, "Key: %s (Bernstein's published key: the chain catches accidents, not forgery; --key-file gives a secret key)\n", key.Class)
	default:
		fmt.Fprintf(w, "Key: %s (%s)\n", key.Class, termtext.Clean(key.Source))
	}
}

func runLineageExport(_ context.Context, c *ucli.Command) error {
	task, err := lineageTaskArg(c)
	if err != nil {
		return err
	}
	format := strings.ToLower(c.String("format"))
	if format != lineage.FormatJSONL && format != lineage.FormatSigstore {
		return usageError("--format must be jsonl or sigstore, not %q", c.String("format"))
	}
	root, err := lineageRoot(c)
	if err != nil {
		return err
	}
	req := lineage.ExportRequest{Root: root, Task: task, Format: format}
	if c.IsSet("sign-key") {
		req.Signer = exportSigner(c)
	}
	out, err := lineage.Export(req)
	if errors.Is(err, lineage.ErrSealNeedsSigstore) {
		return usageError("--sign-key signs in-toto statements: give --format sigstore")
	}
	if err != nil {
		return err
	}
	if path := c.String("out"); path != "" {
		if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(c.Root().Writer, "Wrote %d bytes -> %s\n", len(out), path)
		return nil
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	_, err = c.Root().Writer.Write(out)
	return err
}

func runLineageAppend(_ context.Context, c *ucli.Command) error {
	if err := noLineageArgs(c); err != nil {
		return err
	}
	for _, name := range []string{"task", "run", "kind"} {
		if c.String(name) == "" {
			return usageError("lineage v2 append needs --%s; see 'git bernstein lineage v2 append --help'", name)
		}
	}
	done, err := lineage.AppendOne(lineage.AppendRequest{
		Where: func() (string, lineage.Key, error) { return lineageWhere(c) },
		Task:  c.String("task"), Run: c.String("run"), Call: c.String("call"), Summary: c.String("summary"),
		Kind: c.String("kind"), Payload: c.String("payload"), ChildSHA: c.String("child-sha"),
		TsNs: envOf(c).now().UnixNano(),
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "Appended %s seq %d\n", done.ChildSHA, done.Seq)
	return nil
}
