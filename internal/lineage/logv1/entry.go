package logv1

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/pyjson"
)

// Version is the v member of every v1 entry.
const Version = 1

// ArtefactKinds is upstream's closed set of artefact_kind values.
var ArtefactKinds = map[string]bool{
	"file": true, "sdd-runtime": true, "mcp-result": true, "config": true, "tool-result": true, "report": true,
	"dataset": true, "action_log": true, "ops_result": true, "query-result": true, "external": true,
	"finding": true, "coverage": true, "blob": true,
}

// required are the members every entry has; optional may be present (upstream drops them when None).
var (
	required = []string{"agent_card_kid", "agent_id", "artefact_kind", "artefact_path", "content_hash",
		"operator_hmac", "parent_hashes", "span_id", "tool_call_id", "ts_ns", "v"}
	optional = map[string]bool{"trust_class": true, "activity_source": true, "attachment_digests": true, "model_ref": true}
)

// Entry is one line of the log.
type Entry struct {
	ArtefactPath string
	ArtefactKind string
	ContentHash  string // "sha256:<64 hex>" of the bytes written
	ParentHashes []string
	AgentID      string
	AgentCardKid string
	ToolCallID   string
	SpanID       string
	TsNs         int64
	OperatorHMAC string

	Line      int    // 1-based line number in the log
	Raw       []byte // the line as stored, without its "\n"
	Canonical []byte // its canonical form: what is signed, hashed and HMACed
	Hash      string // "sha256:" + hex SHA-256(Canonical): how parents and sidecars name it
	// Spaced: the line is the older ", "/": " spelling of the canonical form (accepted with a warning).
	Spaced bool
	obj    map[string]any
}

// Hex is the entry hash without its "sha256:" prefix.
func (e *Entry) Hex() string { return strings.TrimPrefix(e.Hash, "sha256:") }

// Time is the entry's ts_ns as FormatTime writes it, as lineage log shows it.
func (e *Entry) Time() string { return FormatTime(e.TsNs) }

// Problem is something wrong with one line (Line 0: the file as a whole).
type Problem struct {
	Line     int
	Artefact string
	Entry    string // the entry hash, when the line gave an entry
	Message  string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d", p.Line)
	} else {
		b.WriteString("log")
	}
	if p.Artefact != "" {
		fmt.Fprintf(&b, " %s", p.Artefact)
	}
	if p.Entry != "" {
		fmt.Fprintf(&b, " (entry %s)", p.Entry)
	}
	return b.String() + ": " + p.Message
}

// Log is a parsed log: the entries that parsed, in log order, and what was wrong with the rest.
type Log struct {
	Entries  []*Entry
	Problems []Problem // lines that are not entries, non-canonical lines, a missing final "\n"
	Spaced   int       // entries in the older spaced spelling
	byHash   map[string]*Entry
}

// ByHash returns the entry with hash h ("sha256:<hex>"), or nil.
func (l *Log) ByHash(h string) *Entry { return l.byHash[h] }

// Parse reads a log. Lines are split on "\n" only: a "\r" stays inside its line, where it makes the line fail,
// so turning a record terminator into "\r" (which a text-mode reader would still split on) cannot merge or hide
// records. An empty line is skipped, as upstream does. An entry whose line is neither its canonical form nor the
// older spaced spelling of it is a problem, not an entry.
func Parse(data []byte) *Log {
	l := &Log{byHash: map[string]*Entry{}}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		l.Problems = append(l.Problems, Problem{Message: "no \"\\n\" after the last line: a record was cut short, or its terminator removed"})
	}
	lines := bytes.Split(data, []byte{'\n'})
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, raw := range lines {
		if len(raw) == 0 {
			continue
		}
		e, p := parseLine(raw, i+1)
		if p != nil {
			l.Problems = append(l.Problems, *p)
			continue
		}
		if e.Spaced {
			l.Spaced++
		}
		l.Entries = append(l.Entries, e)
		if _, dup := l.byHash[e.Hash]; !dup {
			l.byHash[e.Hash] = e
		}
	}
	return l
}

func parseLine(raw []byte, line int) (*Entry, *Problem) {
	fail := func(format string, a ...any) (*Entry, *Problem) {
		return nil, &Problem{Line: line, Message: fmt.Sprintf(format, a...)}
	}
	v, err := pyjson.Parse(raw)
	if err != nil {
		if bytes.IndexByte(raw, '\r') >= 0 {
			return fail("not one JSON object (%v); the line holds a \"\\r\": records are split on \"\\n\" only, and a terminator changed to \"\\r\" (a framing attack) joins two records into one line", err)
		}
		return fail("not JSON: %v", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fail("not a JSON object")
	}
	e, err := fromObject(obj)
	if err != nil {
		p := Problem{Line: line, Message: "not a lineage v1 entry: " + err.Error()}
		if s, ok := obj["artefact_path"].(string); ok {
			p.Artefact = s
		}
		return nil, &p
	}
	e.Line, e.Raw = line, raw
	canon, err := pyjson.Canonical(obj)
	if err != nil {
		return fail("no canonical form: %v", err)
	}
	e.Canonical = canon
	sum := sha256.Sum256(canon)
	e.Hash = "sha256:" + hex.EncodeToString(sum[:])
	if !bytes.Equal(raw, canon) {
		if !isSpaced(obj, raw) {
			return nil, &Problem{Line: line, Artefact: e.ArtefactPath, Entry: e.Hash,
				Message: "non-canonical line bytes: the line is not exactly its canonical form (sorted keys, \",\" and \":\" separators, UTF-8), so its bytes were changed after it was written"}
		}
		e.Spaced = true
	}
	return e, nil
}

// isSpaced says whether raw is json.dumps(obj, sort_keys=True) with Python's default separators, with or
// without ensure_ascii: how older packs wrote their lines.
func isSpaced(obj map[string]any, raw []byte) bool {
	for _, enc := range []pyjson.Encoding{{Spaced: true, ASCII: true}, {Spaced: true}} {
		if b, err := enc.Marshal(obj); err == nil && bytes.Equal(b, raw) {
			return true
		}
	}
	return false
}

// fromObject checks the schema: every required member with its type, nothing unknown, and upstream's value
// rules (v 1, a known artefact_kind, sha256: hashes).
func fromObject(obj map[string]any) (*Entry, error) {
	var missing, unknown []string
	for _, k := range required {
		if _, ok := obj[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range obj {
		if !optional[k] && !slices.Contains(required, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown member %s", strings.Join(unknown, ", "))
	}
	e := &Entry{obj: obj}
	strs := []struct {
		name string
		dst  *string
	}{{"artefact_path", &e.ArtefactPath}, {"artefact_kind", &e.ArtefactKind}, {"content_hash", &e.ContentHash},
		{"agent_id", &e.AgentID}, {"agent_card_kid", &e.AgentCardKid}, {"tool_call_id", &e.ToolCallID},
		{"span_id", &e.SpanID}, {"operator_hmac", &e.OperatorHMAC}}
	for _, s := range strs {
		v, ok := obj[s.name].(string)
		if !ok {
			return nil, fmt.Errorf("%s is not a string", s.name)
		}
		*s.dst = v
	}
	if v, ok := pyjson.Int(obj["v"]); !ok || v != Version {
		return nil, fmt.Errorf("v is %v, want %d", jsonText(obj["v"]), Version)
	}
	ts, ok := pyjson.Int(obj["ts_ns"])
	if !ok {
		return nil, fmt.Errorf("ts_ns is not an integer")
	}
	e.TsNs = ts
	ps, ok := obj["parent_hashes"].([]any)
	if !ok {
		return nil, fmt.Errorf("parent_hashes is not a list")
	}
	for _, p := range ps {
		s, ok := p.(string)
		if !ok || !IsHash(s) {
			return nil, fmt.Errorf("parent hash %s is not \"sha256:\" and 64 lower-case hex digits", jsonText(p))
		}
		e.ParentHashes = append(e.ParentHashes, s)
	}
	if !ArtefactKinds[e.ArtefactKind] {
		return nil, fmt.Errorf("unknown artefact_kind %q", e.ArtefactKind)
	}
	if !IsHash(e.ContentHash) {
		return nil, fmt.Errorf("content_hash %q is not \"sha256:\" and 64 lower-case hex digits", e.ContentHash)
	}
	if e.ArtefactPath == "" || e.AgentID == "" || e.AgentCardKid == "" {
		return nil, fmt.Errorf("artefact_path, agent_id and agent_card_kid must not be empty")
	}
	return e, nil
}

// IsHash says whether s is "sha256:" and 64 lower-case hex digits.
func IsHash(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// HMACInput is the operator HMAC's input: the canonical form with operator_hmac set to "".
func (e *Entry) HMACInput() []byte {
	m := make(map[string]any, len(e.obj))
	for k, v := range e.obj {
		m[k] = v
	}
	m["operator_hmac"] = ""
	b, _ := pyjson.Canonical(m) // the same values canonicalised once already
	return b
}
