// Package share moves git-bernstein's notes and archives refs between a repository and a remote: fetch, merge,
// push. The network is the user's own git (a subprocess: their credential helpers, SSH configuration and
// proxies); merging is gitext's, on the local refs, with the same compare-and-swap as every other write.
//
// What a remote sends is hostile until checked: its refs are fetched into tracking refs of their own
// (refs/notes/remotes/<remote>/…, refs/bernstein/remotes/<remote>/archives), never over ours; an archives tree is
// judged whole by archives.Check before any of it is merged; note blobs are bounded; and a conflict (one name, two
// blobs) stops the merge with the local refs as they were.
package share

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/notes"
)

// Limits on what a remote's notes may make us read.
const (
	MaxNote  = notes.MaxNote // one note: a line is about 300 bytes, so thousands of bundles on one commit
	MaxNotes = 1 << 20       // notes in one notes tree
)

// Options say what to move and as whom.
type Options struct {
	Repo     *gitext.Repo
	Remote   string // a remote's name or a URL
	NotesRef gitext.RefName
	Author   gitext.Signature // of merge commits
	// Env is the environment git runs with (nil: this process's).
	Env []string
	// Attempts bounds push's fetch-merge-push rounds when others keep pushing in between (0: 10).
	Attempts int
}

// DefaultRemote is the remote push and fetch use when none is named: git config bernstein.remote, else the
// current branch's upstream remote (branch.<name>.remote, unless it is "." for a local branch), else origin.
func DefaultRemote(r *gitext.Repo, cfg *gitext.Config) string {
	if v, ok := cfg.Get("bernstein.remote"); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v)
	}
	if branch, ok := r.CurrentBranch(); ok {
		if v, ok := cfg.Get("branch." + gitext.ShortName(branch) + ".remote"); ok && v != "" && v != "." {
			return v
		}
	}
	return "origin"
}

// remoteName is a remote as it can name tracking refs: its own name when it is a plain one, else (a URL, a
// path) "url-" and 12 hex digits of its sha256, so no name a user types can climb out of refs/…/remotes/.
// plainRemote is compiled when first used: {0,99} compiles to a program of a hundred steps, and every command
// paid for it at start-up (100 KB, 1,300 allocations), which is a tenth of a warm `commits`.
var plainRemote = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`) })

func remoteName(remote string) string {
	if plainRemote().MatchString(remote) && !strings.Contains(remote, "..") && !strings.HasSuffix(remote, ".lock") {
		return remote
	}
	s := sha256.Sum256([]byte(remote))
	return "url-" + hex.EncodeToString(s[:6])
}

// trackingRefs are where a remote's refs are fetched to: beside ours, never over them.
func trackingRefs(remote string, notesRef gitext.RefName) (notesTrack, archivesTrack gitext.RefName) {
	name := remoteName(remote)
	short := strings.TrimPrefix(notesRef.String(), "refs/notes/")
	return gitext.RefName("refs/notes/remotes/" + name + "/" + short),
		gitext.RefName("refs/bernstein/remotes/" + name + "/archives")
}

// git runs the user's git on the repository and returns stdout; the error carries stderr.
func (o *Options) git(args ...string) (string, error) {
	full := append([]string{"--git-dir", o.Repo.GitDir}, args...)
	cmd := exec.Command("git", full...)
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	// --git-dir says which repository; a GIT_DIR or GIT_WORK_TREE from a hook must not say another.
	cmd.Env = append(withoutGitDir(env), "GIT_TERMINAL_PROMPT=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), &GitError{Args: args, Err: err, Stderr: strings.TrimSpace(errb.String())}
	}
	return out.String(), nil
}

func withoutGitDir(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_WORK_TREE=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// GitError is a git command that failed, with what it printed.
type GitError struct {
	Args   []string
	Err    error
	Stderr string
}

func (e *GitError) Error() string {
	msg := fmt.Sprintf("git %s: %v", strings.Join(e.Args, " "), e.Err)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Fetched is what Fetch found and did, ref by ref.
type Fetched struct {
	Remote         string
	NotesMoved     bool // our notes ref moved (merged or fast-forwarded)
	ArchivesMoved  bool
	RemoteNotes    bool // the remote has the ref at all
	RemoteArchives bool
	// remote ref → the commit ls-remote saw, to skip pushing what the remote already has
	at map[gitext.RefName]gitext.Hash
}

// Fetch fetches the remote's notes and archives refs into tracking refs and merges them into ours: notes as `git
// notes merge -s cat_sort_uniq` does, archives as a union after archives.Check has passed the whole tree.
func Fetch(o Options) (*Fetched, error) {
	f := &Fetched{Remote: o.Remote, at: map[gitext.RefName]gitext.Hash{}}
	out, err := o.git("ls-remote", "--", o.Remote, o.NotesRef.String(), archives.Ref.String())
	if err != nil {
		return nil, fmt.Errorf("cannot reach remote %q (name another, or set git config bernstein.remote): %w", o.Remote, err)
	}
	for _, line := range strings.Split(out, "\n") {
		sha, name, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		if len(sha) != 40 && len(sha) != 64 {
			return nil, fmt.Errorf("git ls-remote %s: unexpected line %q", o.Remote, line)
		}
		f.at[gitext.RefName(name)] = gitext.NewHash(sha)
	}
	notesTrack, archivesTrack := trackingRefs(o.Remote, o.NotesRef)
	args := []string{"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--", o.Remote}
	if _, ok := f.at[o.NotesRef]; ok {
		f.RemoteNotes = true
		args = append(args, "+"+o.NotesRef.String()+":"+notesTrack.String())
	}
	if _, ok := f.at[archives.Ref]; ok {
		f.RemoteArchives = true
		args = append(args, "+"+archives.Ref.String()+":"+archivesTrack.String())
	}
	if !f.RemoteNotes && !f.RemoteArchives {
		return f, nil
	}
	if _, err := o.git(args...); err != nil {
		return nil, err
	}
	if f.RemoteArchives {
		if f.ArchivesMoved, err = mergeArchives(o, archivesTrack); err != nil {
			return nil, err
		}
	}
	if f.RemoteNotes {
		if f.NotesMoved, err = mergeNotes(o, notesTrack); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func fetchedCommit(o Options, track gitext.RefName) (gitext.Hash, gitext.Hash, error) {
	c, tree, err := objstore.Of(o.Repo).RefCommit(track)
	if err != nil {
		return c, tree, err
	}
	if c.IsZero() {
		return c, tree, fmt.Errorf("git fetch %s left no %s", o.Remote, track)
	}
	return c, tree, nil
}

func mergeArchives(o Options, track gitext.RefName) (bool, error) {
	c, tree, err := fetchedCommit(o, track)
	if err != nil {
		return false, err
	}
	if err := archives.Check(o.Repo, tree); err != nil {
		return false, fmt.Errorf("%s's %s refused, nothing of it merged: %w", o.Remote, archives.Ref, err)
	}
	moved, err := objstore.Of(o.Repo).MergeRef(archives.Ref, c, o.Author, "Merge "+archives.Ref.String()+" of "+o.Remote+"\n", objstore.Of(o.Repo).UnionTrees)
	if errors.Is(err, objstore.ErrTreeConflict) {
		return false, fmt.Errorf("%s's %s cannot be merged: %w; one of the two copies was changed after it was written "+
			"(compare them with 'git diff %s %s'), and neither was changed here", o.Remote, archives.Ref, err, archives.Ref, track)
	}
	return moved, err
}

func mergeNotes(o Options, track gitext.RefName) (bool, error) {
	c, _, err := fetchedCommit(o, track)
	if err != nil {
		return false, err
	}
	combine := func(local, other []byte) []byte {
		return notes.MergeLines(local, strings.Split(string(other), "\n"), nil)
	}
	return objstore.Of(o.Repo).MergeRef(o.NotesRef, c, o.Author, "Notes merged by 'git bernstein fetch' from "+o.Remote+" (cat_sort_uniq)\n",
		objstore.Of(o.Repo).NotesMerge(combine, MaxNote, MaxNotes))
}

// Pushed is what Push did.
type Pushed struct {
	Fetched  *Fetched
	Pushed   []gitext.RefName // refs the remote did not have as we have them
	Attempts int
}

// Push fetches and merges (Fetch), then pushes our notes and archives refs to the remote, never forced: our
// commits descend from what was fetched, so a push made by someone else in between makes ours a
// non-fast-forward, which the remote refuses, and Push then fetches, merges and pushes again, up to o.Attempts
// times. Nothing on the remote is ever overwritten.
func Push(o Options) (*Pushed, error) {
	attempts := o.Attempts
	if attempts <= 0 {
		attempts = 10
	}
	p := &Pushed{}
	var last error
	for p.Attempts = 1; p.Attempts <= attempts; p.Attempts++ {
		f, err := Fetch(o)
		if err != nil {
			return nil, err
		}
		p.Fetched, p.Pushed = f, nil
		args := []string{"push", "--porcelain"}
		var specs []string
		for _, ref := range []gitext.RefName{o.NotesRef, archives.Ref} {
			local, _, err := objstore.Of(o.Repo).RefCommit(ref)
			if err != nil {
				return nil, err
			}
			if local.IsZero() || local == f.at[ref] {
				continue
			}
			specs = append(specs, local.String()+":"+ref.String())
			p.Pushed = append(p.Pushed, ref)
		}
		if len(specs) == 0 {
			return p, nil
		}
		args = append(append(args, "--", o.Remote), specs...)
		out, err := o.git(args...)
		if err == nil {
			return p, nil
		}
		if !rejected(out) {
			return nil, err
		}
		last = err
		time.Sleep(time.Duration(50+rand.IntN(100*p.Attempts)) * time.Millisecond)
	}
	return nil, fmt.Errorf("the remote %s kept changing: %d fetch-merge-push rounds lost the race; try again (%v)", o.Remote, attempts, last)
}

// rejected says git push's porcelain output reports a ref refused because the remote moved (fetch first,
// non-fast-forward, or a lock held by a push at the same moment). Anything else (no access, no network) is not worth retrying.
func rejected(porcelain string) bool {
	for _, line := range strings.Split(porcelain, "\n") {
		if strings.HasPrefix(line, "!\t") && (strings.Contains(line, "stale info") || strings.Contains(line, "fetch first") ||
			strings.Contains(line, "non-fast-forward") || strings.Contains(line, "failed to update ref") ||
			strings.Contains(line, "cannot lock ref")) {
			return true
		}
	}
	return false
}
