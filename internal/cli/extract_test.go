package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestExtractRealBundle: keygen, bundle, extract, as an auditor would; then the unsigned bundle, refused without
// --allow-unverified, and a bundle with one byte changed, never extracted.
func TestExtractRealBundle(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")
	out, errOut, code := runIn(t, r.Dir, r.Env, "extract", "ENG-42.tar.gz", "--card", card)
	if code != 0 || !strings.Contains(out, "VERIFIED: ") || !strings.Contains(out, "Extracted ") {
		t.Fatalf("extract: exit %d\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(r.Dir, "ENG-42", "traces", "ENG-42.jsonl"))
	if err != nil || string(data) != `{"ticket_id":"ENG-42"}`+"\n" {
		t.Errorf("extracted trace: %q, %v", data, err)
	}
	for _, f := range []string{"manifest.json", "git/commits.json", "git/diff.patch"} {
		if _, err := os.Stat(filepath.Join(r.Dir, "ENG-42", f)); err != nil {
			t.Errorf("%s not extracted: %v", f, err)
		}
	}
	// Again: the folder exists now.
	if out, errOut, code := runIn(t, r.Dir, r.Env, "extract", "ENG-42.tar.gz", "--card", card); code != 2 || !strings.Contains(errOut, "exists") {
		t.Errorf("extract over an existing folder: exit %d\n%s\n%s", code, out, errOut)
	}

	// Unsigned: refused, then extracted with the flag, and the JSON says so.
	out, _, code = runIn(t, r.Dir, r.Env, "extract", "unsigned.tar.gz", "--card", card, "--into", "u1")
	if code != 2 || !strings.Contains(out, "Nothing extracted") {
		t.Errorf("unsigned: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "u1")); !os.IsNotExist(err) {
		t.Errorf("unsigned: u1 exists (%v)", err)
	}
	out, _, code = runIn(t, r.Dir, r.Env, "extract", "unsigned.tar.gz", "--allow-unverified", "--into", "u2", "--json")
	var j struct {
		Verdict    string `json:"verdict"`
		ExitCode   int    `json:"exit_code"`
		Extracted  bool   `json:"extracted"`
		Unverified bool   `json:"extracted_unverified"`
		Files      int    `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 2 || j.ExitCode != 2 || !j.Extracted || !j.Unverified || j.Files != 4 {
		t.Errorf("unsigned --allow-unverified --json: exit %d, %+v, %v\n%s", code, j, err, out)
	}

	// One byte changed after signing: FAILED, nothing extracted, even with --allow-unverified.
	arch, _ := os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz"))
	tampered := retarred(t, arch, "traces/ENG-42.jsonl", []byte(`{"ticket_id":"ENG-43"}`+"\n"))
	os.WriteFile(filepath.Join(r.Dir, "t.tar.gz"), tampered, 0o644)
	jws, _ := os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz.jws"))
	os.WriteFile(filepath.Join(r.Dir, "t.tar.gz.jws"), jws, 0o644)
	out, _, code = runIn(t, r.Dir, r.Env, "extract", "t.tar.gz", "--card", card, "--allow-unverified")
	if code != 1 || !strings.Contains(out, "FAILED: ") || !strings.Contains(out, "Nothing extracted") {
		t.Errorf("tampered: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "t")); !os.IsNotExist(err) {
		t.Errorf("tampered: t exists (%v)", err)
	}
}

// retarred rewrites a bundle with one member's content replaced, as a tamperer with Go's tar writer would.
func retarred(t *testing.T, archive []byte, name string, data []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for _, m := range archiveMembers(t, archive) {
		body := m.data
		if m.hdr.Name == name {
			body = data
			m.hdr.Size = int64(len(data))
		}
		tw.WriteHeader(m.hdr)
		tw.Write(body)
	}
	tw.Close()
	zw.Close()
	return out.Bytes()
}

// TestExtractRepo (issue 25, 6): extract --repo=DIR runs verify's repository check. A bundle whose git section
// the clone contradicts (edited diff.patch, signed again) is FAILED and never extracted, even with
// --allow-unverified; one the clone cannot check (it lacks a commit) is UNVERIFIABLE and extracted only with
// --allow-unverified; one the clone confirms is extracted.
func TestExtractRepo(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Add the login form\n\nRefs: ENG-42", map[string]string{"login.html": "<form>\n  <input name=user>\n</form>\n"})
	early := filepath.Join(filepath.Dir(r.Dir), "early")
	r.Git("clone", "-q", r.Dir, early)
	r.Commit("Check the login form\n\nRefs: ENG-42", map[string]string{"login.html": "<form>\n  <input name=user required>\n</form>\n"})
	key, card := filepath.Join(filepath.Dir(r.Dir), "alice.pem"), filepath.Join(filepath.Dir(r.Dir), "alice.card.json")
	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "alice-2026", "--key", key, "--card", card); c != 0 {
		t.Fatalf("keygen: %s", e)
	}
	if out, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--no-pr", "--sign-key", key, "--sign-kid", "alice-2026", "--created-at", "2026-01-01T00:00:00Z"); c != 0 {
		t.Fatalf("bundle: %s %s", out, e)
	}
	archive := filepath.Join(r.Dir, "ENG-42.tar.gz")
	edited := filepath.Join(filepath.Dir(r.Dir), "edited.tar.gz")
	resign(t, archive, edited, key, "alice-2026", "git/diff.patch", "+  <input name=user required>", "+  <input name=user requirex>")

	for _, tc := range []struct {
		name, archive, repo string
		allow               bool
		code                int
		extracted           bool
		says                string
	}{
		{"edited, confirmed by nothing", edited, r.Dir, false, 1, false, "[FAIL] repository"},
		{"edited, --allow-unverified", edited, r.Dir, true, 1, false, "[FAIL] repository"},
		{"clone lacks a commit", archive, early, false, 2, false, "Nothing extracted: the repository check could not be made"},
		{"clone lacks a commit, --allow-unverified", archive, early, true, 2, true, "EXTRACTED UNVERIFIED: "},
		{"clone confirms", archive, r.Dir, false, 0, true, "[PASS] repository"},
	} {
		into := filepath.Join(t.TempDir(), "out")
		args := []string{"extract", tc.archive, "--card", card, "--repo=" + tc.repo, "--into", into}
		if tc.allow {
			args = append(args, "--allow-unverified")
		}
		out, errOut, code := runIn(t, r.Dir, r.Env, args...)
		_, err := os.Lstat(filepath.Join(into, "git", "diff.patch"))
		if code != tc.code || (err == nil) != tc.extracted || !strings.Contains(out, tc.says) {
			t.Errorf("%s: exit %d, extracted %v; want %d, %v and %q\n%s%s", tc.name, code, err == nil, tc.code, tc.extracted, tc.says, out, errOut)
		}
	}
}

// TestRepoWrittenApart (issue 25, 18): `--repo DIR` for `--repo=DIR` makes DIR the archive or the signature;
// verify and extract say so and how to write it, instead of "signature … is a directory".
func TestRepoWrittenApart(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")
	for _, args := range [][]string{
		{"verify", "ENG-42.tar.gz", "--card", card, "--repo", "."},
		{"verify", "--repo", ".", "ENG-42.tar.gz", "--card", card},
		{"extract", "ENG-42.tar.gz", "--card", card, "--repo", "."},
		{"verify", "ENG-42.tar.gz", ".", "--card", card}, // no --repo: a repository as SIGNATURE
	} {
		out, errOut, code := runIn(t, r.Dir, r.Env, args...)
		if code != 2 || !strings.Contains(errOut, "write --repo=.") || !strings.Contains(errOut, "is a folder") || strings.Contains(out+errOut, "is a directory") {
			t.Errorf("%q: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	if _, err := os.Lstat(filepath.Join(r.Dir, "ENG-42")); !os.IsNotExist(err) {
		t.Errorf("extract extracted (%v)", err)
	}
	// Written with "=", it works.
	if out, errOut, code := runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card, "--repo=."); code != 0 {
		t.Errorf("--repo=.: exit %d\n%s%s", code, out, errOut)
	}
}

// TestExtractedFolderMode (issue 25, 18): DIR and every folder in it are 0755 and files 0644 (less the umask),
// as README says; DIR was 0700.
func TestExtractedFolderMode(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "traces/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")
	if out, errOut, code := runIn(t, r.Dir, r.Env, "extract", "ENG-42.tar.gz", "--card", card); code != 0 {
		t.Fatalf("extract: exit %d\n%s%s", code, out, errOut)
	}
	probe := filepath.Join(t.TempDir(), "probe")
	os.Mkdir(probe, 0o755)
	pf, _ := os.Stat(probe)
	want := pf.Mode().Perm() // 0755 less the umask
	err := filepath.WalkDir(filepath.Join(r.Dir, "ENG-42"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		if d.IsDir() && fi.Mode().Perm() != want || !d.IsDir() && fi.Mode().Perm()&^0o644 != 0 {
			t.Errorf("%s: mode %v", p, fi.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
