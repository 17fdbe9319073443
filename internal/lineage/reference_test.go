package lineage

import (
	"os"
	"path/filepath"
	"testing"
)

// The reference vector (doc.go, "Reference vector"): default key, task T, run r1, call call, summary s, ts_ns 1, one body
// subagent.started with payload {}.
const (
	refChildHex  = "3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b"
	refChildLine = `{"child_run_id":"r1","hmac":"46e4b1dec76b55ca30f20529ba3a21c0d2bdd9d0d6206ec02842906a84ee2ede","kind":"subagent.started","payload":{},"prev_hmac":"","seq":0,"task_id":"T","ts_ns":1,"v":2}`
	refParent    = `{"child_run_id":"r1","child_sha":"sha256:3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b","hmac":"a20e714596a40542ef979653d803a19780ca835318b5f831636be91ae003db95","parent_call_id":"call","prev_hmac":"","summary":"s","task_id":"T","ts_ns":1,"v":2}`
)

func refRecords() (ParentRef, ChildBody) {
	return ParentRef{V: Version, TaskID: "T", ChildRunID: "r1", ParentCallID: "call", Summary: "s", TsNs: 1},
		ChildBody{V: Version, TaskID: "T", ChildRunID: "r1", Kind: "subagent.started", Payload: map[string]any{}, TsNs: 1}
}

func TestReferenceVector(t *testing.T) {
	root := t.TempDir()
	s := Open(root, PublicKey())
	ref, body := refRecords()
	gotRef, gotBody, err := s.Append(ref, body)
	if err != nil {
		t.Fatal(err)
	}
	if gotRef.ChildSHA != "sha256:"+refChildHex || gotBody.Seq != 0 {
		t.Errorf("child_sha %s seq %d", gotRef.ChildSHA, gotBody.Seq)
	}
	child, err := os.ReadFile(filepath.Join(root, "children", refChildHex+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if string(child) != refChildLine+"\n" {
		t.Errorf("child file:\n got %s\nwant %s", child, refChildLine)
	}
	parent, err := os.ReadFile(filepath.Join(root, "parent.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if string(parent) != refParent+"\n" {
		t.Errorf("parent.jsonl:\n got %s\nwant %s", parent, refParent)
	}
	if res := s.Verify(VerifyOptions{}); !res.OK || res.ParentCount != 1 || res.ChildCount != 1 || res.Key != KeyPublicDefault {
		t.Errorf("verify: %+v", res)
	}
	if res := s.Verify(VerifyOptions{Strict: true}); res.OK {
		t.Error("--strict passed a store under the public key")
	}
}

// writeReferenceStore lays the reference vector's files down by hand, so reading is tested apart from writing.
func writeReferenceStore(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "children"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "children", refChildHex+".jsonl"), refChildLine+"\n")
	write(t, filepath.Join(root, "parent.jsonl"), refParent+"\n")
	return root
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReferenceStoreReads(t *testing.T) {
	s := Open(writeReferenceStore(t), PublicKey())
	if res := s.Verify(VerifyOptions{}); !res.OK {
		t.Fatalf("verify: %+v", res)
	}
	tl, err := s.Replay("T")
	if err != nil || len(tl) != 1 || len(tl[0].Bodies) != 1 || tl[0].Bodies[0].Kind != "subagent.started" {
		t.Fatalf("replay: %+v %v", tl, err)
	}
}

// Show reads a task's timeline under the public key (another task's refs are not in it), and Marshal is show
// --output-json: json.dumps(indent=2, sort_keys=True) of [{"parent","bodies"}].
func TestShowReferenceStore(t *testing.T) {
	t.Parallel()
	root := writeReferenceStore(t)
	tl, err := Show(root, "T")
	if err != nil || len(tl) != 1 {
		t.Fatalf("Show: %+v %v", tl, err)
	}
	got, err := tl.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != refShowJSON {
		t.Errorf("show --output-json:\n%s\nwant\n%s", got, refShowJSON)
	}
	if none, err := Show(root, "other"); err != nil || len(none) != 0 {
		t.Errorf("Show of a task with no refs: %+v %v", none, err)
	}
	if out, err := Timeline(nil).Marshal(); err != nil || string(out) != "[]" {
		t.Errorf("an empty timeline marshals as %q, %v; want []", out, err)
	}
}

// refShowJSON is the reference store's timeline of task T as upstream's show --output-json prints it.
const refShowJSON = `[
  {
    "bodies": [
      {
        "child_run_id": "r1",
        "hmac": "46e4b1dec76b55ca30f20529ba3a21c0d2bdd9d0d6206ec02842906a84ee2ede",
        "kind": "subagent.started",
        "payload": {},
        "prev_hmac": "",
        "seq": 0,
        "task_id": "T",
        "ts_ns": 1,
        "v": 2
      }
    ],
    "parent": {
      "child_run_id": "r1",
      "child_sha": "sha256:3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b",
      "hmac": "a20e714596a40542ef979653d803a19780ca835318b5f831636be91ae003db95",
      "parent_call_id": "call",
      "prev_hmac": "",
      "summary": "s",
      "task_id": "T",
      "ts_ns": 1,
      "v": 2
    }
  }
]`
