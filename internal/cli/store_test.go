package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/s3test"
	"github.com/git-bernstein/git-bernstein/internal/store"
)

// ociStore serves go-containerregistry's registry on 127.0.0.1 (with the referrers API or without it, where
// the tag schema stands in) and returns the bernstein.store URL of a repository on it.
func ociStore(t *testing.T, referrers bool) string {
	t.Helper()
	srv := httptest.NewServer(registry.New(registry.WithReferrersSupport(referrers), registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(srv.Close)
	return "oci://" + strings.TrimPrefix(srv.URL, "http://") + "/team/evidence"
}

// The "done when", through an OCI registry: the hook uploads the signed archive it records, push finds
// nothing left to upload, and a reviewer's clone that has the notes but not refs/bernstein/archives gets the
// archive and its signature from the registry and verifies them.
func TestOCIStoreHookPushGetVerify(t *testing.T) {
	for _, referrers := range []bool{true, false} {
		t.Run(map[bool]string{true: "referrers API", false: "tag schema"}[referrers], func(t *testing.T) {
			t.Parallel()
			url := ociStore(t, referrers)
			r := ticketRepo(t)
			keyDir := t.TempDir()
			if _, e, c := runIn(t, keyDir, r.Env, "keygen", "--kid", "k1"); c != 0 {
				t.Fatalf("keygen: %s", e)
			}
			head, sum := hookToStore(t, r, r.Env, filepath.Join(keyDir, "k1.pem"), url)

			bare := bareOrigin(r)
			r.Git("push", "-q", "origin", "main")
			out, e, c := runIn(t, r.Dir, r.Env, "push")
			if c != 0 || !strings.Contains(out, "Uploaded 0 files to "+url+" (1 archive checked") {
				t.Fatalf("push after the hook uploaded: %d\n%s\n%s", c, out, e)
			}

			clone := filepath.Join(filepath.Dir(r.Dir), "clone")
			r.Git("clone", "-q", bare, clone)
			if _, e, c := runIn(t, clone, r.Env, "fetch"); c != 0 {
				t.Fatalf("fetch: %s", e)
			}
			cl := r.Open(clone)
			cl.Git("update-ref", "-d", string(archives.Ref))
			if _, e, c := runIn(t, clone, r.Env, "get", "HEAD", "--out", "ev"); c != 1 || !strings.Contains(e, "no copy with the noted digest") {
				t.Fatalf("get without a store: %d %s", c, e)
			}
			// A store that does not answer is a warning, and the next store is asked.
			down := "oci://127.0.0.1:1/team/evidence"
			cl.Git("config", "bernstein.store", down)
			if _, e, c := runIn(t, clone, r.Env, "get", "HEAD", "--out", "ev"); c != 1 || !strings.Contains(e, "warning: "+down) ||
				!strings.Contains(e, "in the bundles folder, refs/bernstein/archives or "+down) {
				t.Fatalf("get with a store down: %d %s", c, e)
			}
			cl.Git("config", "--add", "bernstein.store", url)
			out, e, c = runIn(t, clone, r.Env, "get", "HEAD", "--out", "ev")
			if c != 0 || !strings.Contains(out, "from "+url) || !strings.Contains(out, head[:12]+".tar.gz.jws") ||
				!strings.Contains(out, head[:12]+".tar.gz.intoto.jsonl") || !strings.Contains(out, head[:12]+".tar.gz.sigstore.json") {
				t.Fatalf("get from the store: %d\n%s\n%s", c, out, e)
			}
			if got, _ := record.FileSHA256(filepath.Join(clone, "ev", "github", "ENG-42", head[:12]+".tar.gz")); got != sum {
				t.Fatalf("got an archive with sha256 %s, noted %s", got, sum)
			}
			out, e, c = runIn(t, clone, r.Env, "verify", "--rev", "HEAD", "--card", filepath.Join(keyDir, "k1.card.json"))
			if c != 0 || !strings.Contains(out, "VERIFIED") || !strings.Contains(out, "from "+url) ||
				!strings.Contains(out, "[PASS] attestation") || !strings.Contains(out, "[PASS] sigstore-bundle") {
				t.Fatalf("verify --rev HEAD from the store: %d\n%s\n%s", c, out, e)
			}
			// The hook signed, before uploading, a statement that also names the manifest the registry holds:
			// the one subject cosign verify-attestation matches. verify says so on both lines.
			oci := url + "@" + manifestDigest(t, url, store.TagFor(sum))
			if n := strings.Count(out, "it also names the OCI manifest "+oci+" "); n != 2 {
				t.Fatalf("verify names the OCI manifest %s on %d lines, want 2:\n%s", oci, n, out)
			}
		})
	}
}

// manifestDigest asks the registry behind the oci:// store url which manifest digest tag names.
func manifestDigest(t *testing.T, url, tag string) string {
	t.Helper()
	host, repo, _ := strings.Cut(strings.TrimPrefix(url, "oci://"), "/")
	req, _ := http.NewRequest(http.MethodHead, "http://"+host+"/v2/"+repo+"/manifests/"+tag, nil)
	req.Header.Set("Accept", "application/vnd.oci.image.manifest.v1+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	d := resp.Header.Get("Docker-Content-Digest")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(d, "sha256:") {
		t.Fatalf("HEAD %s: %s, digest %q", tag, resp.Status, d)
	}
	return d
}

// A store the hook cannot reach costs the merge nothing: one line, logged, with the command that finishes it.
func TestHookUploadFailureIsLogged(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	r.Git("config", "bernstein.hookBudget", "20s")
	r.Git("config", "bernstein.store", "oci://127.0.0.1:1/team/evidence")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	_, e, c := runIn(t, r.Dir, r.Env, "hook", "post-merge", "0")
	if c != 0 || !strings.Contains(e, "post-merge: archives not all uploaded to oci://127.0.0.1:1/team/evidence") ||
		!strings.Contains(e, "'git bernstein push' uploads them") {
		t.Fatalf("hook with an unreachable store: %d %s", c, e)
	}
	logged, _ := os.ReadFile(filepath.Join(r.Dir, ".git", "bernstein", "hook.log"))
	if !strings.Contains(string(logged), "'git bernstein push' uploads them") {
		t.Fatalf("hook.log: %s", logged)
	}
	// A URL that is not a store is said, not guessed at.
	r.Git("config", "bernstein.store", "s3://ci:s3cret@bucket/evidence")
	if _, e, c := runIn(t, r.Dir, r.Env, "get", "HEAD"); c != 1 || !strings.Contains(e, "is not s3://BUCKET[/PREFIX]") || strings.Contains(e, "s3cret") {
		t.Fatalf("get with an s3 store URL holding credentials: %d %s", c, e)
	}
}

// The timings README gives for a 100-bundle history (BERNSTEIN_STORE_TIMING=1 go test ./internal/cli -run
// TestStoreTiming -v; the S3 rows need make test's server, BERNSTEIN_TEST_S3_*): record 100 signed bundles, push
// them (to the git remote only, or also to an empty registry or bucket), push again (nothing left to upload), and
// get all 100 in a clone: from refs/bernstein/archives, or from the store (the clone's archives ref deleted, or
// for S3 holding only the store records, as keepOnlyStoreRecords leaves it).
func TestStoreTiming(t *testing.T) {
	if os.Getenv("BERNSTEIN_STORE_TIMING") == "" {
		t.Skip("BERNSTEIN_STORE_TIMING=1 runs it")
	}
	type setup struct {
		name string
		url  func(t *testing.T) (string, []string)
	}
	setups := []setup{
		{"git ref only", func(*testing.T) (string, []string) { return "", nil }},
		{"OCI, referrers API", func(t *testing.T) (string, []string) { return ociStore(t, true), nil }},
		{"OCI, tag schema", func(t *testing.T) (string, []string) { return ociStore(t, false), nil }},
	}
	if os.Getenv(s3test.EnvEndpoint) != "" {
		setups = append(setups, setup{"S3 with Object Lock", func(t *testing.T) (string, []string) {
			srv := s3test.Need(t)
			return "s3://" + srv.Bucket(t, true) + "/evidence", withS3(nil, srv)
		}})
	}
	for _, st := range setups {
		url, extra := st.url(t)
		r := gittest.New(t)
		env := append(append([]string(nil), r.Env...), extra...)
		r.Commit("Initial commit", map[string]string{"README": "x\n"})
		base := r.Rev("HEAD")
		for i := 1; i <= 100; i++ {
			r.Commit(fmt.Sprintf("Work %d\n\nRefs: ENG-%d", i, i), map[string]string{fmt.Sprintf("f%d.go", i): fmt.Sprintf("%d\n", i)})
		}
		keyDir := t.TempDir()
		if _, e, c := runIn(t, keyDir, env, "keygen", "--kid", "k1"); c != 0 {
			t.Fatalf("keygen: %s", e)
		}
		r.Git("config", "bernstein.signingKey", filepath.Join(keyDir, "k1.pem"))
		r.Git("config", "bernstein.signingKid", "k1")
		r.Git("config", "bernstein.retention", "3650d")
		if _, e, c := runIn(t, r.Dir, env, "record", base+"..HEAD"); c != 0 {
			t.Fatalf("record: %s", e)
		}
		bare := bareOrigin(r)
		r.Git("push", "-q", "origin", "main")
		if url != "" {
			r.Git("config", "bernstein.store", url)
		}
		for _, round := range []string{"first", "second"} {
			start := time.Now()
			out, e, c := runIn(t, r.Dir, env, "push")
			if c != 0 {
				t.Fatalf("push: %s %s", out, e)
			}
			t.Logf("%s: %s push of 100 bundles: %s (%s)", st.name, round, time.Since(start).Round(time.Millisecond), strings.Join(strings.Fields(out), " "))
		}
		clone := filepath.Join(filepath.Dir(r.Dir), "clone")
		r.Git("clone", "-q", bare, clone)
		if _, e, c := runIn(t, clone, env, "fetch"); c != 0 {
			t.Fatalf("fetch: %s", e)
		}
		cl := r.Open(clone)
		from := string(archives.Ref)
		switch {
		case strings.HasPrefix(url, "s3://"):
			keepOnlyStoreRecords(t, cl)
		case url != "":
			cl.Git("update-ref", "-d", string(archives.Ref))
		}
		if url != "" {
			cl.Git("config", "bernstein.store", url)
			from = url
		}
		start := time.Now()
		out, e, c := runIn(t, clone, env, "get", "HEAD", "--out", "ev")
		if c != 0 || strings.Count(out, "from "+from) != 100 {
			t.Fatalf("get: %d %s %s", c, out, e)
		}
		t.Logf("%s: get of 100 bundles from %s: %s (%s)", st.name, from, time.Since(start).Round(time.Millisecond), strings.TrimSpace(e))
	}
}

// bundle --attest with an oci:// store configured signs, before any upload, a statement that also names the
// archive's manifest there (the one the registry will hold: TestOCIStoreHookPushGetVerify), which the
// independent python check and verify accept; a store URL push would refuse leaves the statement about the
// archive alone, with a warning, and the bundle is still written.
func TestBundleAttestsTheOCIManifest(t *testing.T) {
	t.Parallel()
	r := ticketRepo(t)
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	dir := t.TempDir()
	if _, se, code := runIn(t, dir, nil, "keygen", "--kid", "k1"); code != 0 {
		t.Fatal(se)
	}
	r.Git("config", "bernstein.store", "oci://registry.example.com:5000/team/evidence")
	r.Git("config", "--add", "bernstein.store", "oci://second.example.com/evidence")
	archive := filepath.Join(dir, "ENG-42.tar.gz")
	bundle := func() (string, string) {
		so, se, code := runIn(t, r.Dir, r.Env, "bundle", "--no-pr", "--attest", "--sign-key", filepath.Join(dir, "k1.pem"),
			"--sign-kid", "k1", "--created-at", "2026-01-02T03:04:05Z", "--out", archive, "ENG-42")
		if code != 0 {
			t.Fatalf("bundle: %d\n%s%s", code, so, se)
		}
		return so, se
	}
	bundle()
	so, se, code := runIn(t, dir, nil, "verify", "ENG-42.tar.gz", "--card", filepath.Join(dir, "k1.card.json"))
	oci := "it also names the OCI manifest oci://registry.example.com:5000/team/evidence@sha256:"
	if code != 0 || strings.Count(so, oci) != 2 {
		t.Fatalf("verify: %d, want %q on the attestation and sigstore-bundle lines\n%s%s", code, oci, so, se)
	}
	var card struct {
		PEM string `json:"public_key_pem"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "k1.card.json"))
	if err := json.Unmarshal(data, &card); err != nil {
		t.Fatal(err)
	}
	pem := filepath.Join(dir, "k1.pub.pem")
	os.WriteFile(pem, []byte(card.PEM), 0o644)
	if out, err, ok := independentDSSE(t, archive+".intoto.jsonl", pem, archive); !ok {
		t.Logf("independent DSSE check skipped: %s", out)
	} else if err != nil || !strings.Contains(out, "OCI manifest oci://registry.example.com:5000/team/evidence@sha256:") {
		t.Fatalf("independent DSSE check: %v\n%s", err, out)
	}

	r.Git("config", "--unset-all", "bernstein.store")
	r.Git("config", "bernstein.store", "oci://registry.example.com/Team")
	if _, se := bundle(); !strings.Contains(se, "the attestation names the archive alone") {
		t.Fatalf("no warning for a store URL the subject cannot name:\n%s", se)
	}
	if so, se, code := runIn(t, dir, nil, "verify", "ENG-42.tar.gz", "--card", filepath.Join(dir, "k1.card.json")); code != 0 ||
		strings.Contains(so, "OCI manifest") {
		t.Fatalf("verify: %d\n%s%s", code, so, se)
	}
}
