package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/pyjson"
)

// RefsFormat is a ticket refs document's "format" member.
const RefsFormat = "git-bernstein/lineage-v2-checkpoint-refs"

// TicketRefs says, for one bundle, which parent refs of the store its ticket's tasks had when its checkpoint
// was taken: a bundle's lineage/v2/parent.jsonl is a slice without positions, so without this a ref of the
// ticket cut before packing looks like another task's ref left out (this package's doc.go).
type TicketRefs struct {
	CheckpointSHA256 string   // the sha256 of the checkpoint file these refs belong to
	Tasks            []string // the ticket's tasks, sorted, each once
	Refs             []PositionedRef
}

// PositionedRef is one parent ref of the ticket's tasks at the checkpoint: its 0-based position among the
// records of parent.jsonl, its task and its hmac.
type PositionedRef struct {
	Position int64
	TaskID   string
	HMAC     string
}

// TicketRefsOf is the ticket refs of cp (its Refs, as Of took them from the store) for tasks; cpFile is the
// checkpoint file the bundle carries.
func TicketRefsOf(cp *Checkpoint, cpFile []byte, tasks []string) *TicketRefs {
	tr := &TicketRefs{CheckpointSHA256: Digest(cpFile), Tasks: []string{}, Refs: []PositionedRef{}}
	want := map[string]bool{}
	for _, t := range tasks {
		if !want[t] {
			want[t] = true
			tr.Tasks = append(tr.Tasks, t)
		}
	}
	sort.Strings(tr.Tasks)
	for i, r := range cp.Refs {
		if want[r.TaskID] {
			tr.Refs = append(tr.Refs, PositionedRef{Position: int64(i), TaskID: r.TaskID, HMAC: r.HMAC})
		}
	}
	return tr
}

// Marshal is the file: the canonical form of
//
//	{"checkpoint_sha256":"<hex>","format":RefsFormat,"refs":[{"hmac":…,"position":…,"task_id":…},…],
//	 "tasks":[…],"v":1}
//
// and a newline, refs by position.
func (tr *TicketRefs) Marshal() ([]byte, error) {
	refs := make([]any, len(tr.Refs))
	for i, r := range tr.Refs {
		refs[i] = map[string]any{"hmac": r.HMAC, "position": r.Position, "task_id": r.TaskID}
	}
	tasks := make([]any, len(tr.Tasks))
	for i, t := range tr.Tasks {
		tasks[i] = t
	}
	out, err := pyjson.Canonical(map[string]any{
		"checkpoint_sha256": tr.CheckpointSHA256,
		"format":            RefsFormat,
		"refs":              refs,
		"tasks":             tasks,
		"v":                 int64(Version),
	})
	if err != nil {
		return nil, fmt.Errorf("encode lineage v2 ticket refs: %w", err)
	}
	return append(out, '\n'), nil
}

// ParseRefs reads a ticket refs file: only the exact bytes Marshal writes, refs at increasing positions, each of
// a listed task, tasks sorted and distinct.
func ParseRefs(data []byte) (*TicketRefs, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("ticket refs are %d bytes, more than %d", len(data), MaxSize)
	}
	body, ok := bytes.CutSuffix(data, []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("ticket refs do not end in a newline")
	}
	v, err := pyjson.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("ticket refs are not JSON: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("ticket refs are not a JSON object")
	}
	if err := exactKeys(m, "checkpoint_sha256", "format", "refs", "tasks", "v"); err != nil {
		return nil, err
	}
	if m["format"] != RefsFormat {
		return nil, fmt.Errorf("ticket refs format is %v, not %q", m["format"], RefsFormat)
	}
	if n, ok := pyjson.Int(m["v"]); !ok || n != Version {
		return nil, fmt.Errorf("ticket refs v is %v; this program reads v %d", m["v"], Version)
	}
	tr := &TicketRefs{Tasks: []string{}, Refs: []PositionedRef{}}
	if tr.CheckpointSHA256, ok = m["checkpoint_sha256"].(string); !ok || len(tr.CheckpointSHA256) != 64 || strings.Trim(tr.CheckpointSHA256, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("ticket refs checkpoint_sha256 is not 64 lower-case hex digits")
	}
	tasks, ok := m["tasks"].([]any)
	if !ok {
		return nil, fmt.Errorf("ticket refs tasks is not a list")
	}
	known := map[string]bool{}
	for i, t := range tasks {
		s, ok := t.(string)
		if !ok || known[s] || (i > 0 && s < tr.Tasks[i-1]) {
			return nil, fmt.Errorf("ticket refs tasks[%d] is not a string after tasks[%d], sorted and distinct", i, i-1)
		}
		known[s] = true
		tr.Tasks = append(tr.Tasks, s)
	}
	refs, ok := m["refs"].([]any)
	if !ok {
		return nil, fmt.Errorf("ticket refs refs is not a list")
	}
	for i, r := range refs {
		rm, ok := r.(map[string]any)
		if !ok || len(rm) != 3 {
			return nil, fmt.Errorf("ticket refs refs[%d] is not {\"hmac\",\"position\",\"task_id\"}", i)
		}
		var pr PositionedRef
		pr.HMAC, _ = rm["hmac"].(string)
		pr.TaskID, _ = rm["task_id"].(string)
		var okPos bool
		pr.Position, okPos = pyjson.Int(rm["position"])
		switch {
		case !okPos || pr.Position < 0 || (i > 0 && pr.Position <= tr.Refs[i-1].Position):
			return nil, fmt.Errorf("ticket refs refs[%d] position is not a whole number after the one before", i)
		case !known[pr.TaskID]:
			return nil, fmt.Errorf("ticket refs refs[%d] is of task %.80q, which tasks does not list", i, pr.TaskID)
		}
		tr.Refs = append(tr.Refs, pr)
	}
	again, err := tr.Marshal()
	if err != nil || !bytes.Equal(again, data) {
		return nil, fmt.Errorf("ticket refs are not in their canonical form (sorted keys, no whitespace, one trailing newline)")
	}
	return tr, nil
}

// CheckRefs holds a bundle's parent refs slice (in file order) against its ticket refs and checkpoint (whose
// file has sha256 cpSHA256): every ref the ticket's tasks had at the checkpoint must be in the slice, in order,
// with its hmac; and every ref of the slice must be of one of the ticket's tasks. A ref of the ticket cut,
// replaced or moved between the checkpoint and the packing is a Problem naming its position and task.
func CheckRefs(cp *Checkpoint, cpSHA256 string, tr *TicketRefs, slice []Ref) []Problem {
	const file = "parent.jsonl"
	if tr.CheckpointSHA256 != cpSHA256 {
		return []Problem{{File: file, Message: fmt.Sprintf("the ticket refs belong to checkpoint %s, not to the bundle's (%s)", short(tr.CheckpointSHA256), short(cpSHA256))}}
	}
	var out []Problem
	tasks := map[string]bool{}
	for _, t := range tr.Tasks {
		tasks[t] = true
	}
	j := 0
	for _, r := range tr.Refs {
		switch {
		case r.Position >= cp.Parent.Count:
			out = append(out, Problem{File: file, Record: r.Position, Message: fmt.Sprintf("the ticket refs name parent ref %d, past the %d the checkpoint counted", r.Position, cp.Parent.Count)})
			continue
		case r.Position == cp.Parent.Count-1 && r.HMAC != cp.Parent.LastHMAC:
			out = append(out, Problem{File: file, Record: r.Position, Message: fmt.Sprintf("the ticket refs give parent ref %d hmac %s, the checkpoint %s", r.Position, short(r.HMAC), short(cp.Parent.LastHMAC))})
			continue
		}
		k := j
		for k < len(slice) && slice[k].HMAC != r.HMAC {
			k++
		}
		if k == len(slice) || r.HMAC == "" {
			out = append(out, Problem{File: file, Record: r.Position, Message: fmt.Sprintf(
				"%s lacks parent ref %d of task %q (hmac %s) that the checkpoint of %s counted: it was cut or replaced between the checkpoint and the packing",
				file, r.Position, r.TaskID, short(r.HMAC), cp.CreatedAt.Format(time.RFC3339))})
			continue
		}
		j = k + 1
	}
	for i, r := range slice {
		if !tasks[r.TaskID] {
			out = append(out, Problem{File: file, Record: int64(i), Message: fmt.Sprintf("%s record %d is of task %.80q, which the ticket refs do not list", file, i, r.TaskID)})
		}
	}
	return out
}

// Digest is the sha256 of a checkpoint file's bytes in lower-case hex: the digest notes carry
// (lineage_v2_checkpoint_sha256), ticket refs name and verify reports.
func Digest(file []byte) string {
	sum := sha256.Sum256(file)
	return hex.EncodeToString(sum[:])
}
