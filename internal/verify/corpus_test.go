package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify/internal/corpus"
)

const corpusDir = "../../testdata/verify"

func loadIndex(t testing.TB) corpus.Index {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx corpus.Index
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&idx); err != nil {
		t.Fatalf("index.json: %v", err)
	}
	if len(idx.Cases) < 40 {
		t.Fatalf("index.json has %d cases; the corpus has at least 40", len(idx.Cases))
	}
	return idx
}

func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// caseInputs returns what the CLI would pass Verify for c.
func caseInputs(t testing.TB, c corpus.Case) (archive, sig []byte, keys []sign.TrustedKey, opts Options) {
	t.Helper()
	archive = readCorpus(t, c.Archive)
	if c.Signature != "" {
		sig = readCorpus(t, c.Signature)
		if sig == nil {
			sig = []byte{}
		}
	}
	for _, card := range c.Cards {
		k, err := sign.LoadCard(filepath.Join(corpusDir, card))
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k...)
	}
	opts.Strict = c.Strict
	if l := c.Limits; l != nil {
		opts.Limits = Limits{MaxEntries: l.MaxEntries, MaxMemberSize: l.MaxMemberSize, MaxTotalSize: l.MaxTotalSize, MaxManifestSize: l.MaxManifestSize}
	}
	return archive, sig, keys, opts
}

// TestCorpus runs the verifier over every committed bad bundle: the exit code and the first failing check
// must be the ones index.json records.
func TestCorpus(t *testing.T) {
	for _, c := range loadIndex(t).Cases {
		t.Run(c.Name, func(t *testing.T) {
			archive, sig, keys, opts := caseInputs(t, c)
			r := Verify(bytes.NewReader(archive), sig, keys, opts)
			if r.ExitCode != c.Exit || r.FirstFailure() != c.FirstFailure {
				t.Errorf("%s: exit %d, first failure %q; want exit %d, first failure %q\n%s",
					c.Defect, r.ExitCode, r.FirstFailure(), c.Exit, c.FirstFailure, r.Text())
			}
			if c.Exit == ExitVerified && c.Name != "good" && c.Name != "good-legacy" {
				t.Errorf("only the intact bundles may verify")
			}
			var back Report
			if err := json.Unmarshal(r.JSON(), &back); err != nil || back.ExitCode != r.ExitCode || back.Verdict != r.Verdict {
				t.Errorf("JSON report does not round-trip: %v", err)
			}
		})
	}
}

// TestCorpusPinned holds the committed files to index.json's sha256, and to what the generator makes now.
func TestCorpusPinned(t *testing.T) {
	idx := loadIndex(t)
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		n := e.Name()
		if n == "index.json" || n == "README.md" {
			continue
		}
		seen[n] = true
		sum := sha256.Sum256(readCorpus(t, n))
		if want, ok := idx.SHA256[n]; !ok {
			t.Errorf("%s is not in index.json", n)
		} else if hex.EncodeToString(sum[:]) != want {
			t.Errorf("%s: sha256 %x, index.json says %s; regenerate with go generate ./internal/verify", n, sum, want)
		}
	}
	for n := range idx.SHA256 {
		if !seen[n] {
			t.Errorf("index.json pins %s, which is missing", n)
		}
	}

	tmp := t.TempDir()
	if err := corpus.Write(tmp); err != nil {
		t.Fatal(err)
	}
	fresh, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range fresh {
		if e.Name() == "README.md" {
			continue
		}
		got, _ := os.ReadFile(filepath.Join(tmp, e.Name()))
		if !bytes.Equal(got, readCorpus(t, e.Name())) {
			t.Errorf("the generator now makes a different %s: run go generate ./internal/verify and review the change", e.Name())
		}
	}
	if len(fresh) != len(seen)+1 {
		t.Errorf("the generator makes %d files, the corpus has %d", len(fresh)-1, len(seen))
	}
}
