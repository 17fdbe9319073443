package lineage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
)

var cpTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func takeCheckpoint(t fataler, s *Store) *checkpoint.Checkpoint {
	cp, res, err := s.TakeCheckpoint(cpTime)
	if err != nil {
		t.Fatalf("checkpoint: %v %v", err, res.Messages())
	}
	// What is taken is what is read back: the file form round-trips byte for byte.
	data, err := cp.Marshal()
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	again, err := checkpoint.Parse(data)
	if err != nil {
		t.Fatalf("parse %s: %v", data, err)
	}
	if d2, _ := again.Marshal(); !bytes.Equal(d2, data) {
		t.Fatalf("round trip changed\n%s\n%s", data, d2)
	}
	return cp
}

// verdict is `lineage v2 verify --checkpoint`: the store's own checks and the checkpoint's together.
func verdict(s *Store, cp *checkpoint.Checkpoint) []string {
	msgs := s.Verify(VerifyOptions{}).Messages()
	for _, f := range s.CheckCheckpoint(cp, "cp.json") {
		msgs = append(msgs, f.File+": "+f.Message)
	}
	return msgs
}

// Any truncation of any store file after a checkpoint, to any shorter length, fails: the store's own checks
// catch a cut inside a line (or only its newline), the checkpoint catches whole records cut off the end, which
// the chains alone cannot see.
func TestPropCheckpointTruncationFails(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := tempStore(t, secretKey())
		apply(t, s, genOps(t, 4))
		cp := takeCheckpoint(t, s)
		files := storeFiles(t, s)
		file := rapid.SampledFrom(files).Draw(t, "file")
		path := filepath.Join(s.Root, file)
		data := readFile(t, path)
		n := rapid.IntRange(0, len(data)-1).Draw(t, "keep")
		if err := os.WriteFile(path, data[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		if v := verdict(s, cp); len(v) == 0 {
			t.Fatalf("%s cut from %d to %d bytes: verify --checkpoint passes", file, len(data), n)
		}
		// Cut at a line boundary, the chains say nothing; the checkpoint names the file and the first record cut.
		if n == bytes.LastIndexByte(data[:max(n, 1)], '\n')+1 {
			kept := int64(bytes.Count(data[:n], []byte("\n")))
			fails := s.CheckCheckpoint(cp, "cp.json")
			if len(fails) == 0 || fails[0].File != file || int64(fails[0].Record) != kept {
				t.Fatalf("%s cut to %d records: checkpoint failures %+v", file, kept, fails)
			}
		}
		// Deleting the file is a truncation too.
		os.Remove(path)
		if v := verdict(s, cp); len(v) == 0 {
			t.Fatalf("%s removed: verify --checkpoint passes", file)
		}
	})
}

// Appends after a checkpoint (new children and their refs, more bodies on old children) pass.
func TestPropCheckpointAppendsPass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := tempStore(t, secretKey())
		ops := genOps(t, 3)
		apply(t, s, ops)
		cp := takeCheckpoint(t, s)
		more := genOps(t, 3)
		for i := range more {
			more[i].ts += 100 // new content addresses
		}
		apply(t, s, more)
		refs, err := s.ParentRefs()
		if err != nil {
			t.Fatal(err)
		}
		for i := rapid.IntRange(0, 3).Draw(t, "bodies"); i > 0; i-- {
			ref := rapid.SampledFrom(refs).Draw(t, "ref")
			if _, err := s.AppendBody(ref.ChildSHA, ChildBody{V: Version, TaskID: ref.TaskID, ChildRunID: ref.ChildRunID, Kind: "later", TsNs: 9}); err != nil {
				t.Fatal(err)
			}
		}
		if v := verdict(s, cp); len(v) != 0 {
			t.Fatalf("appends after the checkpoint fail: %v", v)
		}
		// And a new checkpoint of the longer store is extended by it, not the other way round.
		cp2 := takeCheckpoint(t, s)
		if cp2.Parent.Count != cp.Parent.Count+int64(len(more)) {
			t.Fatalf("second checkpoint counts %d refs", cp2.Parent.Count)
		}
	})
}

// The two attacks of issue 17, on a store under a secret key, by someone without the key: both leave the
// store's own verify (even --strict) passing, and both fail against a checkpoint taken before.
func TestCheckpointCatchesKeylessCuts(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, secretKey())
	var refs []ParentRef
	for i := 0; i < 3; i++ {
		ref, _, err := s.Append(ParentRef{V: Version, TaskID: "T", ChildRunID: fmt.Sprint("r", i), TsNs: int64(i)},
			ChildBody{V: Version, TaskID: "T", ChildRunID: fmt.Sprint("r", i), Kind: "started", TsNs: int64(i)})
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 2; j++ {
			if _, err := s.AppendBody(ref.ChildSHA, ChildBody{V: Version, TaskID: "T", ChildRunID: ref.ChildRunID, Kind: "progress", TsNs: int64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		refs = append(refs, ref)
	}
	cp := takeCheckpoint(t, s)
	snapshot := map[string][]byte{}
	for _, f := range storeFiles(t, s) {
		snapshot[f] = readFile(t, filepath.Join(dir, f))
	}
	restore := func() {
		os.RemoveAll(dir)
		os.MkdirAll(filepath.Join(dir, childrenDir), 0o755)
		for f, b := range snapshot {
			os.WriteFile(filepath.Join(dir, f), b, 0o600)
		}
	}
	cutLines := func(rel string, keep int) {
		data := readFile(t, filepath.Join(dir, rel))
		lines := strings.SplitAfter(string(data), "\n")
		os.WriteFile(filepath.Join(dir, rel), []byte(strings.Join(lines[:keep], "")), 0o600)
	}
	expect := func(name, file string, record int) {
		t.Helper()
		if res := s.Verify(VerifyOptions{Strict: true}); !res.OK {
			t.Fatalf("%s: the store's own verify already fails (%v): not the attack", name, res.Messages())
		}
		fails := s.CheckCheckpoint(cp, "cp.json")
		if len(fails) == 0 || fails[0].File != file || fails[0].Record != record {
			t.Fatalf("%s: checkpoint failures %+v, want %s record %d", name, fails, file, record)
		}
		t.Logf("%s: %s", name, fails[0].Message)
	}

	// Attack 1: the later bodies of a child run (the ref pins only the first body).
	for i, ref := range refs {
		rel := childrenDir + "/" + strings.TrimPrefix(ref.ChildSHA, "sha256:") + ".jsonl"
		for keep := 1; keep < 3; keep++ {
			restore()
			cutLines(rel, keep)
			expect(fmt.Sprintf("child %d cut to %d bodies", i, keep), rel, keep)
		}
	}
	// Attack 2: the newest parent refs with their child files.
	for keep := 0; keep < 3; keep++ {
		restore()
		cutLines(parentFile, keep)
		for _, ref := range refs[keep:] {
			os.Remove(filepath.Join(dir, childrenDir, strings.TrimPrefix(ref.ChildSHA, "sha256:")+".jsonl"))
		}
		expect(fmt.Sprintf("parent cut to %d refs", keep), parentFile, keep)
	}
}

// An independent reading of the store by python3 (json, hmac, hashlib only, as upstream's writer computes
// them) gives the same head: each chain's length and its last record's hmac, which it also recomputes.
func TestCheckpointAgainstPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	// Stores are drawn by rapid and kept; one python3 run then reads them all.
	outer := t.TempDir()
	var roots []string
	var cps []*checkpoint.Checkpoint
	rapid.Check(t, func(rt *rapid.T) {
		root := filepath.Join(outer, fmt.Sprint(len(roots)))
		s := Open(root, secretKey())
		apply(rt, s, genOps(rt, 4))
		roots, cps = append(roots, root), append(cps, takeCheckpoint(rt, s))
	})
	out, err := exec.Command("python3", append([]string{"-c", pythonHead, string(secretKey().Bytes)}, roots...)...).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var heads []struct {
		Parent   [2]any            `json:"parent"`
		Children map[string][2]any `json:"children"`
	}
	if err := json.Unmarshal(out, &heads); err != nil || len(heads) != len(roots) {
		t.Fatalf("python3 said %s: %v", out, err)
	}
	tip := func(v [2]any) checkpoint.Tip {
		return checkpoint.Tip{Count: int64(v[0].(float64)), LastHMAC: v[1].(string)}
	}
	for i, py := range heads {
		cp := cps[i]
		if tip(py.Parent) != cp.Parent {
			t.Fatalf("%s parent: python %v, checkpoint %+v", roots[i], py.Parent, cp.Parent)
		}
		if len(py.Children) != len(cp.Children) {
			t.Fatalf("%s: python sees %d child files, the checkpoint %d", roots[i], len(py.Children), len(cp.Children))
		}
		for hex, v := range py.Children {
			if tip(v) != cp.Children[hex] {
				t.Fatalf("%s child %s: python %v, checkpoint %+v", roots[i], hex, v, cp.Children[hex])
			}
		}
	}
	t.Logf("%d stores read alike by python3", len(roots))
}

const pythonHead = `
import hashlib, hmac, json, os, sys
key = sys.argv[1].encode()
def chain(path):
    prev, last, n = "", "", 0
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if not line:
                continue
            rec = json.loads(line)
            assert rec["prev_hmac"] == prev, (path, n)
            body = dict(rec, hmac="")
            want = hmac.new(key, json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(), hashlib.sha256).hexdigest()
            assert want == rec["hmac"], (path, n)
            prev = last = rec["hmac"]
            n += 1
    return [n, last]
def head(root):
    kids = os.path.join(root, "children")
    return {
        "parent": chain(os.path.join(root, "parent.jsonl")),
        "children": {name[:-6]: chain(os.path.join(kids, name)) for name in os.listdir(kids) if name.endswith(".jsonl")},
    }
print(json.dumps([head(root) for root in sys.argv[2:]]))
`

func TestCheckpointParseRefuses(t *testing.T) {
	good := `{"children":{},"created_at":"2026-01-02T03:04:05Z","format":"git-bernstein/lineage-v2-checkpoint","key_class":"public-default","parent":{"count":0,"last_hmac":""},"v":1}` + "\n"
	if _, err := checkpoint.Parse([]byte(good)); err != nil {
		t.Fatalf("good: %v", err)
	}
	for _, bad := range []string{
		strings.TrimSuffix(good, "\n"),
		strings.Replace(good, `{"children"`, `{ "children"`, 1),
		strings.Replace(good, `"v":1`, `"v":2`, 1),
		strings.Replace(good, `"v":1`, `"v":1,"x":1`, 1),
		strings.Replace(good, `"count":0,"last_hmac":""`, `"count":1,"last_hmac":""`, 1),
		strings.Replace(good, `"count":0`, `"count":-1`, 1),
		strings.Replace(good, `public-default`, `none`, 1),
		strings.Replace(good, `2026-01-02T03:04:05Z`, `2026-01-02T03:04:05+01:00`, 1),
		strings.Replace(good, `{"children":{}`, `{"children":{"../x":{"count":1,"last_hmac":"a"}}`, 1),
		strings.Replace(good, `lineage-v2-checkpoint`, `other`, 1),
	} {
		if _, err := checkpoint.Parse([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}
