package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

var update = flag.Bool("update", false, "rewrite golden files")

var fixedTime = time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)

// fixture is a repository with ENG-42's work and an .sdd tree with matches, near misses and traps.
func fixture(t *testing.T) *gittest.Repo {
	r := gittest.New(t)
	r.Commit("Initial", map[string]string{"README": "hello\n"})
	r.Commit("Add login\n\nRefs: ENG-42", map[string]string{"login.py": "def login(): pass\n"})
	r.Commit("Work on ENG-420", map[string]string{"other.py": "x = 1\n"})
	r.Commit("Fix login\n\nFixes: ENG-42", map[string]string{"login.py": "def login(): check()\n"})
	sdd := filepath.Join(r.Dir, ".sdd")
	files := map[string]string{
		"transcripts/coder-s1.jsonl":   `{"role":"user","content":"do it","t":{"tracker":"github","id":"ENG-42"}}` + "\n",
		"transcripts/coder-s2.jsonl":   `{"role":"user","content":"ENG-42 is mentioned but no tracker"}` + "\n",
		"traces/ENG-42-trace.jsonl":    "not even json, selected by name\n",
		"traces/ENG-420-trace.jsonl":   `{"tracker":"github","ticket":"ENG-420"}` + "\n",
		"lineage/tracker_audit.jsonl":  "{\"tracker_name\":\"github\",\"ticket_id\":\"ENG-42\",\"n\":1}\n{\"tracker_name\":\"github\",\"ticket_id\":\"ENG-420\"}\nbad line {\n{\"tracker_name\":\"github\",\"ticket_id\":\"ENG-42\",\"n\":3}\n",
		"lineage/cross.jsonl":          "{\"tracker\":\"github\"}\n{\"ticket\":\"ENG-42\"}\n",
		"lineage/v2/parent.jsonl":      `{"tracker":"github","ticket":"ENG-42"}` + "\n",
		"audit/2026-01-01.jsonl":       `{"deep":{"list":[{"x":"github"},{"y":["ENG-42"]}]}}` + "\n",
		"audit/keys-only.json":         `{"github":{"ENG-42":1}}`,
		"audit/numbers.json":           `{"tracker":"github","ticket":42}`,
		"audit/doc.json":               `{"tracker":"github","ticket":"ENG-42","big":[1,2,3]}`,
		"transcripts/readme.txt":       "github ENG-42 but not json\n",
		"transcripts/eng-42-notes.txt": "named by lower-case id\n",
	}
	for p, c := range files {
		full := filepath.Join(sdd, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A symlink to a file outside .sdd that names the ticket: never followed.
	secret := filepath.Join(filepath.Dir(r.Dir), "secret-ENG-42.jsonl")
	os.WriteFile(secret, []byte(`{"tracker":"github","ticket":"ENG-42","secret":true}`+"\n"), 0o644)
	os.Symlink(secret, filepath.Join(sdd, "traces", "link-ENG-42.jsonl"))
	return r
}

func build(t *testing.T, r *gittest.Repo, out string, mod func(*Options)) *Result {
	t.Helper()
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := ticket.Parse("github", "ENG-42")
	opts := Options{
		Repo:      repo,
		Find:      discover.Options{Ticket: tk, Sources: discover.AllSources, TrailerKeys: discover.DefaultTrailerKeys},
		SDD:       filepath.Join(r.Dir, ".sdd"),
		Out:       out,
		CreatedAt: fixedTime,
	}
	if mod != nil {
		mod(&opts)
	}
	res, err := Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// readArchive returns the members in order, failing on anything but regular files.
func readArchive(t *testing.T, path string) ([]string, map[string][]byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("gzip header carries name %q mtime %v", zr.Name, zr.ModTime)
	}
	tr := tar.NewReader(zr)
	var names []string
	data := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg || h.Mode != 0o644 || h.ModTime.Unix() != 0 || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
			t.Errorf("member %s header %+v", h.Name, h)
		}
		b, _ := io.ReadAll(tr)
		names = append(names, h.Name)
		data[h.Name] = b
	}
	return names, data
}

func TestBuildGoldenAndSelection(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	out := filepath.Join(t.TempDir(), "ENG-42.tar.gz")
	res := build(t, r, out, nil)
	names, data := readArchive(t, out)
	want := []string{
		"manifest.json",
		"audit/2026-01-01.jsonl",
		"audit/doc.json",
		"git/commits.json",
		"git/diff.patch",
		"lineage/tracker_audit.jsonl",
		"traces/ENG-42-trace.jsonl",
		"transcripts/coder-s1.jsonl",
		"transcripts/eng-42-notes.txt",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("members\n%s\nwant\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	// The slice holds only the matching lines, byte for byte.
	if got := string(data["lineage/tracker_audit.jsonl"]); got != "{\"tracker_name\":\"github\",\"ticket_id\":\"ENG-42\",\"n\":1}\n{\"tracker_name\":\"github\",\"ticket_id\":\"ENG-42\",\"n\":3}\n" {
		t.Errorf("slice %q", got)
	}
	var warned bool
	for _, w := range res.Warnings {
		warned = warned || strings.Contains(w, "link-ENG-42.jsonl") && strings.Contains(w, "symlink")
	}
	if !warned {
		t.Errorf("no symlink warning in %v", res.Warnings)
	}
	// Every listed file hashes as the manifest says.
	var m manifest.Manifest
	if err := json.Unmarshal(data["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Files {
		sum := sha256.Sum256(data[e.Arcname])
		if hex.EncodeToString(sum[:]) != e.SHA256 || int64(len(data[e.Arcname])) != e.SizeBytes {
			t.Errorf("%s does not match its manifest entry", e.Arcname)
		}
	}
	golden(t, "manifest.golden.json", data["manifest.json"])
	golden(t, "commits.golden.json", data["git/commits.json"])
}

func TestWholeFilesAndProbeLimit(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	build(t, r, out, func(o *Options) { o.Selector.WholeFiles = true })
	_, data := readArchive(t, out)
	whole, _ := os.ReadFile(filepath.Join(r.Dir, ".sdd/lineage/tracker_audit.jsonl"))
	if !bytes.Equal(data["lineage/tracker_audit.jsonl"], whole) {
		t.Errorf("--whole-files did not pack the whole file")
	}
	// A probe limit below every file's size leaves only name matches.
	build(t, r, out, func(o *Options) { o.Selector.ProbeLimit = 5 })
	names, _ := readArchive(t, out)
	got := strings.Join(names, ",")
	if got != "manifest.json,git/commits.json,git/diff.patch,traces/ENG-42-trace.jsonl,transcripts/eng-42-notes.txt" {
		t.Errorf("with probe limit 5: %s", got)
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.tar.gz"), filepath.Join(dir, "sub", "other-name.tar.gz")
	os.MkdirAll(filepath.Dir(b), 0o755)
	build(t, r, a, nil)
	build(t, r, b, nil)
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ba, bb) {
		t.Fatal("two builds of the same state differ")
	}
	if tarList, err := exec.Command("tar", "-tzf", a).Output(); err == nil {
		if !strings.HasPrefix(string(tarList), "manifest.json\n") {
			t.Errorf("tar lists:\n%s", tarList)
		}
	} else {
		t.Errorf("tar cannot list the archive: %v", err)
	}
}

func TestSignedBundleVerifiesWithPlainEd25519(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	pub, priv, _ := sign.GenerateKey()
	out := filepath.Join(t.TempDir(), "s.tar.gz")
	res := build(t, r, out, func(o *Options) { o.SignKey, o.SignKid = priv, "test-kid" })
	jws, err := os.ReadFile(res.Signature)
	if err != nil {
		t.Fatal(err)
	}
	_, data := readArchive(t, out)
	canon, err := sign.Canonicalize(data["manifest.json"])
	if err != nil {
		t.Fatal(err)
	}
	// Second code path: crypto/ed25519 over "<protected>.<payload>" (RFC 7797 unencoded payload).
	parts := strings.Split(strings.TrimSpace(string(jws)), ".")
	if len(parts) != 3 || parts[1] != "" {
		t.Fatalf("not a detached JWS: %q", jws)
	}
	hdr, _ := base64.RawURLEncoding.DecodeString(parts[0])
	if string(hdr) != `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"test-kid"}` {
		t.Errorf("header %s", hdr)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	if !ed25519.Verify(pub, append([]byte(parts[0]+"."), canon...), sig) {
		t.Fatal("signature does not verify over the JCS manifest")
	}
	if _, err := sign.VerifyDetached(string(jws), canon, []sign.TrustedKey{{Kid: "test-kid", Public: pub}}); err != nil {
		t.Fatal(err)
	}
	// An unsigned rebuild removes the stale signature.
	build(t, r, out, nil)
	if _, err := os.Stat(res.Signature); !os.IsNotExist(err) {
		t.Errorf("stale signature left beside an unsigned archive")
	}
}

func TestFailedBuildLeavesNothing(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	repo, _ := gitext.Discover(r.Dir, r.Getenv)
	tk, _ := ticket.Parse("github", "ENG-42")
	dir := t.TempDir()
	cases := map[string]string{
		"missing folder": filepath.Join(dir, "missing", "x.tar.gz"),
		"out is a folder": func() string {
			p := filepath.Join(dir, "isdir.tar.gz")
			os.MkdirAll(filepath.Join(p, "inside"), 0o755)
			return p
		}(),
	}
	for name, out := range cases {
		_, err := Build(Options{Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources},
			SDD: filepath.Join(r.Dir, ".sdd"), Out: out, CreatedAt: fixedTime})
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != "isdir.tar.gz" {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left behind: %v", names)
	}
	// A bad kid fails before anything is written.
	_, priv, _ := sign.GenerateKey()
	out := filepath.Join(dir, "k.tar.gz")
	if _, err := Build(Options{Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources},
		Out: out, CreatedAt: fixedTime, SignKey: priv, SignKid: "bad kid\n"}); err == nil {
		t.Error("bad kid accepted")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("archive written despite a bad kid")
	}
}

func TestPatchSeriesAppliesWithGitAm(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	base := r.Commit("base", map[string]string{"a.txt": "1\n", "bin.dat": "\x00\x01\x02"})
	r.Commit("one ENG-42", map[string]string{"a.txt": "1\n2\n", "bin.dat": "\x00\x01\x02\x03"})
	last := r.Commit("two ENG-42", map[string]string{"b.txt": "new\n"})
	out := filepath.Join(t.TempDir(), "x.tar.gz")
	build(t, r, out, nil)
	_, data := readArchive(t, out)
	patchFile := filepath.Join(t.TempDir(), "diff.patch")
	os.WriteFile(patchFile, data["git/diff.patch"], 0o644)
	r.Git("checkout", "-q", "-b", "replay", base)
	r.Git("am", "-q", "--keep-cr", patchFile)
	if got, want := r.Rev("HEAD^{tree}"), r.Rev(last+"^{tree}"); got != want {
		t.Fatalf("git am gives tree %s, want %s", got, want)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n%s", name, got)
	}
}

func TestProgressReportsEveryMember(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	seen := map[string]int{}
	res := build(t, r, filepath.Join(t.TempDir(), "p.tar.gz"), func(o *Options) {
		o.Progress = func(stage string, done, total int) {
			if done != seen[stage]+1 || total != 8 {
				t.Errorf("%s %d/%d after %d", stage, done, total, seen[stage])
			}
			seen[stage] = done
		}
	})
	if n := len(res.Manifest.Files); seen["Hashing"] != n || seen["Packing"] != n {
		t.Errorf("progress %v for %d files", seen, n)
	}
}
