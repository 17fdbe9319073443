package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// Issue 25's archive-shape findings, rebuilt as the review built them: a real repository, keys from keygen, the
// bundle from bundle, then the archive rewritten with Python's tarfile (as upstream Bernstein writes bundles)
// with members added, the manifest listing them, and signed again with the same key.

// pyMember is a member added to a bundle: its name, the section the manifest lists it in ("" for a member the
// manifest does not list), and its bytes.
type pyMember struct {
	name, section string
	data          []byte
}

// pythonResigned copies the bundle at from to to with add appended, the listed ones in the manifest, written by
// Python's tarfile and signed again with key as kid (to.jws).
func pythonResigned(t *testing.T, from, to, key, kid string, add ...pyMember) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	members := archiveMembers(t, raw)
	m, err := manifest.Parse(members[0].data)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range add {
		if a.section != "" {
			sum := sha256.Sum256(a.data)
			m.Files = append(m.Files, manifest.Entry{Arcname: a.name, SizeBytes: int64(len(a.data)), SHA256: hex.EncodeToString(sum[:]), Section: a.section})
		}
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	list := []tarMember{{manifest.Name, mj}}
	for _, am := range members[1:] {
		list = append(list, tarMember{am.hdr.Name, am.data})
	}
	for _, a := range add {
		list = append(list, tarMember{a.name, a.data})
	}
	pythonTar(t, to, list)
	signManifest(t, to, key, kid, mj)
}

// TestArchiveShapeFindings: each hostile bundle is signed by alice's key and lists exactly its members, so
// only the archive check stands between it and the disk. verify --strict and extract must say FAILED at archive,
// naming the member, and extract must write nothing.
func TestArchiveShapeFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("each finding is an archive rebuilt by Python's tarfile and re-signed: make test runs it")
	}
	t.Parallel()
	r, card := aliceBundles(t, "transcripts/ENG-42.jsonl", `{"ticket_id":"ENG-42"}`+"\n")
	key := filepath.Join(filepath.Dir(r.Dir), "alice.pem")
	fsmonitor := []byte("[core]\n\trepositoryformatversion = 0\n\tfsmonitor = \"touch PWNED; false\"\n")
	deep := make([]pyMember, 0, 2000)
	for i := 0; i < 2000; i++ {
		deep = append(deep, pyMember{"transcripts/" + strings.Repeat("a/", 2030) + fmt.Sprintf("f%d", i), manifest.SectionTranscripts, []byte("x")})
	}
	for _, tc := range []struct {
		name   string
		add    []pyMember
		detail string // in the [FAIL] archive line
	}{
		// 1: the review's .git members, and .git as NTFS and HFS+ read it.
		{"dotgit", []pyMember{{".git/HEAD", "git", []byte("ref: refs/heads/main\n")}, {".git/config", "git", fsmonitor},
			{".git/refs/heads/.keep", "git", nil}}, `".git/HEAD" has a part ".git" that is git's own folder .git`},
		{"dotgit-upper", []pyMember{{"transcripts/.GIT/config", "transcripts", fsmonitor}}, `part ".GIT" that is git's own folder`},
		{"dotgit-dot", []pyMember{{"transcripts/.git./config", "transcripts", fsmonitor}}, `part ".git." that is git's own folder`},
		{"dotgit-space", []pyMember{{"transcripts/.git /config", "transcripts", fsmonitor}}, `part ".git " that is git's own folder`},
		{"dotgit-shortname", []pyMember{{"transcripts/git~1/config", "transcripts", fsmonitor}}, `part "git~1" that is git's own folder`},
		{"dotgit-hfs", []pyMember{{"transcripts/.gi\u200ct/config", "transcripts", fsmonitor}}, `that is git's own folder .git on some file system (HFS+`},
		{"dotgit-unlisted", []pyMember{{".git/config", "", fsmonitor}}, `".git/config" has a part ".git"`},
		// 1: outside the layout.
		{"section-not-top-folder", []pyMember{{"hooks/post-checkout", "transcripts", []byte("#!/bin/sh\n")}}, `lists "hooks/post-checkout" in section "transcripts", but its top folder is "hooks"`},
		{"unknown-section", []pyMember{{"hooks/post-checkout", "hooks", []byte("#!/bin/sh\n")}}, `in section "hooks", which is not a bundle section`},
		{"top-level", []pyMember{{"README", "", []byte("hi\n")}}, `"README" is not inside a section's folder`},
		// 13: a name that is a folder of another.
		{"file-and-folder", []pyMember{{"transcripts/a", "transcripts", []byte("a\n")}, {"transcripts/a/b", "transcripts", []byte("b\n")}},
			`member 6 "transcripts/a/b" is inside member 5 "transcripts/a" as a folder, but that member is a file`},
		// 14: 2,000 members 2,030 folders deep.
		{"deep", deep, `is 2031 folders deep (at most 32 parts to a name)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name == "deep" {
				t.Skip("2,000 members 2,030 folders deep: make test runs it, go test -short skips it")
			}
			archive := filepath.Join(filepath.Dir(r.Dir), tc.name+".tar.gz")
			pythonResigned(t, filepath.Join(r.Dir, "ENG-42.tar.gz"), archive, key, "alice-2026", tc.add...)
			out, errOut, code := runIn(t, r.Dir, r.Env, "verify", "--strict", archive, "--card", card)
			line, _, _ := strings.Cut(out, "\n")
			if code != 1 || !strings.HasPrefix(line, "[FAIL] archive — ") || !strings.Contains(line, tc.detail) {
				t.Fatalf("verify --strict: exit %d, want 1 with [FAIL] archive — …%s…\n%s%s", code, tc.detail, out, errOut)
			}
			into := filepath.Join(filepath.Dir(r.Dir), "x-"+tc.name)
			start := time.Now()
			out, errOut, code = runIn(t, r.Dir, r.Env, "extract", archive, "--card", card, "--allow-unverified", "--into", into)
			took := time.Since(start)
			if code != 1 || !strings.Contains(out, "Nothing extracted") {
				t.Errorf("extract: exit %d, want 1 and nothing extracted\n%s%s", code, out, errOut)
			}
			if _, err := os.Lstat(into); !os.IsNotExist(err) {
				t.Errorf("extract left %s (%v)", into, err)
			}
			t.Logf("extract refused in %v", took)
		})
	}
}
