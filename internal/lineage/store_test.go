package lineage

import (
	"github.com/git-bernstein/git-bernstein/internal/pyjson"

	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// fataler is what the helpers need of *testing.T and *rapid.T alike.
type fataler interface{ Fatalf(string, ...any) }

// op is one append: a new child with its parent ref, plus extra bodies chained onto that child.
type op struct {
	task, run, call, summary, kind string
	payload                        map[string]any
	ts                             int64
	extra                          int
}

func genString(t *rapid.T, label string) string {
	return rapid.StringOfN(rapid.SampledFrom([]rune("aZ09 _-.é中😀\u2028\"\\\n\x01")), 1, 8, -1).Draw(t, label)
}

// genValue draws JSON values in the form pyjson.Parse returns for canonical text, so they survive a round trip.
func genValue(t *rapid.T, label string, depth int) any {
	kinds := 6
	if depth > 1 {
		kinds = 4
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, label+"_kind") {
	case 0:
		f := rapid.Float64().Draw(t, label+"_f")
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0.5
		}
		s, _ := pyjson.Canonical(f) // CPython's float repr
		return json.Number(s)
	case 1:
		return json.Number(rapid.StringMatching(`-?[1-9][0-9]{0,40}`).Draw(t, label+"_i"))
	case 2:
		return genString(t, label+"_s")
	case 3:
		return rapid.SampledFrom([]any{true, false, nil}).Draw(t, label+"_c")
	case 4:
		n := rapid.IntRange(0, 3).Draw(t, label+"_n")
		l := make([]any, n)
		for i := range l {
			l[i] = genValue(t, fmt.Sprintf("%s_%d", label, i), depth+1)
		}
		return l
	default:
		return genObject(t, label, depth+1)
	}
}

func genObject(t *rapid.T, label string, depth int) map[string]any {
	n := rapid.IntRange(0, 3).Draw(t, label+"_keys")
	m := make(map[string]any, n)
	for i := 0; i < n; i++ {
		m[genString(t, fmt.Sprintf("%s_k%d", label, i))] = genValue(t, fmt.Sprintf("%s_v%d", label, i), depth)
	}
	return m
}

func genOps(t *rapid.T, maxOps int) []op {
	n := rapid.IntRange(1, maxOps).Draw(t, "ops")
	ops := make([]op, n)
	for i := range ops {
		ops[i] = op{
			task:    rapid.SampledFrom([]string{"T", "task-9f3a", "ü"}).Draw(t, "task"),
			run:     genString(t, "run"),
			call:    rapid.SampledFrom([]string{"", "call", "c-1"}).Draw(t, "call"),
			summary: rapid.SampledFrom([]string{"", "s", "résumé <b>&", "line\nbreak"}).Draw(t, "summary"),
			kind:    rapid.SampledFrom([]string{"subagent.started", "tool.call"}).Draw(t, "kind"),
			payload: genObject(t, "payload", 0),
			ts:      int64(i + 1), // distinct, so no two first bodies share a content address
			extra:   rapid.IntRange(0, 2).Draw(t, "extra"),
		}
	}
	return ops
}

func apply(tb fataler, s *Store, ops []op) {
	for _, o := range ops {
		ref, _, err := s.Append(
			ParentRef{V: Version, TaskID: o.task, ChildRunID: o.run, ParentCallID: o.call, Summary: o.summary, TsNs: o.ts},
			ChildBody{V: Version, TaskID: o.task, ChildRunID: o.run, Kind: o.kind, Payload: o.payload, TsNs: o.ts})
		if err != nil {
			tb.Fatalf("append: %v", err)
		}
		for j := 0; j < o.extra; j++ {
			if _, err := s.AppendBody(ref.ChildSHA, ChildBody{V: Version, TaskID: o.task, ChildRunID: o.run, Kind: "progress", Payload: map[string]any{"j": j}, TsNs: o.ts}); err != nil {
				tb.Fatalf("append body: %v", err)
			}
		}
	}
}

// propTempRoot is where property tests build stores: tmpfs when there is one, since each append fsyncs twice
// and hundreds of stores on a shared disk would take minutes. The flock and fsync tests use the real disk.
var propTempRoot = func() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return ""
}()

func tempStore(t *rapid.T, key Key) *Store {
	dir, err := os.MkdirTemp(propTempRoot, "lineage-prop-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return Open(dir, key)
}

// storeFiles lists the store's files relative to its root.
func storeFiles(t fataler, s *Store) []string {
	files := []string{parentFile}
	ents, _ := os.ReadDir(filepath.Join(s.Root, childrenDir))
	for _, e := range ents {
		files = append(files, childrenDir+"/"+e.Name())
	}
	return files
}

func readFile(t fataler, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return b
}

func secretKey() Key { return Key{Bytes: []byte("s3cret"), Class: KeySecretFile} }

// Round trip: what Append wrote, Replay and export give back, and a fresh store verifies.
func TestPropRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := tempStore(t, secretKey())
		ops := genOps(t, 4)
		apply(t, s, ops)
		if res := s.Verify(VerifyOptions{Strict: true}); !res.OK {
			t.Fatalf("fresh store fails: %v", res.Messages())
		}
		for _, o := range ops {
			tl, err := s.Replay(o.task)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, e := range tl {
				if e.Parent.TsNs == o.ts {
					found = true
					if e.Parent.ChildRunID != o.run || e.Parent.Summary != o.summary || len(e.Bodies) != 1+o.extra ||
						!reflect.DeepEqual(e.Bodies[0].Payload, o.payload) {
						t.Fatalf("replay gave %+v for %+v", e, o)
					}
				}
			}
			if !found {
				t.Fatalf("op %+v missing from replay", o)
			}
			out, err := ExportJSONL(tl)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
				m, err := decodeObject(line)
				if err != nil {
					t.Fatalf("export line %s: %v", line, err)
				}
				delete(m, "_kind")
				if c, _ := pyjson.Canonical(m); !hasLine(s, c) {
					t.Fatalf("export line %s is not a stored record", line)
				}
			}
		}
	})
}

func hasLine(s *Store, line []byte) bool {
	for _, f := range storeFiles(nil, s) {
		b, _ := os.ReadFile(filepath.Join(s.Root, f))
		if bytes.Contains(b, append(append([]byte{}, line...), '\n')) {
			return true
		}
	}
	return false
}

// Replay determinism: the same appends give byte-identical stores and identical timelines.
func TestPropReplayDeterminism(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ops := genOps(t, 4)
		a, b := tempStore(t, PublicKey()), tempStore(t, PublicKey())
		apply(t, a, ops)
		apply(t, b, ops)
		for _, f := range storeFiles(t, a) {
			if !bytes.Equal(readFile(t, filepath.Join(a.Root, f)), readFile(t, filepath.Join(b.Root, f))) {
				t.Fatalf("%s differs between two identical runs", f)
			}
		}
		for _, task := range []string{"T", "task-9f3a", "ü"} {
			x, err1 := a.Replay(task)
			y, err2 := b.Replay(task)
			z, err3 := a.Replay(task)
			if err1 != nil || err2 != nil || err3 != nil || !reflect.DeepEqual(x, y) || !reflect.DeepEqual(x, z) {
				t.Fatalf("replay of %s not deterministic", task)
			}
		}
	})
}

// Append commutativity per task: interleaving writers differently changes the parent chain but not any task's
// timeline, nor any child file.
func TestPropAppendCommutativity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ops := genOps(t, 6)
		perm := rapid.Permutation(ops).Draw(t, "interleaving")
		// Keep each task's own order: the positions a task holds in perm get its ops in original order.
		byTask := map[string][]op{}
		for _, o := range ops {
			byTask[o.task] = append(byTask[o.task], o)
		}
		inter := make([]op, len(perm))
		for i, o := range perm {
			inter[i] = byTask[o.task][0]
			byTask[o.task] = byTask[o.task][1:]
		}
		a, b := tempStore(t, PublicKey()), tempStore(t, PublicKey())
		apply(t, a, ops)
		apply(t, b, inter)
		for _, s := range []*Store{a, b} {
			if res := s.Verify(VerifyOptions{}); !res.OK {
				t.Fatalf("interleaved store fails: %v", res.Messages())
			}
		}
		for _, task := range []string{"T", "task-9f3a", "ü"} {
			x, _ := a.Replay(task)
			y, _ := b.Replay(task)
			if !reflect.DeepEqual(project(x), project(y)) {
				t.Fatalf("task %s timeline depends on interleaving", task)
			}
		}
		fa, fb := storeFiles(t, a), storeFiles(t, b)
		if !reflect.DeepEqual(fa, fb) {
			t.Fatalf("child files differ: %v vs %v", fa, fb)
		}
		for _, f := range fa[1:] {
			if !bytes.Equal(readFile(t, filepath.Join(a.Root, f)), readFile(t, filepath.Join(b.Root, f))) {
				t.Fatalf("%s depends on interleaving", f)
			}
		}
	})
}

// project drops the parent chain links, which record global order by design.
func project(tl []Entry) []Entry {
	out := make([]Entry, len(tl))
	for i, e := range tl {
		e.Parent.PrevHMAC, e.Parent.HMAC = "", ""
		out[i] = e
	}
	return out
}

// mutateFile draws a file of the store and returns its path and content.
func drawFile(t *rapid.T, s *Store) (string, []byte) {
	files := storeFiles(t, s)
	f := rapid.SampledFrom(files).Draw(t, "file")
	return filepath.Join(s.Root, f), readFile(t, filepath.Join(s.Root, f))
}

// Verify-after-truncate: cutting any file anywhere fails verify. The one cut nothing can see is whole trailing
// bodies of a multi-body child: no record commits to a child's body count (upstream's design), so it is skipped.
func TestPropTruncationDetected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := tempStore(t, PublicKey())
		apply(t, s, genOps(t, 3))
		path, data := drawFile(t, s)
		cut := rapid.IntRange(0, len(data)-1).Draw(t, "cut")
		if filepath.Base(path) != parentFile && cut > 0 && data[cut-1] == '\n' {
			t.Skip("whole trailing child bodies: undetectable by design")
		}
		if err := os.Truncate(path, int64(cut)); err != nil {
			t.Fatal(err)
		}
		if res := s.Verify(VerifyOptions{}); res.OK {
			t.Fatalf("truncating %s to %d of %d bytes went unnoticed", path, cut, len(data))
		}
	})
}

// Byte flips anywhere in either layer fail verify.
func TestPropByteFlipDetected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := tempStore(t, secretKey())
		apply(t, s, genOps(t, 3))
		path, data := drawFile(t, s)
		i := rapid.IntRange(0, len(data)-1).Draw(t, "offset")
		data[i] ^= byte(rapid.IntRange(1, 255).Draw(t, "xor"))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if res := s.Verify(VerifyOptions{}); res.OK {
			t.Fatalf("flip at %d of %s went unnoticed", i, path)
		}
	})
}

// HMAC unforgeability across both layers: a record rewritten in canonical form (so only the HMAC can tell) fails,
// and so does a whole store re-stamped under another key.
func TestPropUnforgeability(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := tempStore(t, secretKey())
		ops := genOps(t, 3)
		apply(t, s, ops)
		path, data := drawFile(t, s)
		lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
		li := rapid.IntRange(0, len(lines)-1).Draw(t, "line")
		m, err := decodeObject(lines[li])
		if err != nil {
			t.Fatal(err)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			if k != "hmac" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		field := rapid.SampledFrom(keys).Draw(t, "field")
		switch m[field].(type) {
		case string:
			m[field] = m[field].(string) + "x"
		case json.Number:
			m[field] = json.Number(strings.TrimPrefix(string(m[field].(json.Number)), "-") + "1")
		default:
			m[field] = map[string]any{"forged": true}
		}
		lines[li], _ = pyjson.Canonical(m)
		if err := os.WriteFile(path, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if res := s.Verify(VerifyOptions{}); res.OK {
			t.Fatalf("forged %s in %s went unnoticed", field, path)
		}

		forged := tempStore(t, Key{Bytes: []byte("attacker"), Class: KeySecretFile})
		apply(t, forged, ops)
		res := Open(forged.Root, secretKey()).Verify(VerifyOptions{})
		mismatches := 0
		for _, msg := range res.Messages() {
			if strings.Contains(msg, "hmac mismatch") {
				mismatches++
			}
		}
		if res.OK || mismatches != res.ParentCount+res.ChildCount {
			t.Fatalf("store under another key: %d hmac mismatches for %d records", mismatches, res.ParentCount+res.ChildCount)
		}
	})
}

// Orphan detection: a ref whose child file is gone fails, and so does a child file no ref names.
func TestPropOrphanDetection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := tempStore(t, PublicKey())
		apply(t, s, genOps(t, 3))
		files := storeFiles(t, s)[1:]
		victim := rapid.SampledFrom(files).Draw(t, "child")
		sha := "sha256:" + strings.TrimSuffix(filepath.Base(victim), ".jsonl")
		if rapid.Bool().Draw(t, "delete child") {
			os.Remove(filepath.Join(s.Root, victim))
			if !anyContains(s.Verify(VerifyOptions{}).Messages(), "missing child file "+sha) {
				t.Fatalf("deleted %s not reported", victim)
			}
			return
		}
		// Drop the parent line that names the child: the child is now an orphan.
		data := readFile(t, s.ParentPath())
		var kept []byte
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			if !bytes.Contains(l, []byte(sha)) {
				kept = append(kept, l...)
			}
		}
		os.WriteFile(s.ParentPath(), kept, 0o600)
		res := s.Verify(VerifyOptions{})
		if !anyContains(res.Messages(), "orphan child file "+sha) {
			t.Fatalf("orphan %s not reported: %v", sha, res.Messages())
		}
		for _, f := range res.Failures {
			if strings.HasPrefix(f.Message, "orphan") && !strings.Contains(f.Repair, "remove "+victim) {
				t.Fatalf("orphan repair %q does not name %s", f.Repair, victim)
			}
		}
	})
}

func anyContains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
