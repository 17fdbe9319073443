package record

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
)

// Options says what to record and where.
type Options struct {
	Repo   *gitext.Repo
	Range  string
	Finder *Finder
	// Discovery returns the full discovery options for a ticket id found in the range (tracker, sources,
	// trailer keys, base branch), the same ones `git bernstein bundle` uses.
	Discovery func(id string) (gitext.FindOptions, error)
	// BundleDir is the root bundles go under: <BundleDir>/<tracker>/<ticket>/<short tip sha>.tar.gz.
	BundleDir string
	SDD       string
	Selector  bundle.Selector
	LineageV2 bool
	// CreatedAt is the manifests' created_at; zero takes the tip's committer time, so recording the same range
	// twice with the same evidence gives the same archive, the same digest and so the same note line.
	CreatedAt time.Time
	SignKey   ed25519.PrivateKey
	SignKid   string
	NotesRef  plumbing.ReferenceName
	Author    object.Signature
}

// Recorded is one ticket's bundle and the note entry added for it.
type Recorded struct {
	Found  Found
	Result *bundle.Result
	Entry  gitext.NoteEntry
}

// Report is what Record did. A ticket that failed is in Failed and does not stop the others.
type Report struct {
	Range    *Range
	Tickets  []Found
	Recorded []Recorded
	Failed   []TicketError
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
	rg, err := ResolveRange(opts.Repo, opts.Range)
	if err != nil {
		return nil, err
	}
	rep := &Report{Range: rg, Tickets: opts.Finder.Tickets(rg.Commits)}
	createdAt := opts.CreatedAt
	if createdAt.IsZero() {
		tip, err := opts.Repo.CommitObject(rg.Tip)
		if err != nil {
			return nil, fmt.Errorf("read tip %s: %w", rg.Tip, err)
		}
		createdAt = tip.Committer.When.UTC()
	}
	short := rg.Tip.String()[:12]
	for _, fd := range rep.Tickets {
		rec, err := recordOne(opts, fd, short, rg.Tip, createdAt)
		if err != nil {
			rep.Failed = append(rep.Failed, TicketError{Ticket: fd.ID, Err: err})
			continue
		}
		rep.Recorded = append(rep.Recorded, *rec)
	}
	return rep, nil
}

func recordOne(opts Options, fd Found, short string, tip plumbing.Hash, createdAt time.Time) (*Recorded, error) {
	find, err := opts.Discovery(fd.ID)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(opts.BundleDir, PathPart(find.Ticket.Tracker), PathPart(find.Ticket.ID), short+".tar.gz")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, fmt.Errorf("create bundle folder %s: %w", filepath.Dir(out), err)
	}
	res, err := bundle.Build(bundle.Options{
		Repo:      opts.Repo,
		Find:      find,
		SDD:       opts.SDD,
		Out:       out,
		CreatedAt: createdAt,
		Selector:  opts.Selector,
		SignKey:   opts.SignKey,
		SignKid:   opts.SignKid,
		LineageV2: opts.LineageV2,
	})
	if err != nil {
		return nil, err
	}
	entry, err := EntryFor(res, opts.SignKid)
	if err != nil {
		return nil, err
	}
	if _, err := opts.Repo.AddNoteEntries(opts.NotesRef, tip, opts.Author, entry); err != nil {
		return nil, fmt.Errorf("note the bundle on %s: %w", short, err)
	}
	return &Recorded{Found: fd, Result: res, Entry: entry}, nil
}

var unsafePath = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// PathPart makes a tracker or ticket id safe as one folder name.
func PathPart(s string) string {
	s = unsafePath.ReplaceAllString(s, "_")
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}

// Identity is who notes commits are by, as git notes picks it: GIT_COMMITTER_NAME/EMAIL, else user.name and
// user.email, else git-bernstein itself; time is now.
func Identity(cfg *gitext.Config, getenv func(string) string) object.Signature {
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
	return object.Signature{
		Name:  pick("GIT_COMMITTER_NAME", "user.name", "git-bernstein"),
		Email: pick("GIT_COMMITTER_EMAIL", "user.email", "git-bernstein@localhost"),
		When:  time.Now().Truncate(time.Second),
	}
}
