package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/notes"
	"github.com/git-bernstein/git-bernstein/internal/record"
)

// withPath returns r's environment with PATH set to dirs, then git's folder and the shell's.
func withPath(t *testing.T, env []string, dirs ...string) []string {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	path := strings.Join(append(dirs, filepath.Dir(git), "/usr/bin", "/bin"), string(os.PathListSeparator))
	out := []string{}
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+path)
}

// ticketRepo is a repository with work for ENG-42 on a branch, ready to merge into main.
func ticketRepo(t *testing.T) *gittest.Repo {
	r, _ := ticketRepos.Copy(t)
	return r
}

// ticketRepos builds ticketRepo's history once for the package's tests; each gets its own copy.
var ticketRepos = gittest.Template[struct{}]{Build: func(r *gittest.Repo) struct{} {
	r.Commit("Initial commit", map[string]string{"README": "x\n"})
	r.Git("checkout", "-q", "-b", "feature/ENG-42-login")
	r.Commit("Add login\n\nRefs: ENG-42", map[string]string{"login.go": "1\n"})
	r.Commit("Check credentials", map[string]string{"login.go": "2\n"})
	r.Git("checkout", "-q", "main")
	r.Commit("Unrelated work on main", map[string]string{"other": "1\n"})
	return struct{}{}
}}

// merge runs a real git merge with the built binary on PATH (or not) and returns git's combined output.
func merge(t *testing.T, r *gittest.Repo, dir string, path []string, args ...string) string {
	t.Helper()
	m := r.Open(dir)
	m.Env = withPath(t, r.Env, path...)
	cmd := exec.Command("git", append([]string{"merge"}, args...)...)
	cmd.Dir, cmd.Env = dir, append(m.Env, "GIT_AUTHOR_DATE=@1767300000 +0000", "GIT_COMMITTER_DATE=@1767300000 +0000")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git merge %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// noteOn reads the entries noted on rev with git itself.
func noteOn(t *testing.T, r *gittest.Repo, rev string) []notes.Entry {
	t.Helper()
	out, err := r.GitErr("notes", "--ref=bernstein", "show", rev)
	if err != nil {
		return nil
	}
	es, other := notes.Parse([]byte(out))
	if len(other) > 0 {
		t.Fatalf("note lines not understood: %q", other)
	}
	return es
}

func TestHookRecordsMergeAndKeepsForeignHook(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	r := ticketRepo(t)
	hooksDir := filepath.Join(r.Dir, ".git", "hooks")
	os.MkdirAll(hooksDir, 0o755)
	ran := filepath.Join(t.TempDir(), "foreign-ran")
	foreign := []byte("#!/bin/sh\necho \"foreign $*\" >> " + ran + "\n")
	os.WriteFile(filepath.Join(hooksDir, "post-merge"), foreign, 0o751)
	os.Chmod(filepath.Join(hooksDir, "post-merge"), 0o751)

	out, errOut, code := runIn(t, r.Dir, r.Env, "hooks", "install")
	if code != 0 || !strings.Contains(out, "moved the existing post-merge hook to") {
		t.Fatalf("install: %d\n%s%s", code, out, errOut)
	}
	if out, _, _ := runIn(t, r.Dir, r.Env, "hooks", "install"); !strings.Contains(out, "already installed") {
		t.Fatalf("second install: %s", out)
	}
	gitOut := merge(t, r, r.Dir, []string{bin}, "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if !strings.Contains(gitOut, "Recorded ENG-42 (github)") {
		t.Fatalf("the hook said nothing:\n%s", gitOut)
	}
	if b, _ := os.ReadFile(ran); string(b) != "foreign 0\n" {
		t.Fatalf("foreign hook ran: %q", b)
	}
	head := r.Rev("HEAD")
	es := noteOn(t, r, head)
	if len(es) != 1 || es[0].Ticket != "ENG-42" || es[0].Tracker != "github" || es[0].Signed || es[0].Commits != 3 {
		t.Fatalf("note on the merge: %+v", es)
	}
	file := filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", head[:12]+".tar.gz")
	if es[0].Bundle != head[:12]+".tar.gz" {
		t.Fatalf("bundle name %q", es[0].Bundle)
	}
	if sum, err := record.FileSHA256(file); err != nil || sum != es[0].BundleSHA256 {
		t.Fatalf("bundle on disk %s: sha256 %s, noted %s (%v)", file, sum, es[0].BundleSHA256, err)
	}
	if !strings.Contains(r.Git("log", "--notes=bernstein", "-1"), `"ticket":"ENG-42"`) {
		t.Fatal("git log --notes does not show the note")
	}

	// Reviewers: show and log.
	out, errOut, code = runIn(t, r.Dir, r.Env, "show")
	if code != 0 || !strings.Contains(out, "ENG-42 (github): "+head[:12]+".tar.gz, unsigned, 3 commits") ||
		!strings.Contains(out, "(digest matches)") || !strings.Contains(out, es[0].BundleSHA256) {
		t.Fatalf("show: %d\n%s%s", code, out, errOut)
	}
	out, _, code = runIn(t, r.Dir, r.Env, "show", "--json", "HEAD")
	var js struct {
		Commit  string       `json:"commit"`
		Entries []shownEntry `json:"entries"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != 0 || js.Commit != head || len(js.Entries) != 1 ||
		js.Entries[0].Local != "match" || js.Entries[0].Entry != es[0] {
		t.Fatalf("show --json: %d %v\n%s", code, err, out)
	}
	// The bundle's path comes from the note, hostile input: a symlink or a FIFO there is not read (a FIFO must
	// not hang show), and the local copy is reported refused, with why.
	os.Rename(file, file+".real")
	os.Symlink(file+".real", file)
	if out, _, _ = runIn(t, r.Dir, r.Env, "show"); !strings.Contains(out, "local copy      not read: ") || !strings.Contains(out, "symlinks are never followed") {
		t.Fatalf("show with a symlinked bundle:\n%s", out)
	}
	os.Remove(file)
	if err := fifotest.Make(file, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runIn(t, r.Dir, r.Env, "show", "--json")
	if err := json.Unmarshal([]byte(out), &js); err != nil || len(js.Entries) != 1 || js.Entries[0].Local != "refused" || !strings.Contains(js.Entries[0].Why, "not a regular file") {
		t.Fatalf("show --json with a FIFO: %v\n%s", err, out)
	}
	os.Remove(file)
	os.Rename(file+".real", file)
	os.WriteFile(file, []byte("tampered"), 0o644)
	if out, _, _ = runIn(t, r.Dir, r.Env, "show"); !strings.Contains(out, "DIGEST DIFFERS") {
		t.Fatalf("show after tampering:\n%s", out)
	}
	if _, errOut, code = runIn(t, r.Dir, r.Env, "show", "HEAD~1"); code != 1 || !strings.Contains(errOut, "no bundles noted on HEAD~1") {
		t.Fatalf("show without a note: %d %s", code, errOut)
	}
	out, _, _ = runIn(t, r.Dir, r.Env, "log")
	if !regexp.MustCompile(`^` + head[:7] + ` 2026-01-01 Merge branch 'feature/ENG-42-login' — ENG-42 \(github\)\n$`).MatchString(out) {
		t.Fatalf("log:\n%q", out)
	}
	if out, _, _ = runIn(t, r.Dir, r.Env, "log", "eng-42"); !strings.Contains(out, head[:7]) {
		t.Fatalf("log eng-42:\n%s", out)
	}
	if out, errOut, _ = runIn(t, r.Dir, r.Env, "log", "ENG-7"); out != "" || !strings.Contains(errOut, "no commit") {
		t.Fatalf("log ENG-7: %q %q", out, errOut)
	}
	out, _, _ = runIn(t, r.Dir, r.Env, "log", "--json", "ENG-42")
	var logged []struct {
		SHA     string `json:"sha"`
		Entries []struct {
			Ticket       string `json:"ticket"`
			BundleSHA256 string `json:"bundle_sha256"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(out), &logged); err != nil || len(logged) != 1 || logged[0].SHA != head ||
		len(logged[0].Entries) != 1 || logged[0].Entries[0].Ticket != "ENG-42" || len(logged[0].Entries[0].BundleSHA256) != 64 {
		t.Fatalf("log --json: %v\n%s", err, out)
	}

	// Uninstall puts the foreign hook back byte for byte, with its mode.
	if _, errOut, code = runIn(t, r.Dir, r.Env, "hooks", "uninstall"); code != 0 {
		t.Fatalf("uninstall: %s", errOut)
	}
	b, _ := os.ReadFile(filepath.Join(hooksDir, "post-merge"))
	fi, _ := os.Stat(filepath.Join(hooksDir, "post-merge"))
	if string(b) != string(foreign) || fi.Mode().Perm() != 0o751 {
		t.Fatalf("restored hook: %q %v", b, fi.Mode())
	}
	if _, err := os.Stat(filepath.Join(hooksDir, "post-merge.pre-bernstein")); err == nil {
		t.Fatal("aside copy left behind")
	}
}

func TestHookLogLaterMergesNewestFirst(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	first := r.Rev("HEAD")
	r.Commit("Fix typo\n\nFixes: #12\nRefs: LIN-3", map[string]string{"t": "1\n"})
	second := r.Rev("HEAD")
	for _, rng := range []string{"HEAD~2..HEAD~1", "HEAD"} {
		if out, errOut, code := runIn(t, r.Dir, r.Env, "record", rng); code != 0 {
			t.Fatalf("record %s: %d\n%s%s", rng, code, out, errOut)
		}
	}
	// Note lines sort as text (cat_sort_uniq), so by bundle digest here: the order is the bundles' bytes'.
	if es := noteOn(t, r, second); len(es) != 2 || es[0].Ticket+" "+es[1].Ticket != "12 LIN-3" && es[0].Ticket+" "+es[1].Ticket != "LIN-3 12" {
		t.Fatalf("note on %s: %+v", second[:7], es)
	}
	out, _, _ := runIn(t, r.Dir, r.Env, "log")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], second[:7]) || !strings.HasPrefix(lines[1], first[:7]) ||
		!strings.HasSuffix(lines[0], "12 (github), LIN-3 (github)") {
		t.Fatalf("log:\n%s", out)
	}
	if out, _, _ = runIn(t, r.Dir, r.Env, "log", "#12"); strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, second[:7]) {
		t.Fatalf("log #12:\n%s", out)
	}
	// Recording the same range again writes the same bytes: same line, no new notes commit.
	before := r.Rev("refs/notes/bernstein")
	out, _, code := runIn(t, r.Dir, r.Env, "record", "--json", "HEAD")
	if r.Rev("refs/notes/bernstein") != before {
		t.Fatal("recording the same range twice changed the notes")
	}
	var recorded struct {
		Tip      string `json:"tip"`
		Recorded []struct {
			Archive string `json:"archive"`
			Note    struct {
				Ticket       string `json:"ticket"`
				BundleSHA256 string `json:"bundle_sha256"`
			} `json:"note"`
		} `json:"recorded"`
		Failed []any `json:"failed"`
	}
	if err := json.Unmarshal([]byte(out), &recorded); err != nil || code != 0 || recorded.Tip != r.Rev("HEAD") ||
		len(recorded.Recorded) == 0 || recorded.Failed == nil || len(recorded.Recorded[0].Note.BundleSHA256) != 64 {
		t.Fatalf("record --json: %d %v\n%s", code, err, out)
	}
	if out, _, code := runIn(t, r.Dir, r.Env, "record", "HEAD~1..HEAD~1"); code != 0 || !strings.Contains(out, "No ticket named by") {
		t.Fatalf("empty range: %d %s", code, out)
	}
	if _, errOut, code := runIn(t, r.Dir, r.Env, "record", "nope..HEAD"); code != 1 || !strings.Contains(errOut, "cannot resolve nope") {
		t.Fatalf("bad range: %d %s", code, errOut)
	}
}

func TestHookHooksPathAndLinkedWorktree(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	r := ticketRepo(t)
	wt := filepath.Join(filepath.Dir(r.Dir), "wt")
	r.Git("worktree", "add", "-q", "-b", "wt-main", wt, "main")

	// Installed from the linked worktree: into the common hooks folder, so it runs for merges there.
	if out, errOut, code := runIn(t, wt, r.Env, "hooks", "install"); code != 0 || !strings.Contains(out, filepath.Join(r.Dir, ".git", "hooks", "post-merge")) {
		t.Fatalf("install from worktree: %d %s %s", code, out, errOut)
	}
	merge(t, r, wt, []string{bin}, "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	wtHead := r.Open(wt).Rev("HEAD")
	if es := noteOn(t, r, wtHead); len(es) != 1 || es[0].Ticket != "ENG-42" {
		t.Fatalf("note on the worktree's merge: %+v", es)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "bernstein", "bundles", "github", "ENG-42", wtHead[:12]+".tar.gz")); err != nil {
		t.Fatalf("bundle not in the common folder: %v", err)
	}
	runIn(t, r.Dir, r.Env, "hooks", "uninstall")

	// core.hooksPath, relative: the folder under the worktree top, wherever install runs from.
	r.Git("config", "core.hooksPath", ".githooks")
	sub := filepath.Join(r.Dir, "deep", "sub")
	os.MkdirAll(sub, 0o755)
	if _, errOut, code := runIn(t, sub, r.Env, "hooks", "install"); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".githooks", "post-merge")); err != nil {
		t.Fatalf("hook not under core.hooksPath: %v", err)
	}
	out, _, _ := runIn(t, r.Dir, r.Env, "hooks", "status")
	if !strings.Contains(out, filepath.Join(r.Dir, ".githooks")+" (core.hooksPath)") || !strings.Contains(out, "post-merge: installed at") {
		t.Fatalf("status:\n%s", out)
	}
	r.Git("checkout", "-q", "-b", "bugfix/eng-9-crash", "HEAD~1")
	r.Commit("Fix crash", map[string]string{"crash": "1\n"})
	r.Git("checkout", "-q", "main")
	merge(t, r, r.Dir, []string{bin}, "--no-ff", "-m", "Merge branch 'bugfix/eng-9-crash'", "bugfix/eng-9-crash")
	if es := noteOn(t, r, "HEAD"); len(es) != 1 || es[0].Ticket != "ENG-9" {
		t.Fatalf("note via core.hooksPath: %+v", es)
	}
}

func TestHookProblemsNeverFailTheMerge(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	r := ticketRepo(t)
	if _, errOut, code := runIn(t, r.Dir, r.Env, "hooks", "install"); code != 0 {
		t.Fatal(errOut)
	}

	// git-bernstein missing from PATH: one line, merge done, nothing noted.
	if p, err := exec.LookPath("git-bernstein"); err == nil && !strings.HasPrefix(p, bin) {
		t.Skipf("git-bernstein is installed at %s, so it cannot be missing from PATH", p)
	}
	out := merge(t, r, r.Dir, nil, "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if strings.Count(out, "git-bernstein") != 1 || !strings.Contains(out, "git-bernstein: not on PATH") {
		t.Fatalf("merge without git-bernstein:\n%s", out)
	}
	if len(noteOn(t, r, "HEAD")) != 0 || len(r.Git("log", "-1", "--format=%P")) < 81 {
		t.Fatal("the merge is not done, or something was noted")
	}

	// An unreadable signing key: the bundle fails, the merge stays, the log says why.
	r.Git("reset", "-q", "--hard", "HEAD~1")
	missingKey := filepath.Join(t.TempDir(), "gone.pem")
	r.Git("config", "bernstein.signingKey", missingKey)
	r.Git("config", "bernstein.signingKid", "k1")
	out = merge(t, r, r.Dir, []string{bin}, "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	if !strings.Contains(out, "git-bernstein: post-merge: ") || !strings.Contains(out, missingKey) {
		t.Fatalf("merge with a bad key:\n%s", out)
	}
	if len(r.Git("log", "-1", "--format=%P")) < 81 || len(noteOn(t, r, "HEAD")) != 0 {
		t.Fatal("merge undone or a note written")
	}
	log, err := os.ReadFile(filepath.Join(r.Dir, ".git", "bernstein", "hook.log"))
	if err != nil || !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ post-merge: .*`+regexp.QuoteMeta(missingKey)).Match(log) {
		t.Fatalf("hook.log: %q %v", log, err)
	}

	// A squash merge has no merge commit: said so, nothing recorded.
	r.Git("config", "--unset", "bernstein.signingKey")
	r.Git("config", "--unset", "bernstein.signingKid")
	r.Git("reset", "-q", "--hard", "HEAD~1")
	out = merge(t, r, r.Dir, []string{bin}, "--squash", "feature/ENG-42-login")
	if !strings.Contains(out, "squash merge") {
		t.Fatalf("squash:\n%s", out)
	}
	if n := r.Git("notes", "--ref=bernstein", "list"); n != "" {
		t.Fatalf("squash noted something: %s", n)
	}
}

func TestRecordSignedAndBundleNote(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	keyDir := t.TempDir()
	if _, e, c := runIn(t, keyDir, r.Env, "keygen", "--kid", "k1"); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	r.Git("config", "bernstein.signingKey", filepath.Join(keyDir, "k1.pem"))
	r.Git("config", "bernstein.signingKid", "k1")
	r.Git("config", "bernstein.bundleDir", "out/bundles")
	r.Git("config", "bernstein.notesRef", "team")
	out, errOut, code := runIn(t, r.Dir, r.Env, "record", "HEAD")
	if code != 0 || !strings.Contains(out, "signed, kid k1") {
		t.Fatalf("record: %d %s %s", code, out, errOut)
	}
	head := r.Rev("HEAD")
	if _, err := os.Stat(filepath.Join(r.Dir, "out", "bundles", "github", "ENG-42", head[:12]+".tar.gz.jws")); err != nil {
		t.Fatal(err)
	}
	got, _ := r.GitErr("notes", "--ref=team", "show", "HEAD")
	es, _ := notes.Parse([]byte(got))
	if len(es) != 1 || !es[0].Signed || es[0].Kid != "k1" {
		t.Fatalf("note on refs/notes/team: %q", got)
	}

	out, errOut, code = runIn(t, r.Dir, r.Env, "bundle", "--out", "x.tar.gz", "--no-pr", "--note", "HEAD~1", "ENG-42")
	if code != 0 || !strings.Contains(out, "Noted on") {
		t.Fatalf("bundle --note: %d %s %s", code, out, errOut)
	}
	got, _ = r.GitErr("notes", "--ref=team", "show", "HEAD~1")
	es, _ = notes.Parse([]byte(got))
	sum, _ := record.FileSHA256(filepath.Join(r.Dir, "x.tar.gz"))
	if len(es) != 1 || es[0].Bundle != "x.tar.gz" || es[0].BundleSHA256 != sum {
		t.Fatalf("bundle --note: %q (file sha256 %s)", got, sum)
	}
}
