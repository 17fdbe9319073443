package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

const testToken = "ghp_e2eTOKEN_0123456789abcdef"

// prRepo is a repository whose ticket ENG-42 landed through "Merge pull request #17", with origin at remoteURL.
func prRepo(t *testing.T, remoteURL string) *gittest.Repo {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	r.Git("checkout", "-q", "-b", "ENG-42-login")
	r.Commit("Add login form", map[string]string{"login.go": "package app\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge pull request #17 from acme/ENG-42-login", "ENG-42-login")
	r.Git("remote", "add", "origin", remoteURL)
	r.Git("config", "bernstein.tracker", "github") // chosen: no warning that ENG-42 looks like a Jira key
	if err := os.MkdirAll(filepath.Join(r.Dir, ".sdd"), 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

// prEnv pins the GitHub variables, whatever the machine has (runIn's Env shortens the timeout).
func prEnv(t *testing.T, r *gittest.Repo, apiURL string) []string {
	return append(append([]string{}, r.Env...), "GITHUB_API_URL="+apiURL, "GITHUB_TOKEN="+testToken, "GH_TOKEN=")
}

func readArchive(t *testing.T, path string) (raw []byte, files map[string][]byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files = map[string][]byte{}
	for _, m := range archiveMembers(t, raw) {
		files[m.hdr.Name] = m.data
	}
	return raw, files
}

// archiveMember is one member of a tar.gz as Go's readers see it.
type archiveMember struct {
	hdr  *tar.Header
	data []byte
}

// archiveMembers reads every member of a tar.gz, in order: the one reader the archive helpers of these tests
// share (readArchive, manifestOf, retarred, resign).
func archiveMembers(t *testing.T, raw []byte) []archiveMember {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var out []archiveMember
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		out = append(out, archiveMember{h, data})
	}
}

func prNumber(t *testing.T, files map[string][]byte) *int {
	var m struct {
		PRNumber *int `json:"pr_number"`
	}
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	return m.PRNumber
}

func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func TestBundlePullRequests(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	r := prRepo(t, "https://github.com/acme/app.git")
	env := prEnv(t, r, "")
	out, errOut, code := runIn(t, r.Dir, env, "bundle", "--created-at", "2026-01-05T00:00:00Z", "--github-api-url", srv.APIURL(), "ENG-42")
	if code != 0 || errOut != "" {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	raw, files := readArchive(t, filepath.Join(r.Dir, "ENG-42.tar.gz"))
	if !bytes.Equal(files["pr/pr_17.json"], githubtest.Fixture(t, "pulls_17.json")) {
		t.Error("pr/pr_17.json is not byte-identical to the API's answer")
	}
	var reviews []json.RawMessage
	if err := json.Unmarshal(files["pr/pr_17.reviews.json"], &reviews); err != nil || len(reviews) != 3 {
		t.Errorf("pr/pr_17.reviews.json: %d reviews, %v", len(reviews), err)
	}
	if files["pr/pr_21.json"] == nil || files["pr/pr_18.json"] != nil {
		t.Error("want #21 (head feature/eng-42-docs) and not #18 (ENG-420-reset)")
	}
	if n := prNumber(t, files); n == nil || *n != 17 {
		t.Errorf("pr_number %v, want 17", n)
	}
	if !strings.Contains(string(files["manifest.json"]), `"arcname": "pr/pr_17.json"`) {
		t.Error("manifest does not list pr/pr_17.json")
	}
	for _, where := range [][]byte{raw, files["manifest.json"], files["git/commits.json"], []byte(out), []byte(errOut)} {
		if bytes.Contains(where, []byte(testToken)) {
			t.Fatal("the token leaked")
		}
	}
	for _, b := range files {
		if bytes.Contains(b, []byte(testToken)) {
			t.Fatal("the token leaked into a member")
		}
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || reqs[0].Header.Get("Authorization") != "Bearer "+testToken {
		t.Errorf("requests %d; Authorization not sent", len(reqs))
	}

	// GITHUB_API_URL is used when no flag is given; --no-pr makes no request at all.
	env = append(env, "GITHUB_API_URL="+srv.APIURL())
	before := len(srv.Requests())
	if _, e, c := runIn(t, r.Dir, env, "bundle", "--out", "env.tar.gz", "ENG-42"); c != 0 || e != "" || len(srv.Requests()) == before {
		t.Errorf("GITHUB_API_URL: code %d, %s, %d requests", c, e, len(srv.Requests())-before)
	}
	before = len(srv.Requests())
	_, e, c := runIn(t, r.Dir, env, "bundle", "--no-pr", "--out", "nopr.tar.gz", "ENG-42")
	if _, files = readArchive(t, filepath.Join(r.Dir, "nopr.tar.gz")); c != 0 || e != "" || len(srv.Requests()) != before || files["pr/pr_17.json"] != nil {
		t.Errorf("--no-pr: code %d, %q, %d requests", c, e, len(srv.Requests())-before)
	}
}

func TestBundlePullRequestsServerDown(t *testing.T) {
	t.Parallel()
	r := prRepo(t, "git@github.com:acme/app.git")
	env := prEnv(t, r, deadURL(t))
	out, errOut, code := runIn(t, r.Dir, env, "bundle", "ENG-42")
	if code != 0 || strings.Count(errOut, "warning: ") != 1 || !strings.Contains(errOut, "warning: pull request #17 and the search for pull requests of ENG-42: cannot reach GitHub") {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	_, files := readArchive(t, filepath.Join(r.Dir, "ENG-42.tar.gz"))
	for name := range files {
		if strings.HasPrefix(name, "pr/") {
			t.Errorf("%s in the archive", name)
		}
	}
	if n := prNumber(t, files); n != nil {
		t.Errorf("pr_number %d with no payload", *n)
	}
	if strings.Contains(out+errOut, testToken) {
		t.Fatal("the token leaked")
	}

	// --require-pr: exit 1, the reason on stderr, and no archive (nor a temp file) left behind.
	os.Remove(filepath.Join(r.Dir, "ENG-42.tar.gz"))
	_, errOut, code = runIn(t, r.Dir, env, "bundle", "--require-pr", "ENG-42")
	if code != 1 || !strings.Contains(errOut, "--require-pr: no payload for pull request #17: pull request #17 and the search") {
		t.Fatalf("--require-pr: code %d\n%s", code, errOut)
	}
	ents, _ := os.ReadDir(r.Dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "ENG-42") {
			t.Errorf("left %s behind", e.Name())
		}
	}
}

func TestBundlePullRequestsEnterprise(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "/api/v3")
	r := prRepo(t, "ssh://git@ghe.example.com:2222/acme/app.git")
	env := prEnv(t, r, "")

	// Without an API URL, a non-github.com remote is not sent to the public API (nor the token with it).
	_, errOut, code := runIn(t, r.Dir, env, "bundle", "ENG-42")
	if code != 0 || !strings.Contains(errOut, "warning: pull request #17: the remote's host ghe.example.com is not github.com: "+
		"for GitHub Enterprise give --github-api-url https://ghe.example.com/api/v3") {
		t.Fatalf("code %d\n%s", code, errOut)
	}

	r.Git("config", "bernstein.githubApiUrl", srv.APIURL())
	_, errOut, code = runIn(t, r.Dir, env, "bundle", "--out", "ghe.tar.gz", "ENG-42")
	_, files := readArchive(t, filepath.Join(r.Dir, "ghe.tar.gz"))
	if code != 0 || errOut != "" || !bytes.Equal(files["pr/pr_17.json"], githubtest.Fixture(t, "pulls_17.json")) {
		t.Fatalf("code %d\n%s", code, errOut)
	}
	for _, req := range srv.Requests() {
		if strings.HasPrefix(req.Path, "/api/") {
			t.Errorf("request %s: /api/v3 added twice", req.Path)
		}
	}
}

func TestBundlePullRequestFlags(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	r := prRepo(t, "/srv/not/github")
	env := prEnv(t, r, srv.APIURL())
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"bundle", "--github-repo", "acme", "ENG-42"}, 2, "--github-repo: repository \"acme\" is not OWNER/NAME"},
		{[]string{"bundle", "--github-api-url", "ftp://x", "ENG-42"}, 2, "--github-api-url: GitHub API URL \"ftp://x\" is not an http(s) URL"},
		{[]string{"bundle", "--pr", "0", "ENG-42"}, 2, "--pr 0 is not a pull request number"},
		{[]string{"bundle", "--no-pr", "--require-pr", "ENG-42"}, 2, "--no-pr contradicts"},
		// The remote is a local path: a warning, and --github-repo fixes it.
		{[]string{"bundle", "--out", "a.tar.gz", "ENG-42"}, 0, "warning: pull request #17: remote origin does not name a GitHub repository"},
		{[]string{"bundle", "--out", "b.tar.gz", "--github-repo", "acme/app", "--pr", "21", "ENG-42"}, 0, ""},
	}
	for _, c := range cases {
		_, errOut, code := runIn(t, r.Dir, env, c.args...)
		if code != c.code || (c.msg == "" && errOut != "") || !strings.Contains(errOut, c.msg) {
			t.Errorf("%q: code %d (want %d)\nstderr %q\nwant %q", c.args, code, c.code, errOut, c.msg)
		}
	}
	_, files := readArchive(t, filepath.Join(r.Dir, "b.tar.gz"))
	if files["pr/pr_17.json"] == nil || files["pr/pr_21.json"] == nil {
		t.Error("--github-repo acme/app --pr 21: want #17 and #21")
	}
}
