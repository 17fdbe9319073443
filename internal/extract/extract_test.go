package extract

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
	"github.com/git-bernstein/git-bernstein/internal/verify/verifytest"
)

const corpus = "../../testdata/verify"

func load(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// tree lists every file under dir with its sha256, and fails on anything that is not a plain file or folder.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			if info.Mode().Perm() != 0o755 { // DIR itself too (issue 25, 18: it was 0700)
				t.Errorf("%s: folder mode %v", rel, info.Mode())
			}
		case info.Mode().IsRegular():
			if info.Mode()&^0o644 != 0 {
				t.Errorf("%s: mode %v, want at most 0644", rel, info.Mode())
			}
			data, _ := os.ReadFile(p)
			sum := sha256.Sum256(data)
			got[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		default:
			t.Errorf("%s: %v is not a regular file", rel, info.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestExtract(t *testing.T) {
	t.Parallel()
	keys, err := sign.LoadCard(filepath.Join(corpus, "test-only.card.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		archive         string
		signed, card    bool
		allowUnverified bool
		extracted       bool
		verdict         string
	}{
		{"good.tar.gz", true, true, false, true, verify.Verified},
		{"good.tar.gz", false, true, false, false, verify.Unverifiable},  // unsigned: not without the flag
		{"good.tar.gz", false, true, true, true, verify.Unverifiable},    // … and with it
		{"good.tar.gz", true, false, true, true, verify.Unverifiable},    // no card, with the flag
		{"edited-member.tar.gz", true, true, true, false, verify.Failed}, // tampered: never
		{"renamed-member.tar.gz", true, true, true, false, verify.Failed},
		{"dotdot-name.tar.gz", true, true, true, false, verify.Failed}, // hostile names
		{"absolute-name.tar.gz", true, true, true, false, verify.Failed},
		{"symlink.tar.gz", true, true, true, false, verify.Failed},
		{"shape-pax-twice-size.tar.gz", true, true, true, false, verify.Failed}, // read differently by Python
		{"shape-gnu-longname-and-pax-path.tar.gz", true, true, true, false, verify.Failed},
		{"shape-mode-setuid.tar.gz", true, true, true, false, verify.Failed},
		{"truncated.tar.gz", true, true, true, false, verify.Unverifiable},
	} {
		name := tc.archive
		if _, err := os.Stat(filepath.Join(corpus, name)); err != nil {
			t.Errorf("%s: not in the corpus", name)
			continue
		}
		parent := t.TempDir()
		into := filepath.Join(parent, "out")
		var sig []byte
		if tc.signed {
			sig = load(t, name+".jws")
		}
		var k []sign.TrustedKey
		if tc.card {
			k = keys
		}
		res, err := Extract(bytes.NewReader(load(t, name)), sig, k, Options{Into: into, AllowUnverified: tc.allowUnverified})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if res.Report.Verdict != tc.verdict || res.Extracted != tc.extracted {
			t.Errorf("%s (signed %v, card %v, allow %v): verdict %s, extracted %v; want %s, %v (%s)\n%s", name, tc.signed, tc.card,
				tc.allowUnverified, res.Report.Verdict, res.Extracted, tc.verdict, tc.extracted, res.Reason, res.Report.Text())
		}
		if !tc.extracted {
			// Nothing left behind: no destination, no staging folder.
			if got := entries(t, parent); len(got) != 0 {
				t.Errorf("%s: left %v behind", name, got)
			}
			continue
		}
		if got := entries(t, parent); len(got) != 1 || got[0] != "out" {
			t.Errorf("%s: parent holds %v, want only out", name, got)
		}
		// Exactly the manifest's files with its hashes, and manifest.json itself.
		mj, err := os.ReadFile(filepath.Join(into, manifest.Name))
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Parse(mj)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, e := range m.Files {
			want[e.Arcname] = e.SHA256
		}
		got := tree(t, into)
		sum := sha256.Sum256(mj)
		if got[manifest.Name] != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: manifest.json differs", name)
		}
		delete(got, manifest.Name)
		if len(got) != len(want) || res.Files != len(want)+1 {
			t.Errorf("%s: extracted %v (%d files), want %v", name, got, res.Files, want)
		}
		for n, h := range want {
			if got[n] != h {
				t.Errorf("%s: %s has sha256 %s, want %s", name, n, got[n], h)
			}
		}
	}
}

func TestExtractNeverReplaces(t *testing.T) {
	t.Parallel()
	keys, _ := sign.LoadCard(filepath.Join(corpus, "test-only.card.json"))
	parent := t.TempDir()
	into := filepath.Join(parent, "out")
	os.Mkdir(into, 0o755)
	res, err := Extract(bytes.NewReader(load(t, "good.tar.gz")), load(t, "good.tar.gz.jws"), keys, Options{Into: into})
	if !errors.Is(err, ErrExists) || res.Report != nil {
		t.Fatalf("Extract into an existing folder: %v (report %v), want ErrExists before reading", err, res.Report)
	}
	if got := entries(t, parent); len(got) != 1 {
		t.Errorf("left %v behind", got)
	}
	// A folder that appears while extracting is not replaced either (RENAME_NOREPLACE).
	if err := renameNoReplace(t.TempDir(), into); !errors.Is(err, ErrExists) {
		t.Errorf("renameNoReplace onto an existing empty folder: %v", err)
	}
}

func TestDefaultInto(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"ENG-42.tar.gz": "/w/ENG-42", "a/b.tgz": "/w/b", "x.bin": "/w/x.bin.extracted", ".tar.gz": "/w/.tar.gz.extracted"} {
		if got := DefaultInto("/w", in); got != want {
			t.Errorf("DefaultInto(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExtractWholeCorpus: every corpus case gets verify's verdict, and files land only when it is VERIFIED.
func TestExtractWholeCorpus(t *testing.T) {
	t.Parallel()
	for _, c := range verifytest.Cases(t) {
		parent := t.TempDir()
		res, err := Extract(bytes.NewReader(c.Archive), c.Signature, c.Keys, Options{Into: filepath.Join(parent, "out"), Verify: c.Options})
		if err != nil && c.Exit != verify.ExitUnverifiable {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if res.Report.ExitCode != c.Exit || res.Report.FirstFailure() != c.FirstFailure {
			t.Errorf("%s (%s): exit %d, first failure %q; want %d, %q", c.Name, c.Defect, res.Report.ExitCode, res.Report.FirstFailure(), c.Exit, c.FirstFailure)
		}
		wantOut := c.Exit == verify.ExitVerified || c.Exit == verify.ExitWarnings
		if res.Extracted != wantOut {
			t.Errorf("%s: extracted %v with exit %d", c.Name, res.Extracted, c.Exit)
		}
		if got := entries(t, parent); (wantOut && len(got) != 1) || (!wantOut && len(got) != 0) {
			t.Errorf("%s: the parent folder holds %v", c.Name, got)
		}
	}
}

// TestExtractionCostIsLinear (issue 25, 14): members in one folder 31 folders deep open its folders once, not
// once per member; members each in a chain of their own open each folder once; and revisiting a folder after
// another costs only the folders that differ. Before, every member's folders were walked from the staging
// folder (2,000 members 2,030 folders deep took 28-56 s).
func TestExtractionCostIsLinear(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("a/", 30)
	n := 300
	if testing.Short() {
		n = 100 // the same shapes, a third of the members; make test writes 300
	}
	for _, tc := range []struct {
		name   string
		names  func(i int) string
		n      int
		opened int
	}{
		{"one deep folder", func(i int) string { return fmt.Sprintf("transcripts/%sf%d", deep, i) }, n, 31},
		{"a chain each", func(i int) string { return fmt.Sprintf("transcripts/c%d/%sf", i, deep[:2*28]) }, 30, 1 + 30*29},
		{"two folders in turn", func(i int) string { return fmt.Sprintf("transcripts/%s%d/f%d", deep[:2*29], i%2, i) }, n, 31 + n - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := os.OpenRoot(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			s := newStagingSink(root)
			defer s.release()
			for i := 0; i < tc.n; i++ {
				w, err := s.Member(tc.names(i), 1)
				if err != nil {
					t.Fatal(err)
				}
				w.Write([]byte("x"))
			}
			if err := s.close(); err != nil {
				t.Fatal(err)
			}
			if s.opened != tc.opened || s.files != tc.n {
				t.Errorf("%d members: %d folders opened, want %d (%d files)", tc.n, s.opened, tc.opened, s.files)
			}
			if len(s.open) > verify.MaxNameDepth {
				t.Errorf("%d folders held open", len(s.open))
			}
			if err := s.syncDirs(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
