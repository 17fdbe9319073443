package lineage

import (
	"github.com/git-bernstein/git-bernstein/internal/pyjson"

	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Version is the only record version v2 stores hold.
const Version = 2

// ParentRef is one line of parent.jsonl: a light pointer from a task's timeline to a child run's bodies.
type ParentRef struct {
	V            int64
	TaskID       string
	ChildRunID   string
	ParentCallID string
	Summary      string
	ChildSHA     string // "sha256:<hex>" of the first child body with hmac and prev_hmac emptied
	TsNs         int64
	PrevHMAC     string // hmac of the previous parent line, "" for the first
	HMAC         string
}

// ChildBody is one line of children/<hex>.jsonl: a full event payload of a child run.
type ChildBody struct {
	V          int64
	TaskID     string
	ChildRunID string
	Seq        int64
	Kind       string
	Payload    map[string]any // JSON values as pyjson.Parse returns them
	TsNs       int64
	PrevHMAC   string // hmac of the previous body in the same file, "" for the first
	HMAC       string
}

// Map is the record as upstream's dataclasses.asdict gives it, the input of every canonical form.
func (p ParentRef) Map() map[string]any {
	return map[string]any{
		"v": p.V, "task_id": p.TaskID, "child_run_id": p.ChildRunID, "parent_call_id": p.ParentCallID,
		"summary": p.Summary, "child_sha": p.ChildSHA, "ts_ns": p.TsNs, "prev_hmac": p.PrevHMAC, "hmac": p.HMAC,
	}
}

// Map is the record as upstream's dataclasses.asdict gives it, the input of every canonical form.
func (b ChildBody) Map() map[string]any {
	payload := b.Payload
	if payload == nil {
		payload = map[string]any{}
	}
	return map[string]any{
		"v": b.V, "task_id": b.TaskID, "child_run_id": b.ChildRunID, "seq": b.Seq, "kind": b.Kind,
		"payload": payload, "ts_ns": b.TsNs, "prev_hmac": b.PrevHMAC, "hmac": b.HMAC,
	}
}

// Canonical is the line upstream writes for p (without the newline).
func (p ParentRef) Canonical() ([]byte, error) { return pyjson.Canonical(p.Map()) }

// Canonical is the line upstream writes for b (without the newline).
func (b ChildBody) Canonical() ([]byte, error) { return pyjson.Canonical(b.Map()) }

// ComputeHMAC is hex HMAC-SHA256(key, canonical(p with hmac="")).
func (p ParentRef) ComputeHMAC(key []byte) (string, error) {
	p.HMAC = ""
	return macOf(key, p.Map())
}

// ComputeHMAC is hex HMAC-SHA256(key, canonical(b with hmac="")).
func (b ChildBody) ComputeHMAC(key []byte) (string, error) {
	b.HMAC = ""
	return macOf(key, b.Map())
}

// ChildSHA is the content address of a child file whose first body is b: sha256 of canonical(b with hmac and
// prev_hmac emptied), so it is known before the body is chained.
func (b ChildBody) ChildSHA() (string, error) {
	b.HMAC, b.PrevHMAC = "", ""
	c, err := pyjson.Canonical(b.Map())
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func macOf(key []byte, m map[string]any) (string, error) {
	c, err := pyjson.Canonical(m)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(c)
	return hex.EncodeToString(mac.Sum(nil)), nil
}

// macEqual compares hex HMACs in constant time, so verify leaks nothing about the expected value.
func macEqual(a, b string) bool { return hmac.Equal([]byte(a), []byte(b)) }

// validate applies upstream's __post_init__ checks, so we refuse to write what Python would refuse to read.
func (p ParentRef) validate() error {
	switch {
	case p.V != Version:
		return fmt.Errorf("unsupported parent_ref version: %d", p.V)
	case p.TaskID == "":
		return fmt.Errorf("task_id must be non-empty")
	case p.ChildRunID == "":
		return fmt.Errorf("child_run_id must be non-empty")
	case !strings.HasPrefix(p.ChildSHA, "sha256:"):
		return fmt.Errorf("child_sha must start with 'sha256:', got %q", p.ChildSHA)
	}
	return nil
}

func (b ChildBody) validate() error {
	switch {
	case b.V != Version:
		return fmt.Errorf("unsupported child_body version: %d", b.V)
	case b.TaskID == "":
		return fmt.Errorf("task_id must be non-empty")
	case b.ChildRunID == "":
		return fmt.Errorf("child_run_id must be non-empty")
	case b.Seq < 0:
		return fmt.Errorf("seq must be >=0, got %d", b.Seq)
	case b.Kind == "":
		return fmt.Errorf("kind must be non-empty")
	}
	return nil
}

// decodeError names the Python exception upstream's verify would report for the same line, so the failure text
// matches ("undecodable record (KeyError)").
type decodeError struct {
	pyName string
	detail string
}

func (e *decodeError) Error() string { return e.pyName + ": " + e.detail }

func decodeObject(line []byte) (map[string]any, error) {
	v, err := pyjson.Parse(line)
	if err != nil {
		return nil, &decodeError{"JSONDecodeError", err.Error()}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &decodeError{"TypeError", "record is not a JSON object"}
	}
	return m, nil
}

func getString(m map[string]any, key string) (string, error) {
	v, ok := m[key]
	if !ok {
		return "", &decodeError{"KeyError", "missing " + key}
	}
	s, ok := v.(string)
	if !ok {
		return "", &decodeError{"TypeError", key + " is not a string"}
	}
	return s, nil
}

func getInt(m map[string]any, key string) (int64, error) {
	v, ok := m[key]
	if !ok {
		return 0, &decodeError{"KeyError", "missing " + key}
	}
	n, ok := pyjson.Int(v)
	if !ok {
		return 0, &decodeError{"ValueError", key + " is not an integer that fits 64 bits"}
	}
	return n, nil
}

// DecodeParentRef reads one parent.jsonl line. It is stricter than upstream's int()/str() coercions (a wrong
// type is undecodable here, non-canonical there); both make verify fail.
func DecodeParentRef(line []byte) (ParentRef, error) {
	m, err := decodeObject(line)
	if err != nil {
		return ParentRef{}, err
	}
	var p ParentRef
	var errs [9]error
	p.V, errs[0] = getInt(m, "v")
	p.TaskID, errs[1] = getString(m, "task_id")
	p.ChildRunID, errs[2] = getString(m, "child_run_id")
	p.ParentCallID, errs[3] = getString(m, "parent_call_id")
	p.Summary, errs[4] = getString(m, "summary")
	p.ChildSHA, errs[5] = getString(m, "child_sha")
	p.TsNs, errs[6] = getInt(m, "ts_ns")
	p.PrevHMAC, errs[7] = getString(m, "prev_hmac")
	p.HMAC, errs[8] = getString(m, "hmac")
	for _, e := range errs {
		if e != nil {
			return ParentRef{}, e
		}
	}
	if err := p.validate(); err != nil {
		return ParentRef{}, &decodeError{"ValueError", err.Error()}
	}
	return p, nil
}

// DecodeChildBody reads one child file line. Like upstream, a missing or non-object payload reads as {} (the
// byte-exact check then flags the line).
func DecodeChildBody(line []byte) (ChildBody, error) {
	m, err := decodeObject(line)
	if err != nil {
		return ChildBody{}, err
	}
	var b ChildBody
	var errs [8]error
	b.V, errs[0] = getInt(m, "v")
	b.TaskID, errs[1] = getString(m, "task_id")
	b.ChildRunID, errs[2] = getString(m, "child_run_id")
	b.Seq, errs[3] = getInt(m, "seq")
	b.Kind, errs[4] = getString(m, "kind")
	b.TsNs, errs[5] = getInt(m, "ts_ns")
	b.PrevHMAC, errs[6] = getString(m, "prev_hmac")
	b.HMAC, errs[7] = getString(m, "hmac")
	for _, e := range errs {
		if e != nil {
			return ChildBody{}, e
		}
	}
	b.Payload, _ = m["payload"].(map[string]any)
	if b.Payload == nil {
		b.Payload = map[string]any{}
	}
	if err := b.validate(); err != nil {
		return ChildBody{}, &decodeError{"ValueError", err.Error()}
	}
	return b, nil
}
