package bundle

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// benchBundle builds a signed bundle of 64 MiB of trace files (64 files of 1 MiB of log-like JSONL).
func benchBundle(b *testing.B) (Options, ed25519.PublicKey) {
	b.Helper()
	r := gittest.New(b)
	r.Commit("Add audit\n\nRefs: AUD-7", map[string]string{"a": "1\n"})
	traces := filepath.Join(r.Dir, ".sdd", "traces")
	os.MkdirAll(traces, 0o755)
	for i := 0; i < 64; i++ {
		var buf bytes.Buffer
		for n := 0; buf.Len() < 1<<20; n++ {
			fmt.Fprintf(&buf, `{"seq":%d,"span":"tool_call","target":"src/f%d.go","ms":%d}`+"\n", n, n%97, (n*7919)%5000)
		}
		os.WriteFile(filepath.Join(traces, fmt.Sprintf("AUD-7-%02d.jsonl", i)), buf.Bytes(), 0o644)
	}
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		b.Fatal(err)
	}
	pub, priv, _ := sign.GenerateKey()
	tk, _ := ticket.Parse("jira", "AUD-7")
	return Options{
		Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources, TrailerKeys: discover.DefaultTrailerKeys},
		SDD: filepath.Join(r.Dir, ".sdd"), Out: filepath.Join(b.TempDir(), "AUD-7.tar.gz"), CreatedAt: fixedTime,
		SignKey: priv, SignKid: "bench",
	}, pub
}

func BenchmarkBuild(b *testing.B) {
	opts, _ := benchBundle(b)
	b.SetBytes(64 << 20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Build(opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	opts, pub := benchBundle(b)
	res, err := Build(opts)
	if err != nil {
		b.Fatal(err)
	}
	jws, _ := os.ReadFile(res.Signature)
	keys := []sign.TrustedKey{{Kid: "bench", Public: pub}}
	b.SetBytes(64 << 20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(res.Out)
		if err != nil {
			b.Fatal(err)
		}
		rep := verify.Verify(f, jws, keys, verify.Options{})
		f.Close()
		if rep.ExitCode != 0 {
			b.Fatalf("verdict %s: %v", rep.Verdict, rep.Failures)
		}
	}
}
