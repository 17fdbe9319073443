package front_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/cli"
	"github.com/git-bernstein/git-bernstein/internal/front"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// The front answers a `commits` line exactly as git-bernstein-full does (same stdout, stderr and exit code),
// with or without the ticket index and from a subfolder, and hands over every line it does not answer having
// written nothing. The repository has what the listing shows: trailers, a ticket branch merged, a backport
// on a release branch with its tag, a GitHub remote for #N, and a ticket no commit names.
func TestFrontAnswersAsTheFullCLI(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	fix := r.Commit("Fix login\n\nRefs: ENG-42", map[string]string{"b": "1\n"})
	r.Git("tag", "v1.0")
	r.Git("checkout", "-q", "-b", "release/1.0", "HEAD~1")
	r.Git("cherry-pick", "-x", fix)
	r.Git("tag", "v1.0.1")
	r.Git("checkout", "-q", "main")
	r.Git("checkout", "-q", "-b", "ENG-42-cleanup")
	r.Commit("Tidy up", map[string]string{"c": "1\n"})
	r.Commit("Task: ENG-42\n\nTask: ENG-42", map[string]string{"d": "1\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'ENG-42-cleanup'", "ENG-42-cleanup")
	r.Commit("Pad keys as PKCS#1 says (#7)", map[string]string{"e": "1\n"})
	r.Git("remote", "add", "origin", "https://github.com/acme/app.git")
	if err := os.Mkdir(filepath.Join(r.Dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}

	answered := [][]string{
		{"commits", "ENG-42"},
		{"commits", "--json", "ENG-42"},
		{"commits", "--match", "trailer", "ENG-42"},
		{"commits", "--match=branch,merge", "--trailer", "Task", "ENG-42"},
		{"commits", "--tracker", "jira", "eng-42"},
		{"commits", "7"},
		{"commits", "--json", "#7"},
		{"commits", "--tracker", "jira", "7"},
		{"commits", "NOPE-1"},
	}
	handedOver := [][]string{
		{"commits", "--match", "bogus", "ENG-42"}, // an error: git-bernstein-full says it
		{"commits", "--tracker=", "ENG-42"},
		{"commits", "ENG-42", "--json"},
		{"commits", "--help"},
		{"bundle", "ENG-42"},
	}
	for _, dir := range []string{r.Dir, filepath.Join(r.Dir, "sub")} {
		for _, fullFirst := range []bool{false, true} {
			if err := os.RemoveAll(filepath.Join(r.Dir, ".git", "bernstein")); err != nil {
				t.Fatal(err)
			}
			for _, args := range answered {
				runFront := func() (string, string, int) {
					out, errOut, code, handled := runFront(t, r, dir, args)
					if !handled {
						t.Fatalf("%q in %s: handed over, want answered", args, dir)
					}
					return out, errOut, code
				}
				var fo, fe, co, ce string
				var fc, cc int
				if fullFirst {
					co, ce, cc = runFull(t, r, dir, args)
					fo, fe, fc = runFront()
				} else {
					fo, fe, fc = runFront()
					co, ce, cc = runFull(t, r, dir, args)
				}
				if fo != co || fe != ce || fc != cc {
					t.Errorf("%q in %s: the front printed\n%s\n%s(exit %d)\ngit-bernstein-full\n%s\n%s(exit %d)",
						args, dir, fo, fe, fc, co, ce, cc)
				}
				if fc != 0 || args[len(args)-1] != "NOPE-1" && fo == "" {
					t.Errorf("%q: exit %d, stdout %q: the lines list nothing", args, fc, fo)
				}
			}
		}
	}
	// A configured tracker: the front reads the index's commits for the id as the default tracker reads it,
	// and the listing uses them only where the configured tracker gives the same index words.
	r.Git("config", "bernstein.tracker", "jira")
	for _, args := range [][]string{{"commits", "eng-42"}, {"commits", "--json", "ENG-42"}, {"commits", "7"}} {
		fo, fe, fc, handled := runFront(t, r, r.Dir, args)
		co, ce, cc := runFull(t, r, r.Dir, args)
		if !handled || fo != co || fe != ce || fc != cc {
			t.Errorf("%q with bernstein.tracker jira: the front printed\n%s\n%s(exit %d, handled %v)\n"+
				"git-bernstein-full\n%s\n%s(exit %d)", args, fo, fe, fc, handled, co, ce, cc)
		}
	}
	r.Git("config", "--unset", "bernstein.tracker")

	// A configured base branch is the configuration's, not the default the front resolves while git config runs.
	r.Git("config", "bernstein.baseBranch", "release/1.0")
	for _, args := range [][]string{{"commits", "--json", "ENG-42"}, {"commits", "ENG-42"}} {
		fo, fe, fc, handled := runFront(t, r, r.Dir, args)
		co, ce, cc := runFull(t, r, r.Dir, args)
		if !handled || fo != co || fe != ce || fc != cc {
			t.Errorf("%q with bernstein.baseBranch: the front printed\n%s\n%s(exit %d, handled %v)\n"+
				"git-bernstein-full\n%s\n%s(exit %d)", args, fo, fe, fc, handled, co, ce, cc)
		}
		if args[1] == "--json" && !strings.Contains(fo, `"ref": "refs/heads/release/1.0"`) {
			t.Errorf("--json with bernstein.baseBranch release/1.0 records another base:\n%s", fo)
		}
	}
	for _, args := range handedOver {
		if out, errOut, _, handled := runFront(t, r, r.Dir, args); handled || out != "" || errOut != "" {
			t.Errorf("%q: handled %v, wrote %q %q; want it handed over with nothing written", args, handled, out,
				errOut)
		}
	}
	if out, _, _ := runFull(t, r, r.Dir, []string{"commits", "7"}); !strings.Contains(out, "PKCS#1") {
		t.Errorf("#7 with the GitHub remote: %q, want the commit naming it", out)
	}
}

func runFront(t *testing.T, r *gittest.Repo, dir string, args []string) (out, errOut string, code int, handled bool) {
	t.Helper()
	var o, e bytes.Buffer
	env := front.Env{Getenv: r.Getenv, Getwd: func() (string, error) { return dir, nil }}
	code, handled = front.Run(env, append([]string{"git-bernstein"}, args...), &o, &e)
	return o.String(), e.String(), code, handled
}

func runFull(t *testing.T, r *gittest.Repo, dir string, args []string) (out, errOut string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	env := &cli.Env{Dir: dir, Getenv: r.Getenv, Now: time.Now}
	code = cli.RunEnv(env, append([]string{"git-bernstein"}, args...), strings.NewReader(""), &o, &e)
	return o.String(), e.String(), code
}

// With its configuration cached (gitext.WithConfigCache) the front still answers as git-bernstein-full, and a
// change to the configuration is seen by the next run. The files must be older than the cache's racy window
// for it to be written, so the test waits that long once.
func TestFrontConfigCache(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the cache's two-second racy window: make test runs it")
	}
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	r.Commit("Fix login\n\nRefs: ENG-42", map[string]string{"b": "1\n"})
	r.Git("checkout", "-q", "-b", "ENG-42-cleanup")
	r.Commit("Tidy up", map[string]string{"c": "1\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'ENG-42-cleanup'", "ENG-42-cleanup")
	r.Git("remote", "add", "origin", "https://github.com/acme/app.git")
	r.Git("config", "bernstein.match", "trailer,branch,merge")
	time.Sleep(2100 * time.Millisecond)
	cache := filepath.Join(r.Dir, ".git", "bernstein", "config-cache")
	same := func(args ...string) string {
		t.Helper()
		fo, fe, fc, handled := runFront(t, r, r.Dir, args)
		co, ce, cc := runFull(t, r, r.Dir, args)
		if !handled || fo != co || fe != ce || fc != cc {
			t.Errorf("%q: the front printed\n%s\n%s(exit %d, handled %v)\ngit-bernstein-full\n%s\n%s(exit %d)",
				args, fo, fe, fc, handled, co, ce, cc)
		}
		return fo
	}
	before := same("commits", "ENG-42")
	written, err := os.Stat(cache)
	if err != nil {
		t.Fatalf("the first run wrote no configuration cache: %v", err)
	}
	if again := same("commits", "ENG-42"); again != before {
		t.Errorf("the cached run printed\n%s\nthe first\n%s", again, before)
	}
	if st, err := os.Stat(cache); err != nil || !os.SameFile(st, written) {
		t.Errorf("the cache was written again: the second run did not read it")
	}
	r.Git("config", "bernstein.match", "trailer")
	if after := same("commits", "ENG-42"); after == before {
		t.Errorf("bernstein.match changed to trailer, and the front still lists the branch's commits:\n%s", after)
	}
	same("commits", "--json", "ENG-42")
}
