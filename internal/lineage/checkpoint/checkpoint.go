// Package checkpoint is the lineage v2 checkpoint document: the head of a store at one moment (how many parent
// refs and the HMAC of the last, and for every child file how many bodies and the HMAC of the last), and the
// checks that a store, or a bundle's slice of one, still extends it; and a bundle's ticket refs (refs.go): the
// positions and hmacs of its ticket's tasks' parent refs at the checkpoint, so a bundle shows a ref of the
// ticket cut before packing. The format and the checks are specified in
// package lineage's doc.go ("Checkpoints"). This package reads no files, so the bundle verifier (also compiled to
// WebAssembly for the browser page) can use it; package lineage takes checkpoints of a store on disk.
// checkpoint.schema.json beside this file is the document in JSON Schema (draft 2020-12).
package checkpoint

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/pyjson"
)

// Format is the document's "format" member: what the file is, for a reader that finds one on its own.
const Format = "git-bernstein/lineage-v2-checkpoint"

// Version is the only "v" this program writes and reads.
const Version = 1

// MaxSize bounds a checkpoint read whole: about 200 bytes a child file, so a million child files.
const MaxSize = 256 << 20

// Checkpoint is the store's head at CreatedAt.
type Checkpoint struct {
	CreatedAt time.Time // whole seconds, UTC
	KeyClass  string    // the class of the key the store verified under: "public-default" or "secret-file"
	Parent    Tip
	Children  map[string]Tip // by the child file's 64 hex digits (its name without .jsonl)
	// Refs are the parent refs the checkpoint counts, by position: what a bundle's TicketRefs are made of. Of
	// sets them from the head; they are not in the file, so Parse leaves them nil.
	Refs []Ref
}

// Ref is one parent ref as the store held it: its task and its hmac ("" when unreadable).
type Ref struct {
	TaskID string
	HMAC   string
}

// Tip is one chain's length and the hmac of its last record ("" when it has none).
type Tip struct {
	Count    int64
	LastHMAC string
}

// Head is a store (or a bundle's slice of one) as read: the hmac of every record of every chain, in file order.
// A record whose hmac cannot be read is "" there, which matches no checkpointed HMAC.
type Head struct {
	Parent   []string
	Children map[string][]string
	// ParentTasks, when set, is the task_id of each record of Parent ("" when unreadable).
	ParentTasks []string
}

// Of is the checkpoint of head.
func Of(head Head, createdAt time.Time, keyClass string) *Checkpoint {
	cp := &Checkpoint{CreatedAt: createdAt.UTC().Truncate(time.Second), KeyClass: keyClass, Parent: tipOf(head.Parent), Children: map[string]Tip{}}
	for hex, hmacs := range head.Children {
		cp.Children[hex] = tipOf(hmacs)
	}
	cp.Refs = make([]Ref, len(head.Parent))
	for i, h := range head.Parent {
		cp.Refs[i].HMAC = h
		if i < len(head.ParentTasks) {
			cp.Refs[i].TaskID = head.ParentTasks[i]
		}
	}
	return cp
}

func tipOf(hmacs []string) Tip {
	t := Tip{Count: int64(len(hmacs))}
	if len(hmacs) > 0 {
		t.LastHMAC = hmacs[len(hmacs)-1]
	}
	return t
}

func (t Tip) value() map[string]any {
	return map[string]any{"count": t.Count, "last_hmac": t.LastHMAC}
}

// Marshal is the checkpoint file: its canonical form (Python's json.dumps with sorted keys and no whitespace,
// package pyjson) and a newline. Its sha256 is the digest git notes carry.
func (cp *Checkpoint) Marshal() ([]byte, error) {
	children := map[string]any{}
	for hex, t := range cp.Children {
		children[hex] = t.value()
	}
	out, err := pyjson.Canonical(map[string]any{
		"format":     Format,
		"v":          int64(Version),
		"created_at": cp.CreatedAt.UTC().Format(time.RFC3339),
		"key_class":  cp.KeyClass,
		"parent":     cp.Parent.value(),
		"children":   children,
	})
	if err != nil {
		return nil, fmt.Errorf("encode lineage v2 checkpoint: %w", err)
	}
	return append(out, '\n'), nil
}

// Parse reads a checkpoint file. Only the exact bytes Marshal writes are accepted (one canonical form, one
// trailing newline), so a checkpoint has exactly one digest; anything else is an error saying what is wrong.
func Parse(data []byte) (*Checkpoint, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("checkpoint is %d bytes, more than %d", len(data), MaxSize)
	}
	body, ok := bytes.CutSuffix(data, []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("checkpoint does not end in a newline")
	}
	v, err := pyjson.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("checkpoint is not JSON: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("checkpoint is not a JSON object")
	}
	if err := exactKeys(m, "children", "created_at", "format", "key_class", "parent", "v"); err != nil {
		return nil, err
	}
	if m["format"] != Format {
		return nil, fmt.Errorf("checkpoint format is %v, not %q", m["format"], Format)
	}
	if n, ok := pyjson.Int(m["v"]); !ok || n != Version {
		return nil, fmt.Errorf("checkpoint v is %v; this program reads v %d", m["v"], Version)
	}
	cp := &Checkpoint{Children: map[string]Tip{}}
	s, _ := m["created_at"].(string)
	if cp.CreatedAt, err = time.Parse(time.RFC3339, s); err != nil || !strings.HasSuffix(s, "Z") {
		return nil, fmt.Errorf("checkpoint created_at %q is not an RFC 3339 UTC time", s)
	}
	if cp.KeyClass, _ = m["key_class"].(string); cp.KeyClass != "public-default" && cp.KeyClass != "secret-file" {
		return nil, fmt.Errorf("checkpoint key_class %v is neither public-default nor secret-file", m["key_class"])
	}
	if cp.Parent, err = parseTip(m["parent"], "parent"); err != nil {
		return nil, err
	}
	children, ok := m["children"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("checkpoint children is not an object")
	}
	for hex, v := range children {
		if len(hex) != 64 || strings.Trim(hex, "0123456789abcdef") != "" {
			return nil, fmt.Errorf("checkpoint child %.80q is not 64 lower-case hex digits", hex)
		}
		if cp.Children[hex], err = parseTip(v, "child "+hex); err != nil {
			return nil, err
		}
		if cp.Children[hex].Count == 0 {
			return nil, fmt.Errorf("checkpoint child %s has count 0", hex)
		}
	}
	again, err := cp.Marshal()
	if err != nil || !bytes.Equal(again, data) {
		return nil, fmt.Errorf("checkpoint is not in its canonical form (sorted keys, no whitespace, one trailing newline)")
	}
	return cp, nil
}

func exactKeys(m map[string]any, allowed ...string) error {
	for k := range m {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("checkpoint has an unknown member %.80q", k)
		}
	}
	for _, k := range allowed {
		if _, ok := m[k]; !ok {
			return fmt.Errorf("checkpoint has no %q", k)
		}
	}
	return nil
}

func parseTip(v any, what string) (Tip, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 2 {
		return Tip{}, fmt.Errorf("checkpoint %s is not {\"count\",\"last_hmac\"}", what)
	}
	n, ok := pyjson.Int(m["count"])
	if !ok || n < 0 {
		return Tip{}, fmt.Errorf("checkpoint %s count is not a whole number >= 0", what)
	}
	h, ok := m["last_hmac"].(string)
	if !ok || (n > 0) != (h != "") {
		return Tip{}, fmt.Errorf("checkpoint %s last_hmac must be a string, empty exactly when count is 0", what)
	}
	return Tip{Count: n, LastHMAC: h}, nil
}

// Problem is one place where a store no longer extends a checkpoint.
type Problem struct {
	File    string // "parent.jsonl" or "children/<hex>.jsonl"
	Record  int64  // the checkpointed position at fault (0-based, among the file's non-empty lines)
	Message string
}

// Check says where head no longer extends cp: a chain with fewer records than the checkpoint counted, or a
// different hmac at the checkpointed last position. Records appended since pass. Problems come in file order:
// parent.jsonl, then child files by name.
func Check(cp *Checkpoint, head Head) []Problem {
	var out []Problem
	if p, ok := checkTip("parent.jsonl", "parent ref", "parent refs", cp.Parent, head.Parent); !ok {
		out = append(out, p)
	}
	return append(out, CheckChildren(cp, head, nil)...)
}

// CheckChildren is Check for child files only, and only those want says yes to (nil: all): a bundle holds the
// child files of its ticket's tasks, not the store's.
func CheckChildren(cp *Checkpoint, head Head, want func(hex string) bool) []Problem {
	var out []Problem
	for _, hex := range slices.Sorted(maps.Keys(cp.Children)) {
		if want != nil && !want(hex) {
			continue
		}
		file := "children/" + hex + ".jsonl"
		hmacs, ok := head.Children[hex]
		if !ok {
			t := cp.Children[hex]
			out = append(out, Problem{File: file, Record: 0, Message: fmt.Sprintf("%s is missing; the checkpoint of %s counted %s ending in hmac %s",
				file, cp.CreatedAt.Format(time.RFC3339), plural.Count(t.Count, "body"), short(t.LastHMAC))})
			continue
		}
		if p, ok := checkTip(file, "body", "bodies", cp.Children[hex], hmacs); !ok {
			out = append(out, p)
		}
	}
	return out
}

func checkTip(file, what, whats string, t Tip, hmacs []string) (Problem, bool) {
	have := int64(len(hmacs))
	switch {
	case t.Count == 0:
		return Problem{}, true
	case have < t.Count:
		return Problem{File: file, Record: have, Message: fmt.Sprintf("%s holds %d of the %d %s the checkpoint counted: %s %d..%d (0-based) were cut",
			file, have, t.Count, whats, whats, have, t.Count-1)}, false
	case hmacs[t.Count-1] != t.LastHMAC:
		return Problem{File: file, Record: t.Count - 1, Message: fmt.Sprintf("%s %s %d has hmac %s, the checkpoint has %s: records up to it were changed, cut or replaced",
			file, what, t.Count-1, short(hmacs[t.Count-1]), short(t.LastHMAC))}, false
	}
	return Problem{}, true
}

func short(h string) string {
	if h == "" {
		return `""`
	}
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}

// Summary says what a checkpoint pins, in one phrase: "5 parent refs, 3 child files (12 bodies)".
func (cp *Checkpoint) Summary() string {
	var bodies int64
	for _, t := range cp.Children {
		bodies += t.Count
	}
	return strconv.FormatInt(cp.Parent.Count, 10) + " parent refs, " + strconv.Itoa(len(cp.Children)) + " child files (" +
		strconv.FormatInt(bodies, 10) + " bodies)"
}
