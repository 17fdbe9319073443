package cli

import (
	"context"
	"errors"
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
	"github.com/git-bernstein/git-bernstein/internal/store"
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
	dir, err := s.bundleDir(c)
	if err != nil {
		return err
	}
	use := writeStores
	if c.Bool("no-retention") {
		use = writeStoresNoRetention
	}
	rep, err := share.PushAll(ctx, share.PushRequest{Options: o, BundleDir: dir,
		Identity: func() gitext.Signature { return record.Identity(s.cfg, s.env.getenv) },
		Stores:   func() ([]store.Store, error) { return s.stores(c, use) },
		Now:      s.env.now,
		Done:     func(step share.PushStep, rep *share.PushReport) { printPushStep(c, o, step, rep) }})
	if err != nil || rep.Uploads == nil {
		return err
	}
	return storesOutcome(c, o.Remote, rep)
}

// printPushStep says what push did as each step ends: the files kept from the bundles folder, the push, each
// store's upload (a store that failed on stderr).
func printPushStep(c *ucli.Command, o share.Options, step share.PushStep, rep *share.PushReport) {
	w := c.Root().Writer
	switch {
	case step == share.StepKept && rep.Kept > 0:
		fmt.Fprintf(w, "Kept %s in %s.\n", plural.Count(rep.Kept, "file"), archives.Ref)
	case step == share.StepPushed && len(rep.Pushed.Pushed) == 0:
		fmt.Fprintf(w, "%s already has %s and %s as they are here (%s).\n", termtext.Clean(o.Remote), o.NotesRef,
			archives.Ref, rep.Took.Round(time.Millisecond))
	case step == share.StepPushed:
		var names []string
		for _, r := range rep.Pushed.Pushed {
			names = append(names, r.String())
		}
		fmt.Fprintf(w, "Pushed %s to %s (%s, %s).\n", strings.Join(names, " and "), termtext.Clean(o.Remote),
			plural.Count(rep.Pushed.Attempts, "round"), rep.Took.Round(time.Millisecond))
	case step == share.StepUploaded:
		for _, u := range rep.Uploads.Stores {
			if u.Err != nil {
				fmt.Fprintf(c.Root().ErrWriter, "git-bernstein: %s\n", termtext.Clean(u.Err.Error()))
				continue
			}
			fmt.Fprintf(w, "Uploaded %s to %s (%s checked, %s).\n", plural.Count(u.Adds, "file"),
				termtext.Clean(u.Store), plural.Count(u.Archives, "archive"), u.Took.Round(time.Millisecond))
		}
	}
}

// storesOutcome ends a push that uploaded: the store records kept and pushed again, then the stores that
// failed. A bucket without Object Lock is a usage error (exit 2) unless --no-retention; any other store that
// failed, an error (exit 1), the others uploaded to all the same.
func storesOutcome(c *ucli.Command, remote string, rep *share.PushReport) error {
	up := rep.Uploads
	if up.KeepErr != nil {
		return up.KeepErr
	}
	if rep.Repushed {
		fmt.Fprintf(c.Root().Writer, "Kept %s in %s and pushed it to %s.\n", plural.Count(up.Kept, "store record"),
			archives.Ref, termtext.Clean(remote))
	}
	failed, unlocked := 0, 0
	for _, u := range up.Stores {
		if u.Err != nil {
			failed++
			if errors.Is(u.Err, store.ErrNoObjectLock) {
				unlocked++
			}
		}
	}
	if unlocked > 0 {
		return usageError("%s without Object Lock: nothing uploaded there; create it with Object Lock, "+
			"or push --no-retention", plural.Count(unlocked, "bucket"))
	}
	if failed > 0 {
		return fmt.Errorf("%s of %s failed; run 'git bernstein push' again", plural.Count(failed, "upload"),
			plural.Count(len(up.Stores), "store"))
	}
	return nil
}
