package gitext

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/gitext/internal/backend"
	"github.com/git-bernstein/git-bernstein/gitext/internal/handoff"
	"github.com/git-bernstein/git-bernstein/gitext/internal/odb"
)

// ErrNotRepository is returned by Discover when no repository encloses the start folder.
var ErrNotRepository = errors.New("not a git repository")

// Repo is an opened repository and the folders git would use for it.
type Repo struct {
	// GitDir is this worktree's git folder (.git, or .git/worktrees/<name> for a linked worktree).
	GitDir string
	// CommonDir holds what all worktrees share: objects, refs, config, hooks, our bundles and index.
	CommonDir string
	// WorkTree is the top of the working tree; empty for a bare repository.
	WorkTree string

	// be is what gitext's sub-packages read through (Backend); gitext/objstore attaches go-git's storage to it.
	// gitext itself reads refs and objects on its own (refread.go, odb.go) and makes no go-git storage: its
	// packages (and go-git's object and config packages with it) would cost every run of the front (package
	// front) their start-up.
	be       backend.Repo
	promisor *promisor // nil unless the repository is a partial clone

	unreadMu sync.Mutex
	unread   error   // Unreadable's: the first thing left to go-git that no go-git storage was attached to read
	cached   *Config // the configuration WithConfigCache read from its cache, whose Unanswered Unreadable reports
	// shallow lists the commits whose parents this clone lacks; history walks stop there.
	shallow  map[Hash]bool
	progress func(commits int) // WithProgress
	// aloneSweep, when not 0, replaces minAloneSweep: tests make a short history sweep.
	aloneSweep int
	notice     func(string) // WithNotice

	format repoFormat
	getenv func(string) string // Discover's: the run's environment, for its configuration

	configOnce sync.Once
	config     *Config
	configErr  error
	configKeep func(key string) bool // WithConfigCache
	configRacy time.Duration         // configRacyWindow; tests shorten it
	// configSaved is closed when the cache write Configuration started is over; nil when it started none.
	// Only Configuration's once sets it, and WaitConfigCache reads it after Configuration returned.
	configSaved chan struct{}

	packOnce sync.Once
	pack     *odb.Packs
	packErr  error
	cgOnce   sync.Once
	cg       *odb.CommitGraph
	kept     *handoff.Bytes // commits ReadWalkCommits read, for ReadCommit (maxKeptRaw)
}

// Option tells Discover something about how the caller uses the repository.
type Option func(*Repo)

// WithProgress has history walks tell progress how many commits they have read so far (every few thousand).
func WithProgress(progress func(commits int)) Option { return func(r *Repo) { r.progress = progress } }

// WithNotice has the repository tell notice, once, when it does something the user should know of: fetching
// the objects a partial clone lacks from its promisor remote.
func WithNotice(notice func(string)) Option { return func(r *Repo) { r.notice = notice } }

// Discover finds and opens the repository that holds start, as git does: GIT_DIR and GIT_WORK_TREE when set
// (git sets them for hooks), else the nearest enclosing folder with a .git folder or .git file (linked worktrees
// and submodules), else a bare repository. go-git reads no GIT_* variable itself, so we resolve them here.
func Discover(start string, getenv func(string) string, opts ...Option) (*Repo, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	start, err := filepath.Abs(start)
	if err != nil {
		return nil, err
	}
	var gitDir, workTree string
	if d := getenv("GIT_DIR"); d != "" {
		gitDir = absFrom(start, d)
		if !isGitDir(gitDir) {
			return nil, fmt.Errorf("%w: GIT_DIR=%s is not a git folder", ErrNotRepository, d)
		}
		if wt := getenv("GIT_WORK_TREE"); wt != "" {
			workTree = absFrom(start, wt)
		} else if !isBare(gitDir) {
			// git: with GIT_DIR but no GIT_WORK_TREE, the current folder is the top of the worktree.
			workTree = start
		}
	} else {
		gitDir, workTree, err = findUp(start)
		if err != nil {
			return nil, err
		}
		if wt := getenv("GIT_WORK_TREE"); wt != "" {
			workTree = absFrom(start, wt)
		}
	}
	repo, err := open(gitDir, workTree)
	if err != nil {
		return nil, err
	}
	repo.getenv = getenv
	for _, o := range opts {
		o(repo)
	}
	return repo, nil
}

func open(gitDir, workTree string) (*Repo, error) {
	commonDir := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		commonDir = absFrom(gitDir, strings.TrimSpace(string(b)))
	}
	format, err := readFormat(commonDir)
	if err != nil {
		return nil, err
	}
	repo := &Repo{GitDir: gitDir, CommonDir: commonDir, WorkTree: workTree, shallow: map[plumbing.Hash]bool{},
		format: format, getenv: os.Getenv, kept: handoff.New(maxKeptRaw),
		configRacy: configRacyWindow}
	repo.be = backend.Repo{GitDir: gitDir, CommonDir: commonDir, WorkTree: workTree, Packed: repo.packed}
	if repo.promisor = newPromisor(repo, format); repo.promisor != nil {
		repo.be.Promised = repo.promisor.fetch
	}
	shallowPath := filepath.Join(commonDir, "shallow")
	if err := readShallow(shallowPath, repo.shallow); err != nil {
		return nil, fmt.Errorf("read %s: %w", shallowPath, err)
	}
	return repo, nil
}

// readShallow adds the commits the shallow file lists (one id a line; none when there is no file) to into,
// reading each line as go-git's storage did.
func readShallow(path string, into map[Hash]bool) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		into[plumbing.NewHash(sc.Text())] = true
	}
	return sc.Err()
}

// Top is the top of the working tree, or the git folder of a bare repository: where a project's own files
// (bernstein.yaml, .sdd) are looked for.
func (r *Repo) Top() string {
	if r.WorkTree != "" {
		return r.WorkTree
	}
	return r.GitDir
}

// IsShallow says whether commit h is at a shallow clone's boundary: listed in the shallow file, its parents
// not in the clone. History walks stop there.
func (r *Repo) IsShallow(h Hash) bool { return r.shallow[h] }

// ShallowCommits lists the commits of the shallow file, sorted; none for a whole clone.
func (r *Repo) ShallowCommits() []Hash {
	out := make([]Hash, 0, len(r.shallow))
	for h := range r.shallow {
		out = append(out, h)
	}
	slices.SortFunc(out, func(a, b Hash) int { return bytes.Compare(a[:], b[:]) })
	return out
}

// findUp walks from start to the root looking for .git, the way git's setup_git_directory does.
func findUp(start string) (gitDir, workTree string, err error) {
	for dir := start; ; {
		dotGit := filepath.Join(dir, ".git")
		if st, err := os.Stat(dotGit); err == nil {
			if st.IsDir() && isGitDir(dotGit) {
				return dotGit, dir, nil
			}
			if !st.IsDir() {
				target, err := readGitFile(dotGit)
				if err != nil {
					return "", "", err
				}
				return target, dir, nil
			}
		}
		if isGitDir(dir) && isBare(dir) {
			return dir, "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", fmt.Errorf("%w (or any parent): %s", ErrNotRepository, start)
		}
		dir = parent
	}
}

// readGitFile follows a `.git` file (`gitdir: <path>`), as linked worktrees and submodules use.
func readGitFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	line := strings.TrimSpace(string(b))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("read %s: not a gitdir file (want \"gitdir: <path>\")", path)
	}
	dir := absFrom(filepath.Dir(path), strings.TrimSpace(target))
	if !isGitDir(dir) {
		return "", fmt.Errorf("%s points to %s, which is not a git folder: repair it with `git worktree repair`", path, dir)
	}
	return dir, nil
}

// isGitDir says whether dir looks like a git folder: HEAD plus objects and refs (possibly via commondir).
func isGitDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, "commondir")); err == nil {
		return true
	}
	_, e1 := os.Stat(filepath.Join(dir, "objects"))
	_, e2 := os.Stat(filepath.Join(dir, "refs"))
	return e1 == nil && e2 == nil
}

func isBare(gitDir string) bool {
	b, err := os.ReadFile(filepath.Join(gitDir, "config"))
	if err != nil {
		return filepath.Base(gitDir) != ".git"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && strings.EqualFold(strings.TrimSpace(k), "bare") {
			return strings.EqualFold(strings.TrimSpace(v), "true")
		}
	}
	return false
}

func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}
