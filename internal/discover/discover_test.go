package discover

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// scenario is a repository holding ENG-42's work recorded every way, with near misses around it.
type scenario struct {
	r   *gittest.Repo
	sha map[string]string // label → full sha
}

// scenarioRepo builds the scenario's history once for the package's tests; each test gets its own copy.
var scenarioRepo = gittest.Template[map[string]string]{Build: buildScenario}

func TestMain(m *testing.M) {
	code := m.Run()
	scenarioRepo.Remove()
	os.Exit(code)
}

func newScenario(t *testing.T) *scenario {
	r, sha := scenarioRepo.Copy(t)
	return &scenario{r: r, sha: maps.Clone(sha)}
}

// buildScenario makes the scenario's history in r and returns its commits by label.
func buildScenario(r *gittest.Repo) map[string]string {
	s := &scenario{r: r, sha: map[string]string{}}
	s.sha["init"] = r.Commit("Initial commit", map[string]string{"README": "x\n"})

	r.Git("checkout", "-q", "-b", "feature/ENG-42-login")
	s.sha["login"] = r.Commit("Add login\n\nRefs: ENG-7, ENG-42\nSigned-off-by: Ada <ada@example.com>", map[string]string{"login.go": "1\n"})
	s.sha["check"] = r.Commit("Check credentials", map[string]string{"login.go": "2\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	s.sha["merge1"] = r.Rev("HEAD")
	r.Git("branch", "-q", "-D", "feature/ENG-42-login")

	s.sha["squash"] = r.Commit("Add rate limit (#17)\n\nfixes: eng-42", map[string]string{"rate": "1\n"})
	s.sha["folded"] = r.Commit("Folded trailer\n\nResolves: ENG-1,\n  ENG-42\nSigned-off-by: A <a@example.com>", map[string]string{"f": "1\n"})
	s.sha["middle"] = r.Commit("Tidy\n\nTicket: ENG-42\n\nThis paragraph makes the line above body text.", map[string]string{"t": "1\n"})
	s.sha["nearmiss"] = r.Commit("Work on ENG-420 and XENG-42 and ENG-42a\n\nRefs: ENG-420", map[string]string{"n": "1\n"})
	s.sha["other"] = r.Commit("Unrelated\n\nRefs: ENG-7", map[string]string{"o": "1\n"})

	r.Git("checkout", "-q", "-b", "acme-ENG-42-audit")
	s.sha["audit"] = r.Commit("Turn on audit", map[string]string{"audit": "1\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge pull request #18 from acme/ENG-42-audit\n\nAudit", "acme-ENG-42-audit")
	s.sha["merge2"] = r.Rev("HEAD")
	r.Git("branch", "-q", "-D", "acme-ENG-42-audit")

	r.Git("checkout", "-q", "-b", "bugfix/eng-42-crash")
	s.sha["live"] = r.Commit("Fix crash", map[string]string{"crash": "1\n"})
	r.Git("checkout", "-q", "main")
	s.sha["after"] = r.Commit("Later work on main", map[string]string{"later": "1\n"})
	return s.sha
}

func (s *scenario) find(t *testing.T, dir, id string, sources ...string) *Commits {
	t.Helper()
	repo, err := gitext.Discover(dir, s.r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) == 0 {
		sources = AllSources
	}
	tk, err := ticket.Parse("github", id)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Find(repo, Options{Ticket: tk, Sources: sources, TrailerKeys: DefaultTrailerKeys})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// labels maps the result back to scenario labels with their reasons, in result order.
func (s *scenario) labels(res *Commits) []string {
	byHash := map[string]string{}
	for k, v := range s.sha {
		byHash[v] = k
	}
	var out []string
	for _, d := range res.Details {
		name := byHash[d.SHA]
		if name == "" {
			name = d.SHA[:7]
		}
		out = append(out, name+" "+strings.Join(d.MatchedBy, ","))
	}
	return out
}

func TestFindCommitsBySource(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	cases := []struct {
		name    string
		sources []string
		want    []string
	}{
		{"trailer", []string{SourceTrailer}, []string{
			"login trailer:Refs", "squash trailer:fixes", "folded trailer:Resolves"}},
		{"branch", []string{SourceBranch}, []string{"live branch:bugfix/eng-42-crash"}},
		{"merge", []string{SourceMerge}, []string{
			"login merge:feature/ENG-42-login", "check merge:feature/ENG-42-login", "merge1 merge:feature/ENG-42-login",
			"audit merge:acme/ENG-42-audit", "merge2 merge:acme/ENG-42-audit"}},
		{"message", []string{SourceMessage}, []string{
			"login message", "merge1 message", "squash message", "folded message", "middle message", "merge2 message"}},
		{"all", AllSources, []string{
			"login trailer:Refs,merge:feature/ENG-42-login,message",
			"check merge:feature/ENG-42-login",
			"merge1 merge:feature/ENG-42-login,message",
			"squash trailer:fixes,message",
			"folded trailer:Resolves,message",
			"middle message",
			"audit merge:acme/ENG-42-audit",
			"merge2 merge:acme/ENG-42-audit,message",
			"live branch:bugfix/eng-42-crash"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := s.labels(s.find(t, s.r.Dir, "ENG-42", c.sources...))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		})
	}
}

func TestFindCommitsNearMissesAndCase(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	got := s.labels(s.find(t, s.r.Dir, "ENG-420"))
	want := []string{"nearmiss trailer:Refs,message"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ENG-420: got %v want %v", got, want)
	}
	lower := s.find(t, s.r.Dir, "eng-42")
	upper := s.find(t, s.r.Dir, "ENG-42")
	if !reflect.DeepEqual(lower.Commits, upper.Commits) {
		t.Errorf("case changes the result: %v vs %v", lower.Commits, upper.Commits)
	}
	if res := s.find(t, s.r.Dir, "ENG-4"); len(res.Commits) != 0 {
		t.Errorf("ENG-4 matched %v", s.labels(res))
	}
}

func TestFindCommitsOrderParentsFirst(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	res := s.find(t, s.r.Dir, "ENG-42")
	pos := map[string]int{}
	for i, sha := range res.Commits {
		pos[sha] = i
	}
	for _, d := range res.Details {
		for _, p := range d.Parents {
			if i, ok := pos[p]; ok && i > pos[d.SHA] {
				t.Errorf("parent %s listed after child %s", p[:7], d.SHA[:7])
			}
		}
	}
	// The committer date must not override ancestry: rewrite a child to be older than its parent.
	r := s.r
	r.Git("checkout", "-q", "-b", "ENG-99-time")
	c1 := r.Commit("first ENG-99", nil)
	cmd := []string{"-c", "user.name=x", "commit", "-q", "--allow-empty", "-m", "second ENG-99", "--date", "@1000000000 +0000"}
	r.Git(cmd...)
	c2 := r.Rev("HEAD")
	res = s.find(t, s.r.Dir, "ENG-99", SourceMessage)
	if !reflect.DeepEqual(res.Commits, []string{c1, c2}) {
		t.Errorf("order %v, want %v", res.Commits, []string{c1, c2})
	}
}

func TestFindCommitsFromSubdirWorktreeAndGitDir(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	want := s.find(t, s.r.Dir, "ENG-42").Commits
	sub := filepath.Join(s.r.Dir, "deep", "er")
	os.MkdirAll(sub, 0o755)
	if got := s.find(t, sub, "ENG-42").Commits; !reflect.DeepEqual(got, want) {
		t.Errorf("subdir: %v", got)
	}
	wt := filepath.Join(filepath.Dir(s.r.Dir), "wt")
	s.r.Git("worktree", "add", "-q", wt, s.sha["init"])
	got := s.find(t, wt, "ENG-42")
	if !reflect.DeepEqual(got.Commits, want) {
		t.Errorf("worktree: %v", got.Commits)
	}
	repo, err := gitext.Discover(wt, s.r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if repo.WorkTree != wt || repo.CommonDir != filepath.Join(s.r.Dir, ".git") || repo.GitDir == repo.CommonDir {
		t.Errorf("worktree dirs: %+v", repo)
	}
	// GIT_DIR as git sets it for hooks, from an unrelated folder.
	hookEnv := s.r.Open(s.r.Dir)
	hookEnv.Env = append(append([]string{}, s.r.Env...), "GIT_DIR="+filepath.Join(s.r.Dir, ".git"), "GIT_WORK_TREE="+s.r.Dir)
	env := hookEnv.Getenv
	repo, err = gitext.Discover(t.TempDir(), env)
	if err != nil {
		t.Fatal(err)
	}
	if repo.WorkTree != s.r.Dir {
		t.Errorf("GIT_WORK_TREE ignored: %s", repo.WorkTree)
	}
}

func TestNotARepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := gitext.Discover(dir, func(string) string { return "" })
	if !errors.Is(err, gitext.ErrNotRepository) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("err = %v", err)
	}
}

func TestEmptyRepository(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := ticket.Parse("jira", "ENG-42")
	res, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys})
	if err != nil || len(res.Commits) != 0 {
		t.Fatalf("empty repo: %v %v", res, err)
	}
}

func TestShallowCloneWarnsAndStops(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	dst := filepath.Join(filepath.Dir(s.r.Dir), "shallow")
	s.r.Git("clone", "-q", "--depth", "2", "file://"+s.r.Dir, dst)
	res := s.find(t, dst, "ENG-42")
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "shallow") {
		t.Fatalf("warnings %v", res.Warnings)
	}
	if len(res.Commits) == 0 {
		t.Fatalf("shallow clone found nothing")
	}
}

func TestMissingObjectNamed(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	// Delete the loose object of a commit in the middle of history.
	victim := s.sha["check"]
	if err := os.Remove(filepath.Join(s.r.Dir, ".git", "objects", victim[:2], victim[2:])); err != nil {
		t.Fatal(err)
	}
	repo, _ := gitext.Discover(s.r.Dir, s.r.Getenv)
	tk, _ := ticket.Parse("jira", "ENG-42")
	_, err := Find(repo, Options{Ticket: tk, Sources: AllSources})
	if !errors.Is(err, gitext.ErrMissingObject) || !strings.Contains(err.Error(), victim) {
		t.Fatalf("err = %v", err)
	}
}

func TestBranchSourceWithoutBase(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Git("checkout", "-q", "-b", "trunk")
	r.Commit("init", nil)
	r.Git("checkout", "-q", "-b", "ENG-5-x")
	r.Commit("work", nil)
	repo, _ := gitext.Discover(r.Dir, r.Getenv)
	tk, _ := ticket.Parse("jira", "ENG-5")
	res, err := Find(repo, Options{Ticket: tk, Sources: []string{SourceBranch}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Commits) != 0 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "bernstein.baseBranch") {
		t.Fatalf("res %+v", res)
	}
	res, _ = Find(repo, Options{Ticket: tk, Sources: []string{SourceBranch}, BaseBranch: "trunk"})
	if len(res.Commits) != 1 {
		t.Fatalf("with base trunk: %+v", res)
	}
}

func TestNotesAndStashAreNotHistory(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	r.Git("notes", "add", "-m", "ENG-42 note", "HEAD")
	r.Write("a", "2\n")
	r.Git("stash", "push", "-q", "-m", "WIP ENG-42")
	repo, _ := gitext.Discover(r.Dir, r.Getenv)
	tk, _ := ticket.Parse("jira", "ENG-42")
	res, err := Find(repo, Options{Ticket: tk, Sources: AllSources})
	if err != nil || len(res.Commits) != 0 {
		t.Fatalf("notes or stash tied: %+v %v", res, err)
	}
}

// The fast paths (pack files read in place, parents from the commit-graph) must give exactly what loose objects
// give.
func TestFindCommitsSameFromPacksAndCommitGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	s := newScenario(t)
	loose := s.find(t, s.r.Dir, "ENG-42")
	s.r.Git("gc", "-q", "--aggressive")
	packed := s.find(t, s.r.Dir, "ENG-42")
	s.r.Git("commit-graph", "write", "--reachable")
	if _, err := os.Stat(filepath.Join(s.r.Dir, ".git", "objects", "info", "commit-graph")); err != nil {
		t.Fatalf("no commit-graph written: %v", err)
	}
	graphed := s.find(t, s.r.Dir, "ENG-42")
	for name, got := range map[string]*Commits{"packed": packed, "commit-graph": graphed} {
		if !reflect.DeepEqual(got.Details, loose.Details) {
			t.Errorf("%s differs:\n%v\nwant\n%v", name, s.labels(got), s.labels(loose))
		}
	}
	// A split commit-graph chain too.
	s.r.Commit("after graph ENG-42", nil)
	s.r.Git("commit-graph", "write", "--reachable", "--split")
	chained := s.find(t, s.r.Dir, "ENG-42")
	if len(chained.Details) != len(loose.Details)+1 {
		t.Errorf("chain: %v", s.labels(chained))
	}
}

// TestPullRequestMergeTiesItsCommits: go-git's PR 2081 ("Merge pull request #2081 from pjbgf/worktree-fs") brought
// in commits whose branch name has no number; with tracker github, the merge of #N ties them to N, as a merged
// ticket branch does. A version-shaped branch (test-1.19) ties nothing to ticket 1 or 19.
func TestPullRequestMergeTiesItsCommits(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	r.Git("checkout", "-q", "-b", "worktree-fs")
	fs1 := r.Commit("worktree: use billy", map[string]string{"fs": "1\n"})
	fs2 := r.Commit("worktree: tests", map[string]string{"fs": "2\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge pull request #2081 from pjbgf/worktree-fs\n\nworktree: fs", "worktree-fs")
	merge := r.Rev("HEAD")
	r.Git("checkout", "-q", "-b", "test-1.19")
	r.Commit("ci: go 1.19", map[string]string{"ci": "1\n"})
	r.Git("checkout", "-q", "main")
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	find := func(id string) []string {
		tk, _ := ticket.Parse("github", id)
		res, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range res.Details {
			out = append(out, d.SHA[:7]+" "+strings.Join(d.MatchedBy, ","))
		}
		return out
	}
	want := []string{fs1[:7] + " merge:pull request #2081", fs2[:7] + " merge:pull request #2081", merge[:7] + " merge:pull request #2081,message"}
	if got := find("2081"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ticket 2081: %q, want %q", got, want)
	}
	for _, id := range []string{"1", "19"} {
		if got := find(id); len(got) != 0 {
			t.Errorf("ticket %s tied %q through a version-shaped branch", id, got)
		}
	}
}

// Issue 26 item 2: go-git 77e7ef99 says "RSA (PKCS#1), PKCS#8" in its message and a "Refs: PKCS#1" trailer would
// say it too; with tracker github neither names pull request 1 or 8, with or without the repository known.
// GitHub links #N only when no letter or digit stands before the '#'. git log --grep agrees the text is there.
func TestLetterBeforeHashNamesNoNumber(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	pkcs := r.Commit("plumbing: transport/ssh, support more formats (#298)\n\n"+
		"which has support for RSA (PKCS#1), PKCS#8, DSA\n\nRefs: PKCS#1", map[string]string{"ssh": "1\n"})
	named := r.Commit("Fix the helper (#1)\n\nFixes: go-git/go-git#8", map[string]string{"ssh": "2\n"})
	if got := r.Git("log", "--format=%H", "--fixed-strings", "--grep=PKCS#1"); got != pkcs {
		t.Fatalf("git log --grep PKCS#1: %q", got)
	}
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	for _, repoName := range []string{"", "go-git/go-git"} {
		for _, id := range []string{"1", "8", "298"} {
			tk, _ := ticket.Parse("github", id)
			if repoName != "" {
				tk = tk.InRepo(repoName)
			}
			res, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{named}
			if id == "298" {
				want = []string{pkcs}
			}
			if !reflect.DeepEqual(res.Commits, want) {
				t.Errorf("ticket %s (repo %q): %v, want %v", id, repoName, res.Commits, want)
			}
		}
	}
}

// The settings' default --match (bernstein.match unset) is every source this package matches by. The check sits
// here rather than in settings' tests, whose binary would otherwise link all of git for one string.
func TestDefaultMatchIsAllSources(t *testing.T) {
	t.Parallel()
	if got, want := settings.DefaultMatch, strings.Join(AllSources, ","); got != want {
		t.Errorf("settings.DefaultMatch %q, discover.AllSources %q", got, want)
	}
}
