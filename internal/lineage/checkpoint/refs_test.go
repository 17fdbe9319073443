package checkpoint

import (
	"strings"
	"testing"
	"time"
)

// Ticket refs read back only as written, and hold a slice to the checkpoint they name.
func TestTicketRefs(t *testing.T) {
	t.Parallel()
	head := Head{Parent: []string{"h0", "h1", "h2", "h3"}, ParentTasks: []string{"A", "B", "A", "C"}, Children: map[string][]string{}}
	cp := Of(head, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "public-default")
	cpFile, _ := cp.Marshal()
	tr := TicketRefsOf(cp, cpFile, []string{"C", "A", "A"})
	data, err := tr.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `"refs":[{"hmac":"h0","position":0,"task_id":"A"},{"hmac":"h2","position":2,"task_id":"A"},{"hmac":"h3","position":3,"task_id":"C"}],"tasks":["A","C"]`
	if !strings.Contains(string(data), want) {
		t.Fatalf("ticket refs %s, want %s", data, want)
	}
	back, err := ParseRefs(data)
	if err != nil || len(back.Refs) != 3 || back.CheckpointSHA256 != tr.CheckpointSHA256 {
		t.Fatalf("ParseRefs: %+v, %v", back, err)
	}
	for _, bad := range []string{
		strings.TrimSuffix(string(data), "\n"),
		strings.Replace(string(data), `"position":2`, `"position":0`, 1),
		strings.Replace(string(data), `"task_id":"C"`, `"task_id":"D"`, 1),
		strings.Replace(string(data), `"tasks":["A","C"]`, `"tasks":["C","A"]`, 1),
		strings.Replace(string(data), `{"checkpoint_sha256"`, `{ "checkpoint_sha256"`, 1),
	} {
		if _, err := ParseRefs([]byte(bad)); err == nil {
			t.Errorf("ParseRefs(%s) read it", bad)
		}
	}
	sum := tr.CheckpointSHA256
	slice := []Ref{{"A", "h0"}, {"A", "h2"}, {"C", "h3"}, {"A", "h9"}}
	if p := CheckRefs(cp, sum, back, slice); len(p) != 0 {
		t.Errorf("intact slice (with a ref appended since): %v", p)
	}
	if p := CheckRefs(cp, sum, back, []Ref{{"A", "h0"}, {"C", "h3"}}); len(p) != 1 || !strings.Contains(p[0].Message, `lacks parent ref 2 of task "A"`) {
		t.Errorf("a ref cut: %v", p)
	}
	if p := CheckRefs(cp, sum, back, []Ref{{"A", "h2"}, {"A", "h0"}, {"C", "h3"}}); len(p) != 1 || !strings.Contains(p[0].Message, "parent ref 2") {
		t.Errorf("refs reordered: %v", p)
	}
	if p := CheckRefs(cp, sum, back, []Ref{{"A", "h0"}, {"B", "h1"}, {"A", "h2"}, {"C", "h3"}}); len(p) != 1 || !strings.Contains(p[0].Message, `task "B"`) {
		t.Errorf("another task's ref in the slice: %v", p)
	}
	if p := CheckRefs(cp, strings.Repeat("0", 64), back, slice); len(p) != 1 || !strings.Contains(p[0].Message, "belong to checkpoint") {
		t.Errorf("refs of another checkpoint: %v", p)
	}
}

// FuzzParseRefs: ParseRefs never panics, and what it accepts is exactly what Marshal writes for it.
func FuzzParseRefs(f *testing.F) {
	cp := Of(Head{Parent: []string{"h0", "h1"}, ParentTasks: []string{"A", "B"}}, time.Unix(0, 0), "public-default")
	cpFile, _ := cp.Marshal()
	good, _ := TicketRefsOf(cp, cpFile, []string{"A"}).Marshal()
	f.Add(good)
	f.Add([]byte(`{"checkpoint_sha256":"","format":"","refs":[],"tasks":[],"v":1}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseRefs(data)
		if err != nil {
			return
		}
		again, err := tr.Marshal()
		if err != nil || string(again) != string(data) {
			t.Fatalf("ParseRefs accepted %q, which Marshal writes as %q (%v)", data, again, err)
		}
		CheckRefs(cp, tr.CheckpointSHA256, tr, []Ref{{"A", "h0"}})
	})
}
