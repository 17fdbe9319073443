package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/github/githubtest"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
)

// Issue 25, item 8: where each pr/ member came from is signed with it (pr/sources.json), shown by verify, verify
// --json and view, and an edited ETag cache entry never stands in for GitHub's answer.

// signedPRRepo is prRepo with a key pair from keygen; it returns the repository, the key and the card.
func signedPRRepo(t *testing.T) (*gittest.Repo, string, string) {
	t.Helper()
	r := prRepo(t, "https://github.com/acme/app.git")
	key, card := filepath.Join(filepath.Dir(r.Dir), "alice.pem"), filepath.Join(filepath.Dir(r.Dir), "alice.card.json")
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", key, "--card", card); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	return r, key, card
}

func sourcesOf(t *testing.T, files map[string][]byte) *prsource.Sources {
	t.Helper()
	if files[prsource.Arcname] == nil {
		t.Fatalf("no %s in the bundle", prsource.Arcname)
	}
	s, err := prsource.Parse(files[prsource.Arcname])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sourceOf(t *testing.T, s *prsource.Sources, arcname string) prsource.Member {
	t.Helper()
	for _, m := range s.Members {
		if m.Arcname == arcname {
			return m
		}
	}
	t.Fatalf("%s does not name %s", prsource.Arcname, arcname)
	return prsource.Member{}
}

// (a) A cached body edited on disk, and a server that answers 304 for its ETag: the bundle holds GitHub's
// bytes, fetched again, and says so; the producer is warned.
func TestBundleRefetchesAnEditedCacheEntry(t *testing.T) {
	t.Parallel()
	srv := githubtest.New(t, "")
	const etag = `"pr17-etag"`
	srv.Handle("/repos/acme/app/pulls/17", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(githubtest.Fixture(t, "pulls_17.json"))
	})
	r, key, card := signedPRRepo(t)
	env := prEnv(t, r, srv.APIURL())
	bundle := func(out string) (string, map[string][]byte) {
		t.Helper()
		_, errOut, code := runIn(t, r.Dir, env, "bundle", "ENG-42", "--out", out, "--sign-key", key, "--sign-kid", "alice-2026", "--created-at", "2026-01-05T00:00:00Z")
		if code != 0 {
			t.Fatalf("bundle: %s", errOut)
		}
		_, files := readArchive(t, filepath.Join(r.Dir, out))
		return errOut, files
	}

	if _, files := bundle("first.tar.gz"); sourceOf(t, sourcesOf(t, files), "pr/pr_17.json").Source != prsource.Fetched {
		t.Fatalf("first bundle: pr/pr_17.json not fetched: %s", files[prsource.Arcname])
	}
	errOut, files := bundle("second.tar.gz")
	m := sourceOf(t, sourcesOf(t, files), "pr/pr_17.json")
	if errOut != "" || m.Source != prsource.Cache || *m.Requests[0].ETag != etag || m.Requests[0].URL != srv.URL+"/repos/acme/app/pulls/17" {
		t.Fatalf("second bundle: %+v, stderr %q", m, errOut)
	}
	if out, _, code := runIn(t, r.Dir, r.Env, "verify", "second.tar.gz", "--card", card); code != 0 ||
		!strings.Contains(out, "[PASS] pr-sources — 4 pr/ members, each GitHub's answer: 3 fetched when the bundle was made, 1 from the ETag cache after GitHub answered 304 Not Modified") ||
		!strings.Contains(out, "- pr/pr_17.json: GitHub's answer from the ETag cache (304 Not Modified): "+srv.URL+"/repos/acme/app/pulls/17 (ETag \"pr17-etag\", cached at ") {
		t.Fatalf("verify second.tar.gz: exit %d\n%s", code, out)
	}

	// Edit the cached body of #17 (GitHub's answer is unchanged, so GitHub would answer 304 for its ETag).
	entry := cacheEntryFor(t, r, srv.URL+"/repos/acme/app/pulls/17")
	raw, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	forged := bytes.Replace(raw, []byte(`"login":"cy-lead"`), []byte(`"login":"mallory"`), 1)
	if bytes.Equal(forged, raw) {
		t.Fatal("nothing edited")
	}
	if err := os.WriteFile(entry, forged, 0o600); err != nil {
		t.Fatal(err)
	}
	errOut, files = bundle("third.tar.gz")
	if !bytes.Equal(files["pr/pr_17.json"], githubtest.Fixture(t, "pulls_17.json")) {
		t.Error("the bundle holds the edited cached body, signed as GitHub's answer")
	}
	if m := sourceOf(t, sourcesOf(t, files), "pr/pr_17.json"); m.Source != prsource.Fetched {
		t.Errorf("pr/pr_17.json: source %q, want fetched", m.Source)
	}
	if !strings.Contains(errOut, "warning: GitHub cache entry "+entry+" for "+srv.URL+"/repos/acme/app/pulls/17: its body does not have the sha256 stored beside its ETag") {
		t.Errorf("stderr %q", errOut)
	}
}

// cacheEntryFor is the ETag cache's file for url in r (package github, doc.go "ETag cache").
func cacheEntryFor(t *testing.T, r *gittest.Repo, url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(r.Dir, ".git", "bernstein", "github-cache", hex.EncodeToString(sum[:])+".entry")
}

// rateLimited is a GitHub whose rate limit is used up: 403 for everything.
func rateLimited(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", "1767229200")
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"message":"API rate limit exceeded for 192.0.2.1.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

const offlineReviews = `[{"id":1,"user":{"login":"agent-7"},"state":"APPROVED","body":"LGTM (written by an agent)"}]`

// offlineBundle is a signed bundle made while GitHub is rate limited, with #17 and its reviews from .sdd/pr.
func offlineBundle(t *testing.T) (r *gittest.Repo, key, card, archive string) {
	t.Helper()
	r, key, card = signedPRRepo(t)
	os.MkdirAll(filepath.Join(r.Dir, ".sdd", "pr"), 0o755)
	os.WriteFile(filepath.Join(r.Dir, ".sdd", "pr", "pr_17.json"), githubtest.Fixture(t, "pulls_17.json"), 0o644)
	os.WriteFile(filepath.Join(r.Dir, ".sdd", "pr", "pr_17.reviews.json"), []byte(offlineReviews), 0o644)
	env := prEnv(t, r, rateLimited(t).URL)
	_, errOut, code := runIn(t, r.Dir, env, "bundle", "ENG-42", "--sign-key", key, "--sign-kid", "alice-2026", "--created-at", "2026-01-05T00:00:00Z")
	if code != 0 || !strings.Contains(errOut, "rate limit is used up") || !strings.Contains(errOut, "used the offline copy") {
		t.Fatalf("bundle: exit %d\n%s", code, errOut)
	}
	return r, key, card, filepath.Join(r.Dir, "ENG-42.tar.gz")
}

// (b) GitHub rate limited, .sdd/pr/pr_17.reviews.json (an agent's file) stands in: the bundle says so, and so
// do verify (a WARN: VERIFIED, exit 3 with --strict), verify --json and view.
func TestOfflinePullRequestIsShownAsSuch(t *testing.T) {
	t.Parallel()
	r, _, card, archive := offlineBundle(t)
	_, files := readArchive(t, archive)
	if string(files["pr/pr_17.reviews.json"]) != offlineReviews {
		t.Fatalf("pr/pr_17.reviews.json is not the offline copy: %s", files["pr/pr_17.reviews.json"])
	}
	if !strings.Contains(string(files["manifest.json"]), `"arcname": "pr/sources.json"`) {
		t.Error("the manifest does not list pr/sources.json: the signature would not cover it")
	}
	s := sourcesOf(t, files)
	for _, name := range []string{"pr/pr_17.json", "pr/pr_17.reviews.json"} {
		if m := sourceOf(t, s, name); m.Source != prsource.Offline || m.Path == nil || *m.Path != ".sdd/"+name {
			t.Errorf("%s: %+v", name, m)
		}
	}

	// To a verifier that knows nothing of pr/sources.json (upstream's reads the manifest with Python's tarfile and
	// holds every listed file to its sha256), it is one more listed file.
	if python, err := exec.LookPath("python3"); err == nil {
		const check = `
import hashlib, json, sys, tarfile
with tarfile.open(sys.argv[1]) as tar:
    names = tar.getnames()
    m = json.load(tar.extractfile("manifest.json"))
    for e in m["files"]:
        data = tar.extractfile(e["arcname"]).read()
        assert len(data) == e["size_bytes"] and hashlib.sha256(data).hexdigest() == e["sha256"], e["arcname"]
    assert sorted(names) == sorted(["manifest.json"] + [e["arcname"] for e in m["files"]]), names
    print("ok", len(m["files"]), "pr/sources.json" in names)
`
		if b, err := exec.Command(python, "-c", check, archive).CombinedOutput(); err != nil || string(b) != "ok 5 True\n" {
			t.Errorf("python3 tarfile check: %v\n%s", err, b)
		}
	}

	out, _, code := runIn(t, r.Dir, r.Env, "verify", archive, "--card", card)
	for _, want := range []string{
		"\n[WARN] pr-sources — 2 of 2 pr/ members are offline copies from .sdd/pr, not from GitHub",
		"\n       - pr/pr_17.reviews.json: offline copy from .sdd/pr/pr_17.reviews.json, not from GitHub\n",
		"\nVERIFIED: ",
		"Read the 1 warning above (exit 3 with --strict)",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("verify: exit %d, want a line with %q\n%s", code, want, out)
		}
	}
	if _, _, code := runIn(t, r.Dir, r.Env, "verify", archive, "--card", card, "--strict"); code != 3 {
		t.Errorf("verify --strict: exit %d, want 3", code)
	}

	jout, _, _ := runIn(t, r.Dir, r.Env, "verify", archive, "--card", card, "--json")
	var rep struct {
		Warnings  []string          `json:"warnings"`
		PRSources []prsource.Member `json:"pr_sources"`
	}
	if err := json.Unmarshal([]byte(jout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.PRSources) != 2 || rep.PRSources[1].Arcname != "pr/pr_17.reviews.json" || rep.PRSources[1].Source != "offline" ||
		*rep.PRSources[1].Path != ".sdd/pr/pr_17.reviews.json" || len(rep.Warnings) != 1 || !strings.HasPrefix(rep.Warnings[0], "pr-sources: ") {
		t.Errorf("verify --json: pr_sources %+v, warnings %q", rep.PRSources, rep.Warnings)
	}

	page := filepath.Join(r.Dir, "page.html")
	if _, e, code := runIn(t, r.Dir, r.Env, "view", archive, "--card", card, "--out", page); code != 0 {
		t.Fatalf("view: exit %d %s", code, e)
	}
	html, _ := os.ReadFile(page)
	for _, want := range []string{
		`<dt>Source</dt><dd class="note">offline copy from .sdd/pr/pr_17.json, not from GitHub</dd>`,
		`<dt>Reviews source</dt><dd class="note">offline copy from .sdd/pr/pr_17.reviews.json, not from GitHub</dd>`,
	} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("view: the page lacks %s", want)
		}
	}
}

// (c) pr/sources.json and the pr/ members must agree: a member it does not name, or a name with no member, is
// FAILED, even in a bundle rebuilt by Python's tarfile (as upstream writes bundles) and signed again.
func TestPRSourcesMustNameExactlyThePRMembers(t *testing.T) {
	t.Parallel()
	r, key, card, archive := offlineBundle(t)
	_, files := readArchive(t, archive)
	dir := filepath.Dir(r.Dir)
	for _, tc := range []struct {
		name    string
		edit    func(files map[string][]byte)
		problem string
	}{
		{"a member it does not name", func(files map[string][]byte) {
			files["pr/pr_18.json"] = []byte(`{"number":18}`)
		}, `"pr/pr_18.json" is in the archive, but pr/sources.json does not say where it came from`},
		{"a name with no member", func(files map[string][]byte) {
			delete(files, "pr/pr_17.reviews.json")
		}, `"pr/pr_17.reviews.json" is named by pr/sources.json but is not in the archive`},
		{"an offline copy claimed as fetched, keeping its path", func(files map[string][]byte) {
			files[prsource.Arcname] = bytes.Replace(files[prsource.Arcname], []byte(`"arcname": "pr/pr_17.reviews.json",
      "source": "offline"`), []byte(`"arcname": "pr/pr_17.reviews.json",
      "source": "fetched"`), 1)
		}, `"path" must be null unless the source is offline`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "a member it does not name" {
				t.Skip("one Python-rebuilt archive under -short: make test runs every case")
			}
			edited := map[string][]byte{}
			for k, v := range files {
				edited[k] = v
			}
			tc.edit(edited)
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".tar.gz")
			pythonRebuild(t, edited, out, key, "alice-2026")
			text, _, code := runIn(t, r.Dir, r.Env, "verify", out, "--card", card)
			if code != 1 || !strings.Contains(text, "\n[FAIL] pr-sources — ") || !strings.Contains(text, tc.problem) ||
				!strings.Contains(text, "[PASS] files") || !strings.Contains(text, "[PASS] trust") {
				t.Errorf("exit %d, want 1 with a failed pr-sources check (%q) and every other check passed\n%s", code, tc.problem, text)
			}
		})
	}
}

// pythonRebuild writes files (manifest.json rewritten to list them) as a tar.gz with Python's tarfile, the way
// upstream Bernstein writes bundles, and signs the manifest with key as kid.
func pythonRebuild(t *testing.T, files map[string][]byte, out, key, kid string) {
	t.Helper()
	m, err := manifest.Parse(files[manifest.Name])
	if err != nil {
		t.Fatal(err)
	}
	m.Files = m.Files[:0]
	var names []string
	for name := range files {
		if name != manifest.Name {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var members []tarMember
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		section, _, _ := strings.Cut(name, "/")
		m.Files = append(m.Files, manifest.Entry{Arcname: name, SizeBytes: int64(len(files[name])), SHA256: hex.EncodeToString(sum[:]), Section: section})
		members = append(members, tarMember{name, files[name]})
	}
	mj, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	pythonTar(t, out, append([]tarMember{{manifest.Name, mj}}, members...))
	signManifest(t, out, key, kid, mj)
}
