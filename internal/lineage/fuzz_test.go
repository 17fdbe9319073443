package lineage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzVerify: a store is hostile input like any other; verify and replay must give a verdict for anything, and
// a store whose bytes were changed from the reference vector must never verify.
func FuzzVerify(f *testing.F) {
	const child = `{"child_run_id":"r1","hmac":"46e4b1dec76b55ca30f20529ba3a21c0d2bdd9d0d6206ec02842906a84ee2ede","kind":"subagent.started","payload":{},"prev_hmac":"","seq":0,"task_id":"T","ts_ns":1,"v":2}` + "\n"
	const parent = `{"child_run_id":"r1","child_sha":"sha256:3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b","hmac":"a20e714596a40542ef979653d803a19780ca835318b5f831636be91ae003db95","parent_call_id":"call","prev_hmac":"","summary":"s","task_id":"T","ts_ns":1,"v":2}` + "\n"
	f.Add(parent, child)
	f.Add("", "")
	f.Add("{\n", "[1e999]\n")
	f.Fuzz(func(t *testing.T, p, c string) {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, "children"), 0o755)
		os.WriteFile(filepath.Join(root, "parent.jsonl"), []byte(p), 0o644)
		os.WriteFile(filepath.Join(root, "children", "3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b.jsonl"), []byte(c), 0o644)
		s := Open(root, PublicKey())
		res := s.Verify(VerifyOptions{})
		// Only the reference bytes may pass (or stores with nothing in them); anything else is a change.
		if res.OK && !(p == parent && c == child) && strings.TrimSpace(p+c) != "" {
			t.Fatalf("verified a changed store:\nparent %q\nchild %q", p, c)
		}
		s.Replay("T")
	})
}
