package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
)

func TestLineageV2Packed(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	store := lineage.Open(filepath.Join(r.Dir, ".sdd", "lineage", "v2"), lineage.PublicKey())
	os.RemoveAll(store.Root) // the fixture's decoy file
	add := func(task, run string, payload map[string]any) string {
		ref, _, err := store.Append(
			lineage.ParentRef{V: 2, TaskID: task, ChildRunID: run, ParentCallID: "c", Summary: "s", TsNs: 1},
			lineage.ChildBody{V: 2, TaskID: task, ChildRunID: run, Kind: "k", Payload: payload, TsNs: 1})
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimPrefix(ref.ChildSHA, "sha256:")
	}
	named := add("ENG-42-impl", "r1", map[string]any{})
	byBody := add("task-a", "r2", map[string]any{"tracker": "github", "ticket": "ENG-42"})
	add("task-b", "r3", map[string]any{"tracker": "github", "ticket": "ENG-420"})
	add("ENG-420", "r4", map[string]any{})

	out := filepath.Join(t.TempDir(), "v2.tar.gz")
	build(t, r, out, func(o *Options) { o.LineageV2 = true })
	names, data := readArchive(t, out)
	joined := strings.Join(names, "\n")
	for _, want := range []string{"lineage/v2/parent.jsonl", "lineage/v2/children/" + named + ".jsonl", "lineage/v2/children/" + byBody + ".jsonl"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %s in\n%s", want, joined)
		}
	}
	if strings.Count(joined, "lineage/v2/children/") != 2 {
		t.Errorf("other tasks' children packed:\n%s", joined)
	}
	parent := string(data["lineage/v2/parent.jsonl"])
	if strings.Count(parent, "\n") != 2 || !strings.Contains(parent, `"task_id":"ENG-42-impl"`) || !strings.Contains(parent, `"task_id":"task-a"`) {
		t.Errorf("parent slice:\n%s", parent)
	}
	whole, _ := os.ReadFile(filepath.Join(store.Root, "children", byBody+".jsonl"))
	if string(data["lineage/v2/children/"+byBody+".jsonl"]) != string(whole) {
		t.Error("child file not packed whole")
	}

	// Off unless enabled.
	build(t, r, out, nil)
	names, _ = readArchive(t, out)
	if strings.Contains(strings.Join(names, ","), "lineage/v2/") {
		t.Error("lineage v2 packed while disabled")
	}
}
