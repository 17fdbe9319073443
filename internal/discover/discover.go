package discover

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/internal/mergesubject"
	"github.com/git-bernstein/git-bernstein/internal/plural"
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

// Options says what ties a commit to the ticket.
type Options struct {
	Ticket      ticket.Ticket
	Sources     []string // subset of AllSources
	TrailerKeys []string // matched case-insensitively
	Trailers    gitext.TrailerOptions
	BaseBranch  string // "" picks origin/HEAD's target, main, then master
	// UseIndex reads and maintains the ticket index (<common dir>/bernstein/index).
	UseIndex bool
	// CoreAbbrev is core.abbrev ("" when unset): patch ids hash a binary file's ids as `git show` shortens them.
	CoreAbbrev string
	// Tips, when not nil, are the history tips to walk instead of the repository's refs, and Base, when not
	// nil, the base branch instead of resolving BaseBranch (an empty name: there was none). `verify --repo`
	// gives the ones a bundle recorded, to find the ticket again at the state the bundle was made at.
	Tips []gitext.Tip
	Base *gitext.Tip
	// NoCaches reads and writes neither the ticket index nor the patch id cache, whatever UseIndex says: the
	// answer then rests on the objects alone (`verify --repo`, which must not trust a cache).
	NoCaches bool
	// RecomputePatchIDs computes every patch id and takes none from the cache; a cached id that differs is
	// replaced, with a warning (bundle: what is signed must not come from a file anyone with .git can write).
	RecomputePatchIDs bool
	// Diffs, when not nil, keeps the part diffs made for the patch ids (patch.Differ.WritePartDiff), for a
	// patch series of the same commits to write instead of diffing them again (bundle's git/diff.patch).
	Diffs *patch.Diffs
	// PatchIDsToGroup computes only the patch ids that can join two of the ticket's commits into one change
	// (Changes): those of commits that change the same paths as another tied commit (patch.Differ.ChangedPaths,
	// from trees alone). The others' PatchID is nil, unless the cache has it. What `commits` prints needs no
	// more; --json, bundles and verify need them all. On Kafka's KAFKA-10199 the diffs were a third of a
	// first run.
	PatchIDsToGroup bool
	// TrackerDefaulted says the tracker is github only because none was chosen (bernstein.tracker unset, no
	// tracker argument): a ticket id shaped like a Jira or Linear key then gets a warning, first.
	TrackerDefaulted bool
	// Index, when not nil, is the ticket index as Preload read it, taken instead of reading it again (when
	// UseIndex says to use one at all).
	Index *Preloaded
	// FullWalk, when not nil, is called before a walk of all history (no usable ticket index): from then on a
	// node per commit lives until the caller exits, which the caller may tell the runtime (commits does).
	FullWalk func()
}

// fullWalk calls FullWalk, if any.
func (o Options) fullWalk() {
	if o.FullWalk != nil {
		o.FullWalk()
	}
}

// Find walks r's history once and returns every commit tied to the ticket, parents before children.
func Find(r *gitext.Repo, opts Options) (*Commits, error) {
	out := &Commits{Tracker: opts.Ticket.Tracker, TicketID: opts.Ticket.ID, Commits: []string{}, Details: []CommitDetail{}}
	if opts.TrackerDefaulted && ticket.LooksLikeKey(opts.Ticket.ID) {
		out.Warnings = append(out.Warnings, keyUnderGithub(opts.Ticket.ID))
	}
	use := map[string]bool{}
	for _, s := range opts.Sources {
		use[s] = true
	}
	keys := map[string]bool{}
	for _, k := range opts.TrailerKeys {
		keys[strings.ToLower(k)] = true
	}
	if shallow := r.ShallowCommits(); len(shallow) > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("this is a shallow clone: history stops at %s, "+
			"so older commits of the ticket are not found; run `git fetch --unshallow` for all of it", plural.Count(len(shallow), "shallow commit")))
	}
	tips, err := historyTips(r, opts)
	if err != nil {
		return nil, err
	}
	out.Discovery = discoveryOf(r, opts, tips)
	reasons := map[gitext.Hash][]string{}
	addReason := func(h gitext.Hash, reason string) {
		for _, have := range reasons[h] {
			if have == reason {
				return
			}
		}
		reasons[h] = append(reasons[h], reason)
	}
	type tiedMerge struct {
		hash   gitext.Hash
		branch string
	}
	var merges []tiedMerge
	// A message can only tie a commit when the id occurs in it at all: that cheap test spares the trailer
	// parser and the merge patterns for almost every commit.
	mayName := opts.Ticket.Prefilter()
	var visit func(*gitext.WalkCommit) error
	if use[SourceTrailer] || use[SourceMerge] || use[SourceMessage] {
		visit = func(c *gitext.WalkCommit) error {
			if !mayName(c.Message) {
				return nil
			}
			if use[SourceTrailer] {
				for _, t := range gitext.ParseTrailers(c.Message, opts.Trailers) {
					if keys[strings.ToLower(t.Key)] && opts.Ticket.NamedIn(t.Value) {
						addReason(c.Hash, SourceTrailer+":"+t.Key)
					}
				}
			}
			if use[SourceMerge] && len(c.Parents) > 1 {
				subject := subjectOf(c.Message)
				for _, b := range mergesubject.Branches(subject) {
					if opts.Ticket.NamedInRef(b) {
						merges = append(merges, tiedMerge{c.Hash, b})
					}
				}
				// GitHub's merge of pull request #N ties what it brought in, like a merged ticket branch: the
				// pull request is the ticket even when its branch name carries no number.
				if opts.Ticket.Numeric() && mergesubject.PullRequestNumber(subject) == opts.Ticket.ID {
					merges = append(merges, tiedMerge{c.Hash, "pull request #" + opts.Ticket.ID})
				}
			}
			if use[SourceMessage] && opts.Ticket.NamedIn(c.Message) {
				addReason(c.Hash, SourceMessage)
			}
			return nil
		}
	}
	graph, saving, err := history(r, opts, tips, visit, mayName)
	if err != nil {
		return nil, err
	}
	// The ticket index is written while the rest is worked out; an early return still waits for it, so that
	// the process never exits with the file half-written.
	defer saving.wait()

	if use[SourceBranch] {
		warnings, err := tieBranches(r, graph, tips, opts, addReason)
		if err != nil {
			return nil, err
		}
		out.Warnings = append(out.Warnings, warnings...)
	}
	for _, m := range merges {
		i, _ := graph.Index(m.hash)
		node := graph.Node(i)
		addReason(m.hash, SourceMerge+":"+m.branch)
		if len(node.Parents) < 2 {
			continue // the other side lies beyond a shallow boundary
		}
		for _, j := range graph.Exclusive(node.Parents[1:], node.Parents[:1]) {
			addReason(graph.Node(j).Hash, SourceMerge+":"+m.branch)
		}
	}

	tied := make([]int, 0, len(reasons))
	for h := range reasons {
		i, _ := graph.Index(h)
		tied = append(tied, i)
	}
	sort.Slice(tied, func(a, b int) bool { return graph.Rank(tied[a]) < graph.Rank(tied[b]) })
	hashes := make([]gitext.Hash, len(tied))
	merge := make([]bool, len(tied)) // or at a shallow boundary: no diff to make
	// Where the tied commits landed needs only the graph: it is worked out on the other core while they are
	// read (a warm run on go-git's history: 0.2 ms of the 0.55 both take one after the other).
	landedDone := make(chan []LandedOn, 1)
	go func() { landedDone <- landedOn(graph, tips, tied) }()
	for k, i := range tied {
		h := graph.Node(i).Hash
		c, err := r.ReadCommit(h, "tied commit")
		if err != nil {
			return nil, err
		}
		hashes[k], merge[k] = h, len(c.ParentHashes) > 1 || graph.Node(i).Shallow
		out.Commits = append(out.Commits, h.String())
		d := detail(c, sortReasons(reasons[h]))
		d.CherryPickedFrom = cherryPickedFrom(c.Message)
		out.Details = append(out.Details, d)
	}
	landed := <-landedDone
	ids, warnings := patchIDs(r, hashes, merge, opts.CoreAbbrev, patchIDCacheModeOf(opts), opts.Diffs, opts.PatchIDsToGroup)
	out.Warnings = append(out.Warnings, warnings...)
	for k := range out.Details {
		out.Details[k].LandedOn = &landed[k]
		out.Details[k].PatchID = ids[k]
	}
	out.Warnings = append(out.Warnings, saving.wait()...)
	return out, nil
}

// history returns the graph of all history, having called visit for every commit whose message could name the
// ticket (visit nil: messages are not needed). With the ticket index it visits only the commits of the
// ticket's words and the commits added since the index was written; without it, every commit. mayName is the
// test visit starts with: a message it fails may reach visit empty.
func history(r *gitext.Repo, opts Options, tips []gitext.Tip, visit func(*gitext.WalkCommit) error,
	mayName func(string) bool) (*gitext.Graph, *indexWrite, error) {
	words := ticketWords(opts.Ticket.ID)
	if visit == nil || !opts.UseIndex || opts.NoCaches || len(words) == 0 {
		opts.fullWalk()
		g, err := r.Walk(tips, visit)
		if err != nil {
			return nil, nil, err
		}
		return g, nil, nil
	}
	ix, err := opts.Index.load(r)
	if err != nil {
		return nil, nil, err
	}
	if ix != nil {
		g, saved, ok, err := useIndex(r, ix, tips, words, visit)
		if err != nil || ok {
			return g, written(saved), err
		}
	}
	// No usable index: walk everything once, and build it on the way. A message's words are found on every
	// core (prep); only adding them to the postings is serial.
	opts.fullWalk()
	postings := newPostingLists()
	g, err := r.WalkWith(nil, tips, func(c *gitext.WalkCommit) any {
		// A message has a few words (Kafka's, four on average): they are gathered on the stack, then copied
		// into one string, so that they share nothing with the message, which is dropped here when it cannot
		// name the ticket (nearly always): the walk then keeps no copy of it for visit (gitext.WalkWith).
		var stack [16]string
		words := stack[:0]
		IndexWords(c.Message, func(w string) { words = append(words, w) })
		if !mayName(c.Message) {
			c.Message = ""
		}
		if len(words) == 0 {
			return nil
		}
		n := 0
		for _, w := range words {
			n += len(w)
		}
		var all strings.Builder
		all.Grow(n)
		for _, w := range words {
			all.WriteString(w)
		}
		joined, out := all.String(), make([]string, len(words))
		for k, w := range words {
			out[k], joined = joined[:len(w)], joined[len(w):]
		}
		return out
	}, func(c *gitext.WalkCommit) error {
		words, _ := c.Prepared.([]string) // nil: the message has none
		for _, w := range words {
			postings.add(w, uint32(c.Node))
		}
		return visit(c)
	})
	if err != nil {
		return nil, nil, err
	}
	return g, saveInBackground(r, g, tips, postings), nil
}

// useIndex answers from the index. ok is false when the index must be rebuilt (history was rewritten).
func useIndex(r *gitext.Repo, ix *ticketIndex, tips []gitext.Tip, words []string, visit func(*gitext.WalkCommit) error) (*gitext.Graph, []string, bool, error) {
	g := ix.g
	var fresh []gitext.Tip
	current := map[gitext.Hash]bool{}
	for _, t := range tips {
		current[t.Commit] = true
		if _, ok := g.Index(t.Commit); !ok {
			fresh = append(fresh, t)
		}
	}
	// Commits added since the index was written: walked alone, judged after the rewrite check below.
	var added []*gitext.WalkCommit
	if len(fresh) > 0 {
		grown, err := r.WalkFrom(g, fresh, func(c *gitext.WalkCommit) error {
			added = append(added, c)
			return nil
		})
		if err != nil {
			return nil, nil, false, err
		}
		g = grown
	}
	var gone []int
	for _, h := range ix.tips {
		if current[h] {
			continue
		}
		i, ok := g.Index(h)
		if !ok {
			return nil, nil, false, nil
		}
		gone = append(gone, i)
	}
	if len(gone) > 0 {
		// A tip it knew is no longer a tip: fine while it is still in history (a branch moved on, a merged
		// branch was deleted); a rewrite when it is not.
		var starts []int
		for _, t := range tips {
			i, _ := g.Index(t.Commit)
			starts = append(starts, i)
		}
		reach := g.Reachable(starts, nil)
		for _, i := range gone {
			if !reach[i] {
				return nil, nil, false, nil
			}
		}
	}
	// The commits the index names for every word of the ticket, read again and judged by the exact rules.
	lists, ok := ix.postings(words...)
	if !ok {
		return nil, nil, false, nil
	}
	cand := lists[0]
	for _, list := range lists[1:] {
		cand = intersectSorted(cand, list)
	}
	read, err := r.ReadWalkCommits(g, cand, "named by the ticket index")
	if err != nil {
		if errors.Is(err, gitext.ErrMissingObject) {
			return nil, nil, false, nil // gone after a rewrite and gc: rebuild
		}
		return nil, nil, false, err
	}
	if !postingsHold(read, words) {
		return nil, nil, false, nil // not an index we wrote: walk everything and write a new one
	}
	for _, c := range read {
		if err := visit(c); err != nil {
			return nil, nil, false, err
		}
	}
	for _, c := range added {
		if err := visit(c); err != nil {
			return nil, nil, false, err
		}
	}
	if len(fresh) == 0 && len(gone) == 0 || !rewriteDue(len(added), g.Len()) {
		return g, nil, true, nil
	}
	all, ok := ix.allPostings()
	if !ok {
		return nil, nil, false, nil
	}
	for _, c := range added {
		IndexWords(c.Message, func(w string) { all.add(w, uint32(c.Node)) })
	}
	return g, saveIndexOrWarn(r, g, tips, all), true, nil
}

// rewriteDue says whether an index that lacks added of history's nodes commits is written again now. Rewriting
// decodes and encodes every posting (on a 200,000-commit history 60% of the post-merge hook's CPU time and most of
// its 380 MB), while a run that leaves it reads the commits added since, a few for each merge: so it is written
// again once those are more than 256 and more than 1% of history, or when tips only moved (nothing added, which
// reading cannot catch up).
func rewriteDue(added, nodes int) bool {
	return added == 0 || added > max(256, nodes/100)
}

// indexWrite is the ticket index being written while the command goes on; nil is nothing to wait for.
type indexWrite struct {
	done     chan struct{}
	warnings []string
}

// saveInBackground writes the index on its own goroutine. g and postings must not change until wait returns.
func saveInBackground(r *gitext.Repo, g *gitext.Graph, tips []gitext.Tip, postings *postingLists) *indexWrite {
	w := &indexWrite{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		w.warnings = saveIndexOrWarn(r, g, tips, postings)
	}()
	return w
}

// written is an indexWrite already finished with these warnings.
func written(warnings []string) *indexWrite {
	w := &indexWrite{done: make(chan struct{}), warnings: warnings}
	close(w.done)
	return w
}

// wait returns once the index is written (or failed to be), with the warnings saying why not.
func (w *indexWrite) wait() []string {
	if w == nil {
		return nil
	}
	<-w.done
	return w.warnings
}

func saveIndexOrWarn(r *gitext.Repo, g *gitext.Graph, tips []gitext.Tip, postings *postingLists) []string {
	if err := saveIndex(r, g, tips, postings); err != nil {
		return []string{fmt.Sprintf("could not write the ticket index: %v; answers stay right, only slower "+
			"(git config bernstein.index false turns it off)", err)}
	}
	return nil
}

func intersectSorted(a, b []int) []int {
	var out []int
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return out
}

// tieBranches ties the commits of every branch that names the ticket and that it adds over where it forked from
// the base branch, local or remote-tracking (forkStops).
func tieBranches(r *gitext.Repo, g *gitext.Graph, tips []gitext.Tip, opts Options, addReason func(gitext.Hash, string)) ([]string, error) {
	var named []gitext.Tip
	for _, t := range tips {
		if (t.Name.IsBranch() || t.Name.IsRemote()) && opts.Ticket.NamedInRef(gitext.ShortName(t.Name)) {
			named = append(named, t)
		}
	}
	if len(named) == 0 {
		return nil, nil
	}
	baseName, baseHash, ok := baseBranch(r, opts)
	if !ok {
		what := "no main, master or origin/HEAD branch"
		if opts.BaseBranch != "" {
			what = fmt.Sprintf("base branch %q (bernstein.baseBranch) does not exist", opts.BaseBranch)
		}
		return []string{fmt.Sprintf("branch source skipped: %s to compare ticket branches with; "+
			"set one with `git config bernstein.baseBranch <branch>`", what)}, nil
	}
	copies := baseCopies(r, g, tips, baseName)
	if len(copies) == 0 { // a configured base that is no branch tip (refs/…): compare with it alone
		bi, _ := g.Index(baseHash)
		copies = []baseCopy{{baseName, bi}}
	}
	reflog := func(ref gitext.RefName) ([]gitext.ReflogEntry, bool) {
		entries, ok, err := r.Reflog(ref)
		return entries, ok && err == nil // an unreadable reflog is none: the copy is left out
	}
	var warnings []string
	isBase := map[gitext.RefName]bool{baseName: true}
	for _, c := range copies {
		isBase[c.ref] = true // origin/KAFKA-1 is the base too when the base is a local KAFKA-1
	}
	for _, t := range named {
		if isBase[t.Name] {
			warnings = append(warnings, fmt.Sprintf("branch %s names the ticket but is the base branch: skipped, "+
				"so that all of history is not tied to the ticket", gitext.ShortName(t.Name)))
			continue
		}
		ti, _ := g.Index(t.Commit)
		for _, j := range g.Exclusive([]int{ti}, forkStops(g, ti, t.Name, copies, reflog)) {
			addReason(g.Node(j).Hash, SourceBranch+":"+gitext.ShortName(t.Name))
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

func detail(c *gitext.Commit, reasons []string) CommitDetail {
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

func person(s gitext.Signature) Person {
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
