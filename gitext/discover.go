package gitext

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// The ways a commit can be tied to a ticket, in the order reasons are reported.
const (
	SourceTrailer = "trailer"
	SourceBranch  = "branch"
	SourceMerge   = "merge"
	SourceMessage = "message"
)

// AllSources is the default --match.
var AllSources = []string{SourceTrailer, SourceBranch, SourceMerge, SourceMessage}

// DefaultTrailerKeys are the trailer keys that tie a commit to a ticket unless configured otherwise.
var DefaultTrailerKeys = []string{"Ticket", "Refs", "References", "Fixes", "Closes", "Resolves", "Issue", "Jira"}

// FindOptions says what ties a commit to the ticket.
type FindOptions struct {
	Ticket      ticket.Ticket
	Sources     []string // subset of AllSources
	TrailerKeys []string // matched case-insensitively
	Trailers    TrailerOptions
	BaseBranch  string // "" picks origin/HEAD's target, main, then master
}

// Person is an author or committer as commits.json records it.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"` // RFC 3339 in the commit's own time zone
}

// CommitDetail is one tied commit and every reason it was tied.
type CommitDetail struct {
	SHA       string   `json:"sha"`
	Parents   []string `json:"parents"`
	Author    Person   `json:"author"`
	Committer Person   `json:"committer"`
	Subject   string   `json:"subject"`
	MatchedBy []string `json:"matched_by"`
}

// Commits is the answer to "which commits are tied to this ticket", and the document written as
// git/commits.json. Its first three keys are upstream's, so readers of upstream bundles keep working.
type Commits struct {
	Tracker  string         `json:"tracker"`
	TicketID string         `json:"ticket_id"`
	Commits  []string       `json:"commits"`
	Details  []CommitDetail `json:"details"`
	// Warnings are things the user should know (a skipped source, a shallow boundary); not part of the JSON.
	Warnings []string `json:"-"`
}

// FindCommits walks history once and returns every commit tied to the ticket, parents before children.
func (r *Repo) FindCommits(opts FindOptions) (*Commits, error) {
	out := &Commits{Tracker: opts.Ticket.Tracker, TicketID: opts.Ticket.ID, Commits: []string{}, Details: []CommitDetail{}}
	use := map[string]bool{}
	for _, s := range opts.Sources {
		use[s] = true
	}
	keys := map[string]bool{}
	for _, k := range opts.TrailerKeys {
		keys[strings.ToLower(k)] = true
	}
	if len(r.Shallow) > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("this is a shallow clone: history stops at %d shallow commit(s), "+
			"so older commits of the ticket are not found; run `git fetch --unshallow` for all of it", len(r.Shallow)))
	}
	tips, err := r.HistoryTips()
	if err != nil {
		return nil, err
	}
	reasons := map[plumbing.Hash][]string{}
	addReason := func(h plumbing.Hash, reason string) {
		for _, have := range reasons[h] {
			if have == reason {
				return
			}
		}
		reasons[h] = append(reasons[h], reason)
	}
	type tiedMerge struct {
		hash   plumbing.Hash
		branch string
	}
	var merges []tiedMerge
	// A message can only tie a commit when the id occurs in it at all: that cheap test spares the trailer
	// parser and the merge patterns for almost every commit.
	mayName := opts.Ticket.Prefilter()
	var visit func(*WalkCommit) error
	if use[SourceTrailer] || use[SourceMerge] || use[SourceMessage] {
		visit = func(c *WalkCommit) error {
			if !mayName(c.Message) {
				return nil
			}
			if use[SourceTrailer] {
				for _, t := range ParseTrailers(c.Message, opts.Trailers) {
					if keys[strings.ToLower(t.Key)] && opts.Ticket.NamedIn(t.Value) {
						addReason(c.Hash, SourceTrailer+":"+t.Key)
					}
				}
			}
			if use[SourceMerge] && len(c.Parents) > 1 {
				for _, b := range MergedBranches(subjectOf(c.Message)) {
					if opts.Ticket.NamedInRef(b) {
						merges = append(merges, tiedMerge{c.Hash, b})
					}
				}
			}
			if use[SourceMessage] && opts.Ticket.NamedIn(c.Message) {
				addReason(c.Hash, SourceMessage)
			}
			return nil
		}
	}
	graph, err := r.Walk(tips, visit)
	if err != nil {
		return nil, err
	}

	if use[SourceBranch] {
		warnings, err := r.tieBranches(graph, tips, opts, addReason)
		if err != nil {
			return nil, err
		}
		out.Warnings = append(out.Warnings, warnings...)
	}
	for _, m := range merges {
		i, _ := graph.Index(m.hash)
		node := graph.Nodes[i]
		addReason(m.hash, SourceMerge+":"+m.branch)
		if len(node.Parents) < 2 {
			continue // the other side lies beyond a shallow boundary
		}
		mainline := graph.Reachable(node.Parents[:1], nil)
		side := graph.Reachable(node.Parents[1:], mainline)
		for j, in := range side {
			if in {
				addReason(graph.Nodes[j].Hash, SourceMerge+":"+m.branch)
			}
		}
	}

	for _, i := range graph.TopoOrder() {
		h := graph.Nodes[i].Hash
		rs, ok := reasons[h]
		if !ok {
			continue
		}
		c, err := r.readCommit(h, "tied commit")
		if err != nil {
			return nil, err
		}
		out.Commits = append(out.Commits, h.String())
		out.Details = append(out.Details, detail(c, graph.Nodes[i].Shallow, sortReasons(rs)))
	}
	return out, nil
}

// tieBranches ties the commits of every branch that names the ticket and that the base branch does not have.
func (r *Repo) tieBranches(g *Graph, tips []Tip, opts FindOptions, addReason func(plumbing.Hash, string)) ([]string, error) {
	var named []Tip
	for _, t := range tips {
		if (t.Name.IsBranch() || t.Name.IsRemote()) && opts.Ticket.NamedInRef(t.Name.Short()) {
			named = append(named, t)
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	baseName, baseHash, ok := r.BaseBranch(opts.BaseBranch)
	if !ok {
		what := "no main, master or origin/HEAD branch"
		if opts.BaseBranch != "" {
			what = fmt.Sprintf("base branch %q (bernstein.baseBranch) does not exist", opts.BaseBranch)
		}
		return []string{fmt.Sprintf("branch source skipped: %s to compare ticket branches with; "+
			"set one with `git config bernstein.baseBranch <branch>`", what)}, nil
	}
	bi, _ := g.Index(baseHash)
	base := g.Reachable([]int{bi}, nil)
	var warnings []string
	for _, t := range named {
		if t.Name == baseName {
			warnings = append(warnings, fmt.Sprintf("branch %s names the ticket but is the base branch: skipped, "+
				"so that all of history is not tied to the ticket", t.Name.Short()))
			continue
		}
		ti, _ := g.Index(t.Commit)
		for j, in := range g.Reachable([]int{ti}, base) {
			if in {
				addReason(g.Nodes[j].Hash, SourceBranch+":"+t.Name.Short())
			}
		}
	}
	return warnings, nil
}

var sourceRank = map[string]int{SourceTrailer: 0, SourceBranch: 1, SourceMerge: 2, SourceMessage: 3}

func sortReasons(rs []string) []string {
	out := append([]string(nil), rs...)
	sort.SliceStable(out, func(a, b int) bool {
		ka, _, _ := strings.Cut(out[a], ":")
		kb, _, _ := strings.Cut(out[b], ":")
		if sourceRank[ka] != sourceRank[kb] {
			return sourceRank[ka] < sourceRank[kb]
		}
		return out[a] < out[b]
	})
	return out
}

func detail(c *object.Commit, shallow bool, reasons []string) CommitDetail {
	parents := make([]string, 0, len(c.ParentHashes))
	for _, p := range c.ParentHashes {
		parents = append(parents, p.String())
	}
	return CommitDetail{
		SHA:       c.Hash.String(),
		Parents:   parents,
		Author:    person(c.Author),
		Committer: person(c.Committer),
		Subject:   subjectOf(c.Message),
		MatchedBy: reasons,
	}
}

func person(s object.Signature) Person {
	return Person{Name: s.Name, Email: s.Email, Date: s.When.Format(time.RFC3339)}
}

// subjectOf is the message's first paragraph joined into one line, as git's %s prints it.
func subjectOf(msg string) string {
	msg = strings.TrimLeft(msg, "\n")
	para, _, _ := strings.Cut(msg, "\n\n")
	lines := strings.Split(strings.TrimRight(para, "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " ")
}
