package record

import (
	"crypto"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/revparse"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// Options says what to record and where.
type Options struct {
	Repo   *gitext.Repo
	Range  string
	Finder *Finder
	// Discovery returns the full discovery options for a ticket id found in the range (tracker, sources,
	// trailer keys, base branch), the same ones `git bernstein bundle` uses.
	Discovery func(id string) (discover.Options, error)
	// BundleDir is the root bundles go under: <BundleDir>/<tracker>/<ticket>/<short tip sha>.tar.gz.
	BundleDir string
	SDD       string
	Selector  bundle.Selector
	LineageV2 bool
	// LineageKey is the lineage v2 store's HMAC key (zero: the public default); with LineageV2 the store is
	// verified under it and checkpointed into every bundle (see checkpointStore).
	LineageKey lineage.Key
	// CreatedAt is the manifests' created_at; zero takes the tip's committer time, so recording the same range
	// twice with the same evidence gives the same archive, the same digest and so the same note line.
	CreatedAt time.Time
	SignKey   crypto.Signer // Ed25519: a key file's or ssh-agent's (package sshsig)
	SignKid   string
	SSHSig    bool   // also <archive>.sig (package bundle, Options)
	Attest    bool   // also <archive>.intoto.jsonl
	OCIStore  string // with Attest, the statement also names the archive's manifest there (package bundle, Options)
	NotesRef  gitext.RefName
	Author    gitext.Signature
	// Only, when set, records just these tickets of the range (ids compared ignoring case): what a command that
	// finishes an interrupted job names.
	Only []string
	// MaxTickets caps the tickets one range records (bernstein.maxTickets); 0 is no cap. The others are Deferred.
	MaxTickets int
	// Deadline, when set, is when no more tickets are started (the hook's budget): a ticket is started only while
	// the time left is more than the slowest one so far took, so the run ends within it, and a ticket whose
	// bundle is still being written when it passes is given up (bundle.ErrDeadline) and left for later with the
	// rest. The others are Deferred.
	Deadline time.Time
	// Now is the clock the deadline is read with; nil is time.Now.
	Now func() time.Time
	// PRs, when set, says how each ticket's bundle finds its pull requests (and their change-control evidence),
	// as `git bernstein bundle` does; nil bundles none.
	PRs func(find discover.Options) bundle.PRFunc
}

// Why tickets were left for later.
const (
	DeferredCap    = "cap"
	DeferredBudget = "budget"
)

// Recorded is one ticket's bundle and the note entry added for it.
type Recorded struct {
	Found  Found
	Result *bundle.Result
	Entry  notes.Entry
}

// Report is what Record did. A ticket that failed is in Failed and does not stop the others.
type Report struct {
	Range    *gitext.Range
	Tickets  []Found
	Recorded []Recorded
	Failed   []TicketError
	// Deferred are tickets of the range not attempted, because of DeferredWhy (DeferredCap or DeferredBudget).
	Deferred    []Found
	DeferredWhy string
	// CreatedAt is the created_at every bundle of the run got, so a later run can give the same.
	CreatedAt time.Time
}

// TicketError is one ticket that could not be bundled or noted.
type TicketError struct {
	Ticket string
	Err    error
}

func (e TicketError) Error() string { return fmt.Sprintf("%s: %v", e.Ticket, e.Err) }

// Record bundles every ticket the range names and notes each bundle on the range's tip. The error is for
// problems with the whole run (a range that does not resolve); per-ticket problems are in Report.Failed.
func Record(opts Options) (*Report, error) {
	rg, err := revparse.ResolveRange(opts.Repo, opts.Range)
	if err != nil {
		return nil, err
	}
	found := opts.Finder.Tickets(rg.Commits)
	rep := &Report{Range: rg, Tickets: only(found, opts.Only)}
	for _, id := range notNamed(found, opts.Only) {
		rep.Failed = append(rep.Failed, TicketError{Ticket: id, Err: fmt.Errorf("%s names no ticket %s", rg.Spec, id)})
	}
	createdAt := opts.CreatedAt
	if createdAt.IsZero() {
		tip, err := opts.Repo.Commit(rg.Tip)
		if err != nil {
			return nil, fmt.Errorf("read tip %s: %w", rg.Tip, err)
		}
		createdAt = tip.Committer.When.UTC()
	}
	rep.CreatedAt = createdAt
	todo := rep.Tickets
	if opts.MaxTickets > 0 && len(todo) > opts.MaxTickets {
		todo, rep.Deferred, rep.DeferredWhy = todo[:opts.MaxTickets], todo[opts.MaxTickets:], DeferredCap
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	short := rg.Tip.String()[:12]
	var cp lineageCheckpoint
	if opts.LineageV2 && len(todo) > 0 {
		cp = checkpointStore(opts, createdAt)
	}
	var slowest time.Duration
	for i, fd := range todo {
		start := now()
		if !opts.Deadline.IsZero() && opts.Deadline.Sub(start) <= slowest {
			// Too little time left for another ticket: stop here rather than hold up whoever waits (a merge).
			rep.Deferred, rep.DeferredWhy = append(append([]Found(nil), todo[i:]...), rep.Deferred...), DeferredBudget
			break
		}
		rec, err := recordOne(opts, fd, short, rg.Tip, createdAt, cp)
		slowest = max(slowest, now().Sub(start))
		if errors.Is(err, bundle.ErrDeadline) {
			// The budget ran out inside this ticket (a large .sdd): nothing was written; it and the rest wait.
			rep.Deferred, rep.DeferredWhy = append(append([]Found(nil), todo[i:]...), rep.Deferred...), DeferredBudget
			break
		}
		if err != nil {
			rep.Failed = append(rep.Failed, TicketError{Ticket: fd.ID, Err: err})
			continue
		}
		rep.Recorded = append(rep.Recorded, *rec)
	}
	return rep, nil
}

// only keeps the tickets named in ids (ignoring case); no ids keeps them all.
func only(tickets []Found, ids []string) []Found {
	if len(ids) == 0 {
		return tickets
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[strings.ToUpper(id)] = true
	}
	var out []Found
	for _, t := range tickets {
		if want[strings.ToUpper(t.ID)] {
			out = append(out, t)
		}
	}
	return out
}

// notNamed lists the ids of ids that none of tickets is (ignoring case).
func notNamed(tickets []Found, ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.ContainsFunc(tickets, func(t Found) bool { return ticket.Same(t.ID, id) }) {
			out = append(out, id)
		}
	}
	return out
}

func recordOne(opts Options, fd Found, short string, tip gitext.Hash, createdAt time.Time, cp lineageCheckpoint) (*Recorded, error) {
	find, err := opts.Discovery(fd.ID)
	if err != nil {
		return nil, err
	}
	out := RecordedPath(opts.BundleDir, find.Ticket.Tracker, find.Ticket.ID, short+".tar.gz")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, fmt.Errorf("create bundle folder %s: %w", filepath.Dir(out), err)
	}
	var prs bundle.PRFunc
	if opts.PRs != nil {
		prs = opts.PRs(find)
	}
	res, err := bundle.Build(bundle.Options{
		PRs:       prs,
		Repo:      opts.Repo,
		Find:      find,
		SDD:       opts.SDD,
		Out:       out,
		CreatedAt: createdAt,
		Selector:  opts.Selector,
		SignKey:   opts.SignKey,
		SignKid:   opts.SignKid,
		SSHSig:    opts.SSHSig,
		Attest:    opts.Attest,
		OCIStore:  opts.OCIStore,
		LineageV2: opts.LineageV2,

		LineageV2Checkpoint:     cp.data,
		LineageV2CheckpointRefs: cp.refs,

		Deadline: opts.Deadline,
		Now:      opts.Now,
	})
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, cp.warnings...)
	entry, err := EntryFor(res, opts.SignKid)
	if err != nil {
		return nil, err
	}
	entry.LineageV2Checkpoint = cp.sha256
	if _, err := notes.Add(opts.Repo, opts.NotesRef, tip, opts.Author, entry); err != nil {
		return nil, fmt.Errorf("note the bundle on %s: %w", short, err)
	}
	return &Recorded{Found: fd, Result: res, Entry: entry}, nil
}

var unsafePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]`) })

// PathPart makes a tracker or ticket id safe as one folder name.
func PathPart(s string) string {
	s = unsafePath().ReplaceAllString(s, "_")
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}

// Identity is who notes commits are by, as git notes picks it: GIT_COMMITTER_NAME/EMAIL, else user.name and
// user.email, else git-bernstein itself; time is now.
func Identity(cfg *gitext.Config, getenv func(string) string) gitext.Signature {
	pick := func(env, key, def string) string {
		if v := getenv(env); v != "" {
			return v
		}
		if cfg != nil {
			if v, ok := cfg.Get(key); ok && v != "" {
				return v
			}
		}
		return def
	}
	return gitext.Signature{
		Name:  pick("GIT_COMMITTER_NAME", "user.name", "git-bernstein"),
		Email: pick("GIT_COMMITTER_EMAIL", "user.email", "git-bernstein@localhost"),
		When:  time.Now().Truncate(time.Second),
	}
}
