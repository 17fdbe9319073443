package verify

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify/internal/corpus"
)

// inflate is an independent, naive reading of the archive: the inflated bytes of its one gzip member, or
// ok=false when that member does not decode, fails its checksum, or anything follows it.
func inflate(archive []byte) (out []byte, ok bool) {
	br := bytes.NewReader(archive)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, false
	}
	zr.Multistream(false)
	out, err = io.ReadAll(zr)
	if err != nil || br.Len() != 0 {
		return nil, false
	}
	return out, true
}

// TestBitFlipsAndTruncations changes a signed bundle or its signature at random (seeded, so failures
// reproduce): one bit flipped, a byte replaced, or the file cut short. Whenever the archive's content or the
// signature changed the verdict must be FAILED or UNVERIFIABLE, never VERIFIED, and nothing may panic. A flip
// that leaves the content as it was (a gzip header's mtime, the unused bits after the last deflate block) may
// still verify: the content is what is signed, not the compressor's choices.
func TestBitFlipsAndTruncations(t *testing.T) {
	t.Parallel()
	var c corpus.Case
	for _, cc := range loadIndex(t).Cases {
		if cc.Name == "good" {
			c = cc
		}
	}
	archive, sig, keys, opts := caseInputs(t, c)
	if r := Verify(bytes.NewReader(archive), sig, keys, opts); r.ExitCode != 0 {
		t.Fatalf("the intact bundle does not verify:\n%s", r.Text())
	}
	content, _ := inflate(archive)
	rng := rand.New(rand.NewPCG(4, 42))
	rounds := 1500
	if testing.Short() {
		rounds = 300 // the same kinds of damage, fewer of each; make test runs all 1,500
	}
	exits := map[int]int{}
	unchanged := 0
	for i := 0; i < rounds; i++ {
		a, s := bytes.Clone(archive), bytes.Clone(sig)
		target := &a
		if rng.IntN(4) == 0 {
			target = &s
		}
		var what string
		switch k := rng.IntN(10); {
		case k < 6:
			bit := rng.IntN(len(*target) * 8)
			(*target)[bit/8] ^= 1 << (bit % 8)
			what = "flip bit " + itoa(bit)
		case k < 8:
			at := rng.IntN(len(*target))
			(*target)[at] ^= byte(1 + rng.IntN(255))
			what = "replace byte " + itoa(at)
		default:
			n := rng.IntN(len(*target))
			*target = (*target)[:n]
			what = "truncate to " + itoa(n)
		}
		if target == &s {
			what += " of the signature"
		}
		r := Verify(bytes.NewReader(a), s, keys, opts)
		exits[r.ExitCode]++
		changed := !bytes.Equal(s, sig)
		if got, ok := inflate(a); !ok || !bytes.Equal(got, content) {
			changed = true
		}
		if !changed {
			unchanged++
			continue
		}
		if r.ExitCode != ExitFailed && r.ExitCode != ExitUnverifiable {
			t.Fatalf("round %d (%s): exit %d for changed content\n%s", i, what, r.ExitCode, r.Text())
		}
	}
	t.Logf("%d rounds: exit codes %v; %d left the content unchanged", rounds, exits, unchanged)
	if unchanged > rounds/10 {
		t.Errorf("%d of %d changes left the content unchanged: the test is not testing much", unchanged, rounds)
	}
	if exits[ExitFailed] < rounds/10 || exits[ExitUnverifiable] < rounds/10 {
		t.Errorf("exit codes %v: expected both FAILED and UNVERIFIABLE often", exits)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzVerify feeds the verifier arbitrary archives and signatures, seeded from the corpus. Nothing may panic,
// the report must be coherent, and a VERIFIED answer must survive an independent, naive re-check: the first
// member is a schema 1 manifest, the other members are exactly its files, and the test key signed it.
// `make fuzz` runs it for FUZZTIME; plain `go test` runs the seeds.
func FuzzVerify(f *testing.F) {
	for _, c := range loadIndex(f).Cases {
		archive, sig, _, _ := caseInputs(f, c)
		if len(archive) > 4096 {
			// The bombs: each run inflates megabytes, which makes the fuzzer's minimising crawl. The
			// limits below are small, so the fuzzer reaches them from small inputs anyway.
			continue
		}
		f.Add(archive, sig, len(c.Cards) > 0, c.Strict)
	}
	keys, err := sign.LoadCard(corpusDir + "/" + corpus.CardFile)
	if err != nil {
		f.Fatal(err)
	}
	lim := Limits{MaxMemberSize: 1 << 20, MaxTotalSize: 4 << 20, MaxManifestSize: 1 << 20, MaxEntries: 1000}
	f.Fuzz(func(t *testing.T, archive, sig []byte, withCard, strict bool) {
		var k []sign.TrustedKey
		if withCard {
			k = keys
		}
		r := Verify(bytes.NewReader(archive), sig, k, Options{Limits: lim, Strict: strict})
		want := map[string][]int{Verified: {0, 3}, Failed: {1}, Unverifiable: {2}}[r.Verdict]
		if len(want) == 0 || (r.ExitCode != want[0] && (len(want) == 1 || r.ExitCode != want[1])) {
			t.Fatalf("verdict %q with exit %d", r.Verdict, r.ExitCode)
		}
		var back Report
		if err := json.Unmarshal(r.JSON(), &back); err != nil || back.ExitCode != r.ExitCode {
			t.Fatalf("JSON: %v", err)
		}
		if !strings.HasPrefix(lastLine(r.Text()), r.Verdict+":") {
			t.Fatalf("text does not end with the verdict:\n%s", r.Text())
		}
		if r.Verdict == Verified && !naiveVerified(archive, sig, k) {
			t.Fatalf("VERIFIED, but a naive re-check disagrees:\n%s", r.Text())
		}
	})
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// naiveVerified re-checks a VERIFIED answer the simple way, trusting Go's readers entirely.
func naiveVerified(archive, sig []byte, keys []sign.TrustedKey) bool {
	content, ok := inflate(archive)
	if !ok {
		return false
	}
	tr := tar.NewReader(bytes.NewReader(content))
	var mj []byte
	got := map[string]string{}
	for i := 0; ; i++ {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil || h.Typeflag != tar.TypeReg {
			return false
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return false
		}
		if i == 0 {
			if h.Name != manifest.Name {
				return false
			}
			mj = data
			continue
		}
		if _, dup := got[h.Name]; dup {
			return false
		}
		sum := sha256.Sum256(data)
		got[h.Name] = hex.EncodeToString(sum[:])
	}
	m, err := manifest.Parse(mj)
	if err != nil || len(m.Files) != len(got) {
		return false
	}
	for _, e := range m.Files {
		if got[e.Arcname] != e.SHA256 {
			return false
		}
	}
	canon, err := sign.Canonicalize(mj)
	if err != nil {
		return false
	}
	if _, err := sign.VerifyDetached(string(sig), canon, keys); err == nil {
		return true
	}
	legacy, err := sign.LegacyCanonical(mj)
	if err != nil {
		return false
	}
	_, err = sign.VerifyDetached(string(sig), legacy, keys)
	return err == nil
}
