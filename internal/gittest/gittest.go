// Package gittest builds real repositories with the git CLI for tests, with pinned identities and dates so that
// commit hashes are the same on every machine, and with the user's own git configuration shut out.
package gittest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Repo is a repository on disk driven by the git CLI.
type Repo struct {
	T   testing.TB
	Dir string
	// Env is the environment every git call gets: isolated config, pinned author, committer and dates.
	Env []string
	// tick advances the pinned date by one minute per commit so commits have distinct, ordered times.
	tick int
}

// Env returns an environment that isolates git from the machine's configuration (HOME, global and system
// config) and pins identities. Tests that run our binary should pass it too.
func Env(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"),
		"GIT_AUTHOR_NAME=Ada Author",
		"GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Carl Committer",
		"GIT_COMMITTER_EMAIL=carl@example.com",
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
		"TZ=UTC",
	)
}

// New makes an empty repository with initial branch main in a temp folder.
func New(t testing.TB) *Repo {
	t.Helper()
	return newIn(t, t.TempDir())
}

// newIn makes the repository in root/repo, with root/home as its HOME.
func newIn(t testing.TB, root string) *Repo {
	t.Helper()
	home := filepath.Join(root, "home")
	dir := filepath.Join(root, "repo")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Repo{T: t, Dir: dir, Env: Env(home)}
	r.runIn(root, "init", "-q", "-b", "main", dir)
	return r
}

// Open wraps an existing folder (a clone, a worktree) with the same environment as r.
func (r *Repo) Open(dir string) *Repo {
	return &Repo{T: r.T, Dir: dir, Env: r.Env, tick: r.tick}
}

// Git runs git in the repository and returns its trimmed stdout; a failure fails the test.
func (r *Repo) Git(args ...string) string {
	r.T.Helper()
	return r.runIn(r.Dir, args...)
}

// GitErr runs git and returns stdout and the error instead of failing.
func (r *Repo) GitErr(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = r.dated()
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		err = fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
	}
	return strings.TrimRight(string(out), "\n"), err
}

func (r *Repo) runIn(dir string, args ...string) string {
	r.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = r.dated()
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimRight(string(out), "\n")
}

// dated is Env plus the pinned date of the next commit. Each call moves time forward by one minute.
func (r *Repo) dated() []string {
	r.tick++
	date := fmt.Sprintf("@%d +0000", 1767225600+60*r.tick) // 2026-01-01T00:00:00Z + tick minutes
	return append(append([]string{}, r.Env...), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
}

// Write creates or replaces a file (and its folders) in the worktree.
func (r *Repo) Write(path, content string) {
	r.T.Helper()
	p := filepath.Join(r.Dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.T.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.T.Fatal(err)
	}
}

// Commit writes files (path → content), stages everything and commits with message. It returns the new sha.
func (r *Repo) Commit(message string, files map[string]string) string {
	r.T.Helper()
	for p, c := range files {
		r.Write(p, c)
	}
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", message)
	return r.head()
}

// head is the commit HEAD names right after a commit, read from the files git just wrote (HEAD and its branch's
// loose ref, which a commit always writes): a third git process per commit is most of what repositories with
// hundreds of commits cost the tests. Anything else (a linked worktree's .git file, a detached HEAD's missing
// file, a ref git keeps elsewhere) asks git.
func (r *Repo) head() string {
	r.T.Helper()
	// Each git call moves the pinned clock on (dated); so does this read, as the rev-parse it spares did, so that
	// the commits after it keep their dates and hashes (golden files hold them).
	r.tick++
	gitDir := filepath.Join(r.Dir, ".git")
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: "); err == nil && ok && strings.HasPrefix(ref, "refs/heads/") {
		b, err = os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref)))
	}
	if sha := strings.TrimSpace(string(b)); err == nil && isObjectID(sha) {
		return sha
	}
	r.tick--
	return r.Git("rev-parse", "HEAD")
}

// isObjectID says whether s is a full SHA-1 or SHA-256 object id in lower-case hex.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// FastImport feeds stream to git fast-import (extra arguments after --quiet): a long history in one git
// process, for tests that need many commits rather than a worktree (the index and worktree stay as they were).
// The stream dates its commits itself.
func (r *Repo) FastImport(stream string, args ...string) {
	r.T.Helper()
	cmd := exec.Command("git", append([]string{"fast-import", "--quiet"}, args...)...)
	cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, r.Env, strings.NewReader(stream)
	if out, err := cmd.CombinedOutput(); err != nil {
		r.T.Fatalf("git fast-import: %v\n%s", err, out)
	}
}

// Commits is a git fast-import stream of commits on refs/heads/main, each on the one before, for FastImport:
// dozens of commits for the price of one git process, where a test reads objects and not the worktree.
type Commits struct {
	b strings.Builder
	n int
}

// Add appends a commit with message that writes files (path → content) over its parent's tree. Commits are
// dated a minute apart from 2026-01-01, by C <c@example.com>.
func (c *Commits) Add(message string, files map[string]string) {
	c.n++
	fmt.Fprintf(&c.b, "commit refs/heads/main\nmark :%d\ncommitter C <c@example.com> %d +0000\n", c.n, 1767225600+60*c.n)
	fmt.Fprintf(&c.b, "data %d\n%s\n", len(message), message)
	if c.n > 1 {
		fmt.Fprintf(&c.b, "from :%d\n", c.n-1)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&c.b, "M 100644 inline %s\ndata %d\n%s\n", p, len(files[p]), files[p])
	}
}

// String is the stream.
func (c *Commits) String() string { return c.b.String() }

// Rev resolves a revision to a full sha.
func (r *Repo) Rev(rev string) string {
	r.T.Helper()
	return r.Git("rev-parse", rev)
}

// Getenv is r.Env as a getenv function, for code that takes one (gitext.Discover, Config).
func (r *Repo) Getenv(k string) string {
	for i := len(r.Env) - 1; i >= 0; i-- {
		if key, v, _ := strings.Cut(r.Env[i], "="); key == k {
			return v
		}
	}
	return ""
}
