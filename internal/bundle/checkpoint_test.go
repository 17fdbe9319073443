package bundle

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// A bundle packs the checkpoint it is given as lineage/v2/checkpoint.json, and the verifier holds the packed
// slice against it: intact or appended to since, PASS; a body cut, or a child file removed, after the
// checkpoint was taken and before packing, FAIL naming the file and position.
func TestLineageV2CheckpointInBundle(t *testing.T) {
	r := fixture(t)
	root := filepath.Join(r.Dir, ".sdd", "lineage", "v2")
	os.RemoveAll(root)
	store := lineage.Open(root, lineage.PublicKey())
	var shas []string
	for _, task := range []string{"ENG-42-impl", "ENG-42-review", "ENG-420"} {
		ref, _, err := store.Append(lineage.ParentRef{V: 2, TaskID: task, ChildRunID: "r", TsNs: 1},
			lineage.ChildBody{V: 2, TaskID: task, ChildRunID: "r", Kind: "started", Payload: map[string]any{}, TsNs: 1})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if _, err := store.AppendBody(ref.ChildSHA, lineage.ChildBody{V: 2, TaskID: task, ChildRunID: "r", Kind: "progress", TsNs: 2}); err != nil {
				t.Fatal(err)
			}
		}
		shas = append(shas, strings.TrimPrefix(ref.ChildSHA, "sha256:"))
	}
	cp, _, err := store.TakeCheckpoint(fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	cpFile, _ := cp.Marshal()
	child := func(i int) string { return filepath.Join(root, "children", shas[i]+".jsonl") }
	saved := map[int][]byte{}
	for i := range shas {
		saved[i], _ = os.ReadFile(child(i))
	}
	restore := func() {
		for i, b := range saved {
			os.WriteFile(child(i), b, 0o644)
		}
	}
	check := func(name string, want verify.Status, problem string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "b.tar.gz")
		build(t, r, out, func(o *Options) { o.LineageV2, o.LineageV2Checkpoint = true, cpFile })
		names, data := readArchive(t, out)
		if !bytes.Equal(data[LineageV2CheckpointMember], cpFile) || !strings.Contains(strings.Join(names, ","), LineageV2CheckpointMember) {
			t.Fatalf("%s: checkpoint not packed: %v", name, names)
		}
		f, _ := os.Open(out)
		defer f.Close()
		rep := verify.Verify(f, nil, nil, verify.Options{})
		var got *verify.Check
		for i := range rep.Checks {
			if rep.Checks[i].Check == verify.CheckLineageV2 {
				got = &rep.Checks[i]
			}
		}
		if got == nil || got.Status != want || !strings.Contains(strings.Join(got.Problems, "\n"), problem) {
			t.Fatalf("%s: lineage-v2 check %+v", name, got)
		}
		if want == verify.Fail && rep.Verdict != verify.Failed {
			t.Fatalf("%s: verdict %s", name, rep.Verdict)
		}
		t.Logf("%s: [%s] %s %v", name, got.Status, got.Detail, got.Problems)
	}

	check("intact", verify.Pass, "")
	if _, err := store.AppendBody("sha256:"+shas[0], lineage.ChildBody{V: 2, TaskID: "ENG-42-impl", ChildRunID: "r", Kind: "done", TsNs: 3}); err != nil {
		t.Fatal(err)
	}
	check("appended since", verify.Pass, "")
	restore()

	for _, i := range []int{0, 1} {
		for keep := 1; keep < 3; keep++ {
			lines := strings.SplitAfter(string(saved[i]), "\n")
			os.WriteFile(child(i), []byte(strings.Join(lines[:keep], "")), 0o644)
			check("cut", verify.Fail, "children/"+shas[i]+".jsonl holds "+string(rune('0'+keep))+" of the 3 bodies")
			restore()
		}
	}
	// Another task's child cut is not this bundle's business.
	os.WriteFile(child(2), saved[2][:bytes.IndexByte(saved[2], '\n')+1], 0o644)
	check("other task's child cut", verify.Pass, "")
	restore()
	// A child file removed while its ref stays: the ref is packed, its checkpointed file is not.
	os.Remove(child(1))
	check("child file removed", verify.Fail, "children/"+shas[1]+".jsonl is missing")
	restore()

	// The checkpoint member is covered by the manifest signature like every member.
	_, key, _ := sign.GenerateKey()
	out := filepath.Join(t.TempDir(), "s.tar.gz")
	build(t, r, out, func(o *Options) {
		o.LineageV2, o.LineageV2Checkpoint, o.SignKey, o.SignKid = true, cpFile, key, "k"
	})
	_, data := readArchive(t, out)
	if !strings.Contains(string(data["manifest.json"]), LineageV2CheckpointMember) {
		t.Fatal("the manifest does not list the checkpoint")
	}
}

// With the refs the checkpoint counted, a bundle also carries lineage/v2/checkpoint-refs.json, and a parent ref
// of the ticket cut between the checkpoint and the packing is FAILED from the bundle alone, naming its position
// and task, where before it could not be told from another task's ref left out. Another task's ref cut is not
// the bundle's business; a ticket task whose refs were all cut still shows, its id naming the ticket.
func TestLineageV2TicketRefCutInBundle(t *testing.T) {
	r := fixture(t)
	root := filepath.Join(r.Dir, ".sdd", "lineage", "v2")
	os.RemoveAll(root)
	store := lineage.Open(root, lineage.PublicKey())
	// Parent refs 0..4: ENG-42-impl, ENG-420, ENG-42-impl, ENG-42-review, ENG-420. A payload is user data: its
	// members may differ only in case, and the check reads the records' own members by exact name regardless.
	for _, task := range []string{"ENG-42-impl", "ENG-420", "ENG-42-impl", "ENG-42-review", "ENG-420"} {
		if _, _, err := store.Append(lineage.ParentRef{V: 2, TaskID: task, ChildRunID: "r", TsNs: 1},
			lineage.ChildBody{V: 2, TaskID: task, ChildRunID: "r", Kind: "started", Payload: map[string]any{"Name": "a", "name": "b"}, TsNs: 1}); err != nil {
			t.Fatal(err)
		}
	}
	cp, _, err := store.TakeCheckpoint(fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	cpFile, _ := cp.Marshal()
	parent := filepath.Join(root, "parent.jsonl")
	saved, _ := os.ReadFile(parent)
	lines := strings.SplitAfter(string(saved), "\n")
	cut := func(i int) {
		os.WriteFile(parent, []byte(strings.Join(append(append([]string(nil), lines[:i]...), lines[i+1:]...), "")), 0o644)
	}
	check := func(name string, want verify.Status, problem string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "b.tar.gz")
		build(t, r, out, func(o *Options) {
			o.LineageV2, o.LineageV2Checkpoint, o.LineageV2CheckpointRefs = true, cpFile, cp.Refs
		})
		_, data := readArchive(t, out)
		if _, ok := data[LineageV2CheckpointRefsMember]; !ok {
			t.Fatalf("%s: no %s", name, LineageV2CheckpointRefsMember)
		}
		f, _ := os.Open(out)
		defer f.Close()
		rep := verify.Verify(f, nil, nil, verify.Options{})
		var got *verify.Check
		for i := range rep.Checks {
			if rep.Checks[i].Check == verify.CheckLineageV2 {
				got = &rep.Checks[i]
			}
		}
		if got == nil || got.Status != want || !strings.Contains(strings.Join(got.Problems, "\n"), problem) {
			t.Fatalf("%s: lineage-v2 check %+v", name, got)
		}
		t.Logf("%s: [%s] %s %v", name, got.Status, got.Detail, got.Problems)
		os.WriteFile(parent, saved, 0o644)
	}

	check("intact", verify.Pass, "")
	cut(2)
	// A bundle made without the refs (as before them) reads as it did: the cut cannot be told, and says so.
	old := filepath.Join(t.TempDir(), "old.tar.gz")
	build(t, r, old, func(o *Options) { o.LineageV2, o.LineageV2Checkpoint = true, cpFile })
	f, _ := os.Open(old)
	rep := verify.Verify(f, nil, nil, verify.Options{})
	f.Close()
	for _, c := range rep.Checks {
		if c.Check == verify.CheckLineageV2 && (c.Status != verify.Pass || !strings.Contains(c.Detail, "no lineage/v2/checkpoint-refs.json")) {
			t.Errorf("a bundle without ticket refs: %+v", c)
		}
	}
	check("a ref of the ticket cut", verify.Fail, `lacks parent ref 2 of task "ENG-42-impl"`)
	cut(0)
	check("the ticket's first ref cut", verify.Fail, `lacks parent ref 0 of task "ENG-42-impl"`)
	cut(3)
	check("a ticket task's only ref cut", verify.Fail, `lacks parent ref 3 of task "ENG-42-review"`)
	cut(1)
	check("another task's ref cut", verify.Pass, "")
	cut(4)
	check("the checkpoint's last ref, another task's, cut", verify.Pass, "")

	// The refs are the ticket's: its checkpoint's digest binds them, and the manifest signature covers them.
	out := filepath.Join(t.TempDir(), "m.tar.gz")
	build(t, r, out, func(o *Options) {
		o.LineageV2, o.LineageV2Checkpoint, o.LineageV2CheckpointRefs = true, cpFile, cp.Refs
	})
	_, data := readArchive(t, out)
	if !strings.Contains(string(data["manifest.json"]), LineageV2CheckpointRefsMember) {
		t.Fatal("the manifest does not list the ticket refs")
	}
	if got := string(data[LineageV2CheckpointRefsMember]); !strings.Contains(got, `"tasks":["ENG-42-impl","ENG-42-review"]`) || strings.Contains(got, "ENG-420") {
		t.Errorf("ticket refs %s, want the refs of ENG-42-impl and ENG-42-review alone", got)
	}
}
