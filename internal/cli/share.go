package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/share"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

const remoteHelp = `REMOTE is a remote's name or URL; default git config bernstein.remote, else the current branch's upstream
remote, else origin. The network is your own git (git ls-remote, fetch, push: your credential helpers, SSH
configuration and proxies).`

func pushCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "push",
		Usage:     "share notes and archives: fetch the remote's, merge them with yours, push both",
		ArgsUsage: "[REMOTE]",
		Description: `Keeps in refs/bernstein/archives every archive noted here that the bundles folder holds with its noted
digest and the ref lacks (what a hook cut short left), then fetches the remote's notes (git config
bernstein.notesRef, default refs/notes/bernstein) and refs/bernstein/archives, merges them into yours (notes as
'git notes merge -s cat_sort_uniq', archives as a union: nothing is overwritten, and one name with two different
files stops everything), and pushes both, never forced. When someone pushed in between, the push is refused
and push fetches, merges and pushes again (up to 10 rounds). Last, every noted archive held here (bundles
folder or refs/bernstein/archives, checked against its note) and its sidecars are uploaded to each git config
bernstein.store that lacks them (oci://HOST[:PORT]/REPOSITORY, credentials from docker login; or
s3://BUCKET[/PREFIX], credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, each object locked until the
bundle's created_at plus bernstein.retention). The version id an S3 bucket gives each file is kept in
refs/bernstein/archives as a store record, and that ref is pushed again. Exit 2 when a bucket has no Object
Lock (nothing is uploaded there) unless --no-retention.
What the remote sends is checked before it is merged: refs/bernstein/archives holds only
<tracker>/<ticket>/<sha256>.tar.gz and its sidecars, as regular files within size limits.
` + remoteHelp,
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "bundle-dir", Usage: "root `DIR` of recorded bundles (default: git config bernstein.bundleDir, else <git common dir>/bernstein/bundles)"},
			&ucli.BoolFlag{Name: "no-retention", Usage: "upload to S3 stores without Object Lock retention (and to buckets without Object Lock)"},
		},
		Action: runPush,
	}
}

func fetchCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "fetch",
		Usage:     "get the remote's notes and archives and merge them with yours",
		ArgsUsage: "[REMOTE]",
		Description: `Fetches the remote's notes (git config bernstein.notesRef, default refs/notes/bernstein) into
refs/notes/remotes/<remote>/… and its refs/bernstein/archives into refs/bernstein/remotes/<remote>/archives,
checks them, and merges them into yours as push does. Then 'git bernstein get REV' writes the archives.
` + remoteHelp,
		Action: runFetch,
	}
}

func (s *session) shareOptions(c *ucli.Command) (share.Options, error) {
	args := c.Args().Slice()
	if len(args) > 1 {
		return share.Options{}, usageError("%s takes at most one REMOTE (got %d arguments)", c.Name, len(args))
	}
	remote := share.DefaultRemote(s.repo, s.cfg)
	if len(args) == 1 {
		remote = args[0]
	}
	if strings.HasPrefix(remote, "-") {
		return share.Options{}, usageError("REMOTE %q starts with '-'", remote)
	}
	return share.Options{Repo: s.repo, Remote: remote, NotesRef: notes.RefFrom(s.cfg), Author: record.Identity(s.cfg, s.env.getenv),
		Env: s.gitEnv()}, nil
}

// gitChildEnv are the variables that decide what the user's git reads and who it is: the child gets the run's
// values for them (tests give an environment of their own) and the process's for everything else.
var gitChildEnv = []string{"HOME", "XDG_CONFIG_HOME", "PATH", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL",
	"GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_AUTH_SOCK", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
	"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}

func (s *session) gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(gitChildEnv, k) {
			env = append(env, kv)
		}
	}
	for _, k := range gitChildEnv {
		if v := s.env.getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func runFetch(_ context.Context, c *ucli.Command) error {
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	o, err := s.shareOptions(c)
	if err != nil {
		return err
	}
	start := envOf(c).now()
	f, err := share.Fetch(o)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "Fetched from %s: %s, %s (%s).\n", termtext.Clean(o.Remote),
		shareState(o.NotesRef, f.RemoteNotes, f.NotesMoved), shareState(archives.Ref, f.RemoteArchives, f.ArchivesMoved),
		envOf(c).now().Sub(start).Round(time.Millisecond))
	return nil
}

func shareState(ref gitext.RefName, remoteHas, moved bool) string {
	switch {
	case !remoteHas:
		return ref.String() + " not there"
	case moved:
		return ref.String() + " merged"
	}
	return ref.String() + " up to date"
}

func runPush(ctx context.Context, c *ucli.Command) error {
	s, err := openSession(envOf(c))
	if err != nil {
		return err
	}
	o, err := s.shareOptions(c)
	if err != nil {
		return err
	}
	start := envOf(c).now()
	kept, err := s.keepNotedArchives(c)
	if err != nil {
		return err
	}
	if kept > 0 {
		fmt.Fprintf(c.Root().Writer, "Kept %s in %s.\n", plural.Count(kept, "file"), archives.Ref)
	}
	p, err := share.Push(o)
	if err != nil {
		return err
	}
	if len(p.Pushed) == 0 {
		fmt.Fprintf(c.Root().Writer, "%s already has %s and %s as they are here (%s).\n", termtext.Clean(o.Remote), o.NotesRef, archives.Ref,
			envOf(c).now().Sub(start).Round(time.Millisecond))
	} else {
		var names []string
		for _, r := range p.Pushed {
			names = append(names, r.String())
		}
		fmt.Fprintf(c.Root().Writer, "Pushed %s to %s (%s, %s).\n", strings.Join(names, " and "), termtext.Clean(o.Remote),
			plural.Count(p.Attempts, "round"), envOf(c).now().Sub(start).Round(time.Millisecond))
	}
	dir, err := s.bundleDir(c)
	if err != nil {
		return err
	}
	recs, err := s.pushToStores(ctx, c, dir)
	if recs > 0 {
		// The versions the stores gave are records in refs/bernstein/archives: they travel with it.
		if _, perr := share.Push(o); perr != nil {
			return perr
		}
		fmt.Fprintf(c.Root().Writer, "Kept %s in %s and pushed it to %s.\n", plural.Count(recs, "store record"), archives.Ref, termtext.Clean(o.Remote))
	}
	return err
}

// keepNotedArchives adds to refs/bernstein/archives every archive noted on notesRef that the ref lacks and the
// bundles folder holds with the noted digest: what a hook that ran out of time, or a version before the ref,
// left only in the folder. It returns how many files were added.
func (s *session) keepNotedArchives(c *ucli.Command) (int, error) {
	entries, err := notes.Entries(s.repo, notes.RefFrom(s.cfg))
	if err != nil {
		return 0, err
	}
	dir, err := s.bundleDir(c)
	if err != nil {
		return 0, err
	}
	var keep []archives.Bundle
	for _, e := range entries {
		if has, err := archives.Has(s.repo, e.Tracker, e.Ticket, e.BundleSHA256); err != nil || has {
			if err != nil {
				return 0, err
			}
			continue
		}
		b := archives.Bundle{Tracker: e.Tracker, Ticket: e.Ticket, SHA256: e.BundleSHA256,
			Archive: record.RecordedPath(dir, e.Tracker, e.Ticket, e.Bundle), Sidecars: map[string]string{}}
		// Not here, not a file to read, or not the noted archive (changed since), or a name that is no
		// archive's (the copy found is under another path): nothing to keep.
		if lc := record.LocalCopyOf(dir, e); lc.State != record.LocalMatch || lc.Path != b.Archive {
			continue
		}
		for _, kind := range archives.Kinds {
			if f, _, err := record.OpenRecorded(dir, e.Tracker, e.Ticket, e.Bundle+kind); err == nil {
				f.Close()
				b.Sidecars[kind] = b.Archive + kind
			}
		}
		keep = append(keep, b)
	}
	if len(keep) == 0 {
		return 0, nil
	}
	return archives.Store(s.repo, record.Identity(s.cfg, s.env.getenv), keep)
}
