package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

const lineageV1ExitHelp = `EXIT CODES:
   0  the log passes every check (log: the history was printed)
   1  a check failed: one line per failure names the line, the artefact and the entry hash
   2  unusable input: no log, an unreadable card folder or key file, bad flags`

func lineageV1RootFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "root", Usage: "the lineage `DIR` holding log.jsonl and signatures/ (default: <worktree root>/.sdd/lineage)"}
}

func lineageV1CardsFlag(usage string) ucli.Flag {
	return &ucli.StringSliceFlag{Name: "cards", Usage: usage}
}

func lineageV1VerifyCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "verify",
		Usage: "the lineage v1 CI gate: every entry of log.jsonl canonical, signed by its agent's card, anchored, and no unresolved fork",
		Description: `Checks Bernstein's lineage v1 log (<root>/log.jsonl, one entry per agent write of an artefact) as upstream's
CI gate does: each line is an entry of the v1 schema and exactly its canonical bytes (lines are split on "\n"
only; lines in the older ", "/": " spelling pass with a warning); its detached JWS sidecar
(signatures/<aa>/<sha256(artefact_path)>/<entry hex>.jws, or sha256_<entry hex>.jws) verifies under the card
chosen by the entry's exact (agent_id, agent_card_kid) (two cards binding one pair to different keys fail);
with --operator-key-file, its operator_hmac; every parent hash resolves to an entry; each artefact has one open
tip and every fork is joined by a merge entry; with --steward, merge entries are by an allowed steward.
Cards (--cards DIR, repeatable) are read from DIR/*.json, DIR/<agent>/card.json and DIR/<agent>/<kid>/card.json
(flat or A2A cards; the card's own agent_id or name and kids count, not folder names).
Prints "Lineage v1: OK (…)" or "Lineage v1: FAIL (…)" and one line per failure; --json prints
{"ok","root","entries","agents","forks","failures":[{"line","artefact","entry","message"}],"warnings"}.`,
		Flags: []ucli.Flag{
			lineageV1RootFlag(),
			lineageV1CardsFlag("agent cards `DIR` (repeatable; required)"),
			&ucli.StringFlag{Name: "operator-key-file", Usage: "`FILE` holding the operator's HMAC secret (its bytes, one trailing newline ignored): also check operator_hmac"},
			&ucli.StringSliceFlag{Name: "steward", Usage: "`AGENT` allowed to write merge entries (repeatable; default: any agent)"},
			&ucli.BoolFlag{Name: "json", Usage: "print JSON instead of text"},
		},
		CustomHelpTemplate: commandHelpPage + lineageV1ExitHelp + "\n",
		Action:             runLineageV1Verify,
	}
}

func lineageV1LogCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "log",
		Usage:     "the lineage v1 history of one artefact: who wrote each version, and its forks",
		ArgsUsage: "PATH",
		Description: `Lists the entries of <root>/log.jsonl whose artefact_path is PATH (as the log spells it, relative to the
project root), oldest first: time, agent, kid, tool call, content hash, parents, and the signature's status
(verified or failed under --cards, else unverified), then every fork of the artefact (a parent two entries
continue with different content) and whether a merge entry joins it. --json prints
{"artefact","entries":[…],"forks":[…]}. It does not run the whole gate: use 'git bernstein lineage verify'.`,
		Flags: []ucli.Flag{
			lineageV1RootFlag(),
			lineageV1CardsFlag("agent cards `DIR` to check signatures with (repeatable)"),
			&ucli.BoolFlag{Name: "json", Usage: "print JSON instead of a table"},
		},
		CustomHelpTemplate: commandHelpPage + lineageV1ExitHelp + "\n",
		Action:             runLineageV1Log,
	}
}

// lineageV1Root is --root, else <worktree root>/.sdd/lineage.
func lineageV1Root(c *ucli.Command) (string, error) {
	if r := c.String("root"); r != "" {
		return inDirOf(c, r)
	}
	v2, err := defaultLineageRoot(envOf(c))
	if err != nil {
		return "", err
	}
	return filepath.Dir(v2), nil
}

func inDirOf(c *ucli.Command, p string) (string, error) {
	wd, err := envOf(c).getwd()
	if err != nil {
		return "", fmt.Errorf("find the current folder: %w", err)
	}
	return inDir(wd, p), nil
}

// loadLineageCards reads every --cards folder; an unusable one is exit 2.
func loadLineageCards(c *ucli.Command, flag string) (*logv1.Cards, error) {
	dirs := c.StringSlice(flag)
	if len(dirs) == 0 {
		return nil, nil
	}
	var cards logv1.Cards
	for _, d := range dirs {
		p, err := inDirOf(c, d)
		if err != nil {
			return nil, err
		}
		if err := cards.LoadCardsDir(p); err != nil {
			return nil, usageError("%v", err)
		}
	}
	return &cards, nil
}

type lineageV1Failure struct {
	Line     int    `json:"line"`
	Artefact string `json:"artefact"`
	Entry    string `json:"entry"`
	Message  string `json:"message"`
}

func runLineageV1Verify(_ context.Context, c *ucli.Command) error {
	if args := c.Args().Slice(); len(args) != 0 {
		return usageError("lineage verify takes no arguments (got %q); see 'git bernstein lineage verify --help'", args)
	}
	cards, err := loadLineageCards(c, "cards")
	if err != nil {
		return err
	}
	if cards == nil {
		return usageError("lineage verify needs --cards DIR: the agents' cards, from the agents, not from the log's folder")
	}
	req := logv1.CheckRequest{Root: func() (string, error) { return lineageV1Root(c) },
		Options: logv1.Options{Cards: cards, Forks: true, Stewards: c.StringSlice("steward")}}
	if f := c.String("operator-key-file"); f != "" {
		if req.OperatorKeyFile, err = inDirOf(c, f); err != nil {
			return err
		}
	}
	res, err := logv1.Check(req)
	if err != nil {
		return err
	}
	root, log := res.Root, res.Log
	agents, open := log.Agents(), res.UnresolvedForks()
	w := c.Root().Writer
	if c.Bool("json") {
		out := struct {
			OK       bool               `json:"ok"`
			Root     string             `json:"root"`
			Entries  int                `json:"entries"`
			Agents   int                `json:"agents"`
			Forks    int                `json:"unresolved_forks"`
			Failures []lineageV1Failure `json:"failures"`
			Warnings []string           `json:"warnings"`
		}{res.OK(), root, len(log.Entries), agents, open, []lineageV1Failure{}, res.Warnings}
		if out.Warnings == nil {
			out.Warnings = []string{}
		}
		for _, f := range res.Failures {
			out.Failures = append(out.Failures, lineageV1Failure{f.Line, cell(f.Artefact), f.Entry, cell(f.Message)})
		}
		if err := writeJSON(w, out); err != nil {
			return err
		}
	} else {
		if res.OK() {
			fmt.Fprintf(w, "Lineage v1: OK (%s, %s, %s) in %s\n", plural.Count(len(log.Entries), "entry"),
				plural.Count(agents, "agent"), plural.Count(open, "unresolved fork"), root)
		} else {
			fmt.Fprintf(w, "Lineage v1: FAIL (%s in %s) in %s\n", plural.Count(len(res.Failures), "failure"),
				plural.Count(len(log.Entries), "entry"), root)
		}
		for _, f := range res.Failures {
			fmt.Fprintf(w, "  %s\n", cell(f.String()))
		}
		for _, warn := range res.Warnings {
			fmt.Fprintf(w, "warning: %s\n", cell(warn))
		}
	}
	if !res.OK() {
		return errReported
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runLineageV1Log(_ context.Context, c *ucli.Command) error {
	args := c.Args().Slice()
	if len(args) != 1 {
		return usageError("lineage log takes exactly one PATH, the artefact as the log names it (got %d arguments)", len(args))
	}
	path := args[0]
	cards, err := loadLineageCards(c, "cards")
	if err != nil {
		return err
	}
	res, err := logv1.Check(logv1.CheckRequest{Root: func() (string, error) { return lineageV1Root(c) },
		Options: logv1.Options{Cards: cards}, History: true, Artefact: path})
	if err != nil {
		return err
	}
	root, entries, forks := res.Root, res.History, res.HistoryForks
	type jsonEntry struct {
		Line       int      `json:"line"`
		Time       string   `json:"time"`
		TsNs       int64    `json:"ts_ns"`
		AgentID    string   `json:"agent_id"`
		Kid        string   `json:"kid"`
		ToolCallID string   `json:"tool_call_id"`
		Content    string   `json:"content_hash"`
		Parents    []string `json:"parent_hashes"`
		Entry      string   `json:"entry"`
		Signature  string   `json:"signature"`
	}
	type jsonFork struct {
		Parent   string   `json:"parent"`
		Children []string `json:"children"`
		Resolved bool     `json:"resolved"`
	}
	w := c.Root().Writer
	if c.Bool("json") {
		out := struct {
			Artefact string      `json:"artefact"`
			Entries  []jsonEntry `json:"entries"`
			Forks    []jsonFork  `json:"forks"`
		}{path, []jsonEntry{}, []jsonFork{}}
		for _, e := range entries {
			out.Entries = append(out.Entries, jsonEntry{e.Line, e.Time(), e.TsNs, e.AgentID, e.AgentCardKid, e.ToolCallID,
				e.ContentHash, append([]string{}, e.ParentHashes...), e.Hash, string(res.Signatures[e])})
		}
		for _, f := range forks {
			jf := jsonFork{Parent: f.ParentID, Resolved: f.Resolved}
			for _, ch := range f.Children {
				jf.Children = append(jf.Children, ch.Hash)
			}
			out.Forks = append(out.Forks, jf)
		}
		return writeJSON(w, out)
	}
	if len(entries) == 0 {
		fmt.Fprintf(w, "No lineage v1 entries for %s in %s\n", cell(path), root)
		return nil
	}
	fmt.Fprintf(w, "Lineage v1 history of %s (%s, oldest first)\n\n", cell(path), plural.Count(len(entries), "entry"))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "LINE\tTIME\tAGENT\tKID\tTOOL CALL\tCONTENT\tPARENTS\tENTRY\tSIGNATURE")
	short := func(h string) string {
		if len(h) > 19 {
			return h[7:19]
		}
		return h
	}
	for _, e := range entries {
		parents := "-"
		if len(e.ParentHashes) > 0 {
			parents = ""
			for i, p := range e.ParentHashes {
				if i > 0 {
					parents += ","
				}
				parents += short(p)
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Line, e.Time(), cell(e.AgentID), cell(e.AgentCardKid),
			cell(e.ToolCallID), short(e.ContentHash), parents, short(e.Hash), res.Signatures[e])
	}
	tw.Flush()
	for _, f := range forks {
		state := "UNRESOLVED: no merge entry joins them"
		if f.Resolved {
			state = "resolved by a merge entry"
		}
		var kids []string
		for _, ch := range f.Children {
			kids = append(kids, fmt.Sprintf("line %d (%s, %s)", ch.Line, cell(ch.AgentID), short(ch.Hash)))
		}
		fmt.Fprintf(w, "\nFORK at %s: continued by %v; %s\n", short(f.ParentID), kids, state)
	}
	return nil
}
