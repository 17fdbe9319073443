// Package verifytest gives other packages' tests the verifier's committed corpus (testdata/verify): each case's
// archive, signature, trusted keys and options, and the verdict the verifier must give. Every reader of bundles
// (view, extract, the browser page) runs the same cases, so a refusal in one is a refusal in all.
package verifytest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
	"github.com/git-bernstein/git-bernstein/internal/verify/internal/corpus"
)

// Case is one corpus case, ready to verify.
type Case struct {
	Name, Defect string
	Archive      []byte
	Signature    []byte // nil when the case has none
	Keys         []sign.TrustedKey
	CardFiles    []string // the cards the keys came from, as paths
	Options      verify.Options
	// Exit and FirstFailure are what verify must answer.
	Exit         int
	FirstFailure string
	// Defaults says the case uses the default limits and is not strict (the browser page offers no flags).
	Defaults bool
}

// Dir is the corpus folder.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "verify")
}

// Cases loads every case of the corpus.
func Cases(tb testing.TB) []Case {
	tb.Helper()
	dir := Dir()
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var idx corpus.Index
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
		tb.Fatalf("index.json: %v", err)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		if b == nil {
			b = []byte{}
		}
		return b
	}
	var out []Case
	for _, c := range idx.Cases {
		k := Case{Name: c.Name, Defect: c.Defect, Archive: read(c.Archive), Exit: c.Exit, FirstFailure: c.FirstFailure,
			Defaults: c.Limits == nil && !c.Strict}
		if c.Signature != "" {
			k.Signature = read(c.Signature)
		}
		for _, card := range c.Cards {
			keys, err := sign.LoadCard(filepath.Join(dir, card))
			if err != nil {
				tb.Fatal(err)
			}
			k.Keys = append(k.Keys, keys...)
			k.CardFiles = append(k.CardFiles, filepath.Join(dir, card))
		}
		k.Options.Strict = c.Strict
		if l := c.Limits; l != nil {
			k.Options.Limits = verify.Limits{MaxEntries: l.MaxEntries, MaxMemberSize: l.MaxMemberSize, MaxTotalSize: l.MaxTotalSize, MaxManifestSize: l.MaxManifestSize}
		}
		out = append(out, k)
	}
	return out
}
