package verify

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// layoutArchive packs members (name, section) as a bundle writer would, the manifest listing the listed ones.
func layoutArchive(t *testing.T, listed [][2]string, unlisted ...string) []byte {
	t.Helper()
	m := &manifest.Manifest{SchemaVersion: 1, CreatedAt: "2026-01-02T03:04:05Z", BernsteinVersion: "test", Tracker: "github",
		TicketID: "ENG-42", Files: []manifest.Entry{}, Commits: []string{}}
	for _, l := range listed {
		sum := sha256.Sum256([]byte(l[0]))
		m.Files = append(m.Files, manifest.Entry{Arcname: l[0], SizeBytes: int64(len(l[0])), SHA256: hex.EncodeToString(sum[:]), Section: l[1]})
	}
	mj, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	add := func(name string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	add(manifest.Name, mj)
	for _, l := range listed {
		add(l[0], []byte(l[0]))
	}
	for _, u := range unlisted {
		add(u, []byte(u))
	}
	tw.Close()
	zw.Close()
	return b.Bytes()
}

// TestLayout: the archive check refuses (FAILED, at archive) members outside their section's folder, sections the
// format does not define, names that are a folder of another (issue 25, 13) and names deeper than MaxNameDepth
// (issue 25, 14), and accepts their near misses.
func TestLayout(t *testing.T) {
	t.Parallel()
	deep := func(parts int) string { return "transcripts/" + strings.Repeat("d/", parts-2) + "x.jsonl" }
	tr := manifest.SectionTranscripts
	for _, tc := range []struct {
		name     string
		listed   [][2]string
		unlisted []string
		refused  string // a part of the archive line's detail; "" when the archive check passes
	}{
		{"sections", [][2]string{{"git/commits.json", "git"}, {"pr/pr_1.json", "pr"}, {"transcripts/a", tr}, {"traces/a", "traces"}, {"lineage/v2/children/ab.jsonl", "lineage"}, {"audit/a", "audit"}}, nil, ""},
		{"listed in another section", [][2]string{{"git/x", tr}}, nil, `lists "git/x" in section "transcripts", but its top folder is "git"`},
		{"listed in no section", [][2]string{{"transcripts/x", ""}}, nil, `in section "", which is not a bundle section`},
		{"listed in an unknown section", [][2]string{{"hooks/x", "hooks"}}, nil, `in section "hooks", which is not a bundle section`},
		{"at the top", [][2]string{{"README", ""}}, nil, `in section "", which is not a bundle section`},
		{"unlisted at the top", nil, []string{"README"}, `member 2 "README" is not inside a section's folder`},
		{"unlisted in an unknown folder", nil, []string{"hooks/post-checkout"}, `member 2 "hooks/post-checkout" is not inside a section's folder`},
		{"unlisted in .git", nil, []string{".git/config"}, `".git/config" has a part ".git" that is git's own folder .git`},
		{"unlisted below manifest.json", nil, []string{"manifest.json/x"}, `is not inside a section's folder`},
		{"file then folder", [][2]string{{"transcripts/a", tr}, {"transcripts/a/b", tr}}, nil, `member 3 "transcripts/a/b" is inside member 2 "transcripts/a" as a folder, but that member is a file`},
		{"folder then file", [][2]string{{"transcripts/a/b", tr}, {"transcripts/a", tr}}, nil, `member 3 "transcripts/a" is a file, but member 2 "transcripts/a/b" is inside it as a folder`},
		{"deep folder then file", [][2]string{{"transcripts/a/b/c/d", tr}, {"transcripts/a/b", tr}}, nil, `member 3 "transcripts/a/b" is a file, but member 2 "transcripts/a/b/c/d" is inside it`},
		{"file then deep folder", nil, []string{"transcripts/a/b", "transcripts/a/b/c/d"}, `member 3 "transcripts/a/b/c/d" is inside member 2 "transcripts/a/b" as a folder`},
		{"a section's folder as a file", [][2]string{{"transcripts/a", tr}}, []string{"transcripts"}, `member 3 "transcripts" is not inside a section's folder`},
		{"near misses", [][2]string{{"transcripts/a", tr}, {"transcripts/ab/c", tr}, {"transcripts/a.b/c", tr}, {"transcripts/a-/b", tr}}, nil, ""},
		{"32 parts", [][2]string{{deep(32), tr}}, nil, ""},
		{"33 parts", [][2]string{{deep(33), tr}}, nil, "is 32 folders deep (at most 32 parts to a name)"},
		{"2,030 folders", [][2]string{{"transcripts/" + strings.Repeat("a/", 2030) + "f", tr}}, nil, "is 2031 folders deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Verify(bytes.NewReader(layoutArchive(t, tc.listed, tc.unlisted...)), nil, nil, Options{})
			a := r.Checks[0]
			switch {
			case tc.refused == "" && a.Status != Pass:
				t.Errorf("want the archive check to pass:\n%s", r.Text())
			case tc.refused != "" && (a.Status != Fail || r.ExitCode != ExitFailed || !strings.Contains(a.Detail, tc.refused)):
				t.Errorf("want FAILED at archive with %q:\n%s", tc.refused, r.Text())
			}
		})
	}
}
