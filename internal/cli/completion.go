package cli

import (
	"context"
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// Shell completion: `completion SHELL` prints a script that asks this program, through the hidden command
// `__complete WORD…` (the words after the program name, the last being the one under the cursor), for the
// candidates: commands and subcommands, the current command's flags, and ticket ids from the ticket index. The
// answer comes from the same command tree as the help, so it cannot drift from it. An empty answer lets the
// shell complete file names (archives, cards, keys).
var (
	//go:embed completion/bash.sh
	bashCompletion string
	//go:embed completion/zsh.zsh
	zshCompletion string
	//go:embed completion/fish.fish
	fishCompletion string
)

const completionDescription = `Prints a completion script for SHELL (bash, zsh or fish). It completes commands, flags and
ticket ids (from the ticket index, once a commits, bundle or record run has written it) both for
'git-bernstein <TAB>' and for git's own completion of 'git bernstein <TAB>'. To enable it:

   bash  (in ~/.bashrc, after git's completion)   eval "$(git-bernstein completion bash)"
   zsh   (in ~/.zshrc, after compinit)            source <(git-bernstein completion zsh)
   fish                                           git-bernstein completion fish > ~/.config/fish/completions/git-bernstein.fish`

func completionCommand() *ucli.Command {
	return &ucli.Command{
		Name:        "completion",
		Usage:       "print a shell completion script for bash, zsh or fish",
		ArgsUsage:   "bash|zsh|fish",
		Description: completionDescription,
		Action: func(_ context.Context, c *ucli.Command) error {
			if c.NArg() != 1 {
				return usageError("completion takes one SHELL: bash, zsh or fish; see 'git bernstein help completion'")
			}
			var script string
			switch c.Args().First() {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				script = fishCompletion
			default:
				return usageError("completion: %q is not a shell this knows: bash, zsh or fish", c.Args().First())
			}
			_, err := fmt.Fprint(c.Root().Writer, script)
			return err
		},
	}
}

// completeCommand is what the scripts call. It never fails and prints nothing on stderr: a completion that
// cannot help stays quiet.
func completeCommand() *ucli.Command {
	return &ucli.Command{
		Name:            "__complete",
		Hidden:          true,
		SkipFlagParsing: true,
		Action: func(_ context.Context, c *ucli.Command) error {
			words := c.Args().Slice()
			if len(words) > 0 && words[0] == "--" {
				words = words[1:]
			}
			for _, s := range complete(c.Root().Commands, words, func(prefix string) []string {
				return indexedTickets(envOf(c), prefix)
			}) {
				fmt.Fprintln(c.Root().Writer, s)
			}
			return nil
		},
	}
}

// complete returns the candidates for the last of words, given the words before it.
func complete(top []*ucli.Command, words []string, tickets func(string) []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	var cmd *ucli.Command // nil: the program itself
	subs := top
	var flags []ucli.Flag
	positional := 0
	for i := 0; i < len(before); i++ {
		w := before[i]
		switch {
		case w == "--":
			positional++
		case strings.HasPrefix(w, "-"):
			if f := findFlag(flags, w); f != nil && takesValue(f) && !strings.Contains(w, "=") {
				i++ // its value
				if i == len(before) {
					return nil // completing a flag's value: the shell's file names
				}
			}
		default:
			if next := findCommand(subs, w); next != nil && positional == 0 {
				cmd, subs, flags = next, next.Commands, next.Flags
				continue
			}
			positional++
		}
	}
	if len(before) > 0 {
		if last := before[len(before)-1]; strings.HasPrefix(last, "-") && !strings.Contains(last, "=") {
			if f := findFlag(flags, last); f != nil && takesValue(f) {
				return nil
			}
		}
	}
	var out []string
	if strings.HasPrefix(cur, "-") {
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					out = append(out, "--"+n)
				}
			}
		}
		out = append(out, "--help")
		return withPrefix(out, cur)
	}
	if positional == 0 {
		for _, s := range subs {
			if !s.Hidden && s.Name != "help" { // urfave/cli's help subcommand
				out = append(out, s.Name)
			}
		}
		if cmd == nil {
			out = append(out, "help")
		}
	}
	if cmd != nil && strings.Contains(cmd.ArgsUsage, "TICKET") && cur != "" {
		out = append(out, tickets(cur)...)
	}
	return withPrefix(out, cur)
}

func findCommand(cmds []*ucli.Command, name string) *ucli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func findFlag(flags []ucli.Flag, word string) ucli.Flag {
	name, _, _ := strings.Cut(strings.TrimLeft(word, "-"), "=")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

func takesValue(f ucli.Flag) bool {
	if dv, ok := f.(ucli.DocGenerationFlag); ok {
		return dv.TakesValue()
	}
	return false
}

func withPrefix(cands []string, prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// maxTicketCandidates bounds one answer: more is not something a person reads after a TAB.
const maxTicketCandidates = 200

// indexedTickets completes a ticket id from the ticket index. The index keeps the words of messages that hold
// a digit ("42" of "ENG-42"), so what is typed is split after its last character that cannot be in such a word
// ("ENG-" and "4") and the words starting with the rest are put after it: ENG-4 → ENG-42, ENG-420. The index
// narrows, as it does for commits: a candidate is a word some message has, and commits says which are tied. With
// bernstein.projects, a key being typed (KA) completes to its "KAFKA-", and ids of other keys are not offered.
func indexedTickets(env *Env, cur string) []string {
	wd, err := env.getwd()
	if err != nil {
		return nil
	}
	repo, err := gitext.Discover(wd, env.getenv, objstore.WithGoGit())
	if err != nil {
		return nil
	}
	cut := 0
	for i, r := range cur {
		if !ticket.IsWordRune(r) {
			cut = i + utf8.RuneLen(r)
		}
	}
	head, tail := cur[:cut], cur[cut:]
	// bernstein.projects, when set: a key being typed completes to "KEY-", and only ids of those keys are offered
	// (not KIP-848 beside KAFKA-848), as record and the hook bundle only theirs.
	var projects []string
	if cfg, err := repo.Configuration(); err == nil {
		set := settings.Load(settings.Sources{Config: cfg}, settings.Flags{})
		projects, _ = record.ParseProjects(set.Projects) // a bad value: no filter here; record says why
	}
	var out []string
	if head == "" {
		for _, p := range projects {
			if len(p) >= len(cur) && strings.EqualFold(p[:len(cur)], cur) {
				out = append(out, cur+p[len(cur):]+"-")
			}
		}
	}
	if tail == "" || len(out) > 0 {
		sort.Strings(out)
		return out // a key being typed: "KAFKA-" first, its numbers on the next TAB
	}
	for _, w := range discover.IndexedWords(repo, tail, maxTicketCandidates) {
		if len(w) < len(tail) {
			continue
		}
		id := head + tail + w[len(tail):]
		if strings.Contains(id, "-") && !record.InProjects(id, projects) {
			continue
		}
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
