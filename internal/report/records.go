package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// Records in transcripts, traces, lineage and audit are JSON Lines whose shape varies by tool and version, so
// each reader takes what it recognises and shows anything else as the raw line: nothing is hidden because its
// shape was unexpected.

// record is one JSONL line: Obj when it is a JSON object, Raw always.
type record struct {
	Obj map[string]any
	Raw string
}

func records(mb *Member) []record {
	var out []record
	for _, l := range strings.Split(mb.Text(), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		r := record{Raw: l}
		d := json.NewDecoder(strings.NewReader(l))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil && !d.More() {
			r.Obj, _ = v.(map[string]any)
		}
		out = append(out, r)
	}
	return out
}

// firstString returns the first of keys whose value is a non-empty string, and the key.
func firstString(o map[string]any, keys ...string) (string, string) {
	for _, k := range keys {
		if s, ok := o[k].(string); ok && s != "" {
			return s, k
		}
	}
	return "", ""
}

// compact renders any JSON value on one line.
func compact(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func truncNote(mb *Member) string {
	if !mb.Truncated {
		return ""
	}
	return fmt.Sprintf("%s is %s: only its first %s are shown", mb.Name, sizeText(mb.Size), sizeText(int64(len(mb.Head))))
}

// transcriptView is one agent session as a conversation.
type transcriptView struct {
	Name, Agent, Session, Size, Note string
	Messages                         []message
}

// message is one turn: Role and Text when the record looks like a chat message, else Raw.
type message struct {
	Role, Text, Raw, Class string
}

var roleKeys = []string{"role", "speaker", "author", "from", "sender", "type"}

// messageText finds a chat message's text: a string content, or the text parts of a list of content blocks
// (the shape of the Anthropic and OpenAI APIs).
func messageText(o map[string]any) (string, bool) {
	for _, k := range []string{"content", "text", "message", "body"} {
		switch v := o[k].(type) {
		case string:
			return v, true
		case []any:
			var parts []string
			for _, p := range v {
				if m, ok := p.(map[string]any); ok {
					if s, ok := m["text"].(string); ok {
						parts = append(parts, s)
						continue
					}
				}
				parts = append(parts, compact(p))
			}
			return strings.Join(parts, "\n"), true
		case map[string]any:
			if t, ok := messageText(v); ok { // {"message": {"role":…, "content":…}}
				return t, true
			}
		}
	}
	return "", false
}

func transcript(mb *Member) transcriptView {
	base := strings.TrimSuffix(path.Base(mb.Name), path.Ext(mb.Name))
	t := transcriptView{Name: mb.Name, Agent: base, Size: sizeText(mb.Size), Note: truncNote(mb)}
	// <agent>-<session>.jsonl (see package manifest, "Bundle layout"); the agent name may itself hold dashes, the
	// session is the last part.
	if i := strings.LastIndex(base, "-"); i > 0 {
		t.Agent, t.Session = base[:i], base[i+1:]
	}
	for _, r := range records(mb) {
		if r.Obj != nil {
			role, _ := firstString(r.Obj, roleKeys...)
			if inner, ok := r.Obj["message"].(map[string]any); ok && role == "" {
				role, _ = firstString(inner, roleKeys...)
			}
			if text, ok := messageText(r.Obj); ok && role != "" {
				t.Messages = append(t.Messages, message{Role: role, Text: text, Class: roleClass(role)})
				continue
			}
		}
		t.Messages = append(t.Messages, message{Raw: r.Raw, Class: "raw"})
	}
	return t
}

func roleClass(role string) string {
	switch strings.ToLower(role) {
	case "user", "human":
		return "user"
	case "assistant", "agent", "model", "ai":
		return "assistant"
	case "tool", "function", "tool_result", "tool_use":
		return "tool"
	}
	return "other"
}

// traceView is one trace file as a timeline.
type traceView struct {
	Name, Size, Note string
	Events           []event
}

type event struct {
	When, What string
	Fields     []field
	Raw        string
}

type field struct{ Key, Value string }

var timeKeys = []string{"ts", "timestamp", "time", "start", "started_at", "created_at", "at"}
var nameKeys = []string{"span", "name", "event", "type", "action", "step", "kind"}

func timeline(mb *Member) traceView {
	v := traceView{Name: mb.Name, Size: sizeText(mb.Size), Note: truncNote(mb)}
	for _, r := range records(mb) {
		if r.Obj == nil {
			v.Events = append(v.Events, event{Raw: r.Raw})
			continue
		}
		when, tk := firstString(r.Obj, timeKeys...)
		what, nk := firstString(r.Obj, nameKeys...)
		e := event{When: when, What: what}
		for _, k := range slices.Sorted(maps.Keys(r.Obj)) {
			if k != tk && k != nk {
				e.Fields = append(e.Fields, field{k, compact(r.Obj[k])})
			}
		}
		v.Events = append(v.Events, e)
	}
	return v
}

// tableView is a JSONL file as a table: one column per top-level key, in order of first appearance.
type tableView struct {
	Name, Section, Size, Note string
	Columns                   []string
	Rows                      [][]string
	More                      string // columns left out
}

// maxColumns keeps a table readable; further keys are folded into one last column.
const maxColumns = 12

// table returns false when no line is a JSON object: such a file is shown as text.
func table(mb *Member) (tableView, bool) {
	section, _, _ := strings.Cut(mb.Name, "/")
	v := tableView{Name: mb.Name, Section: section, Size: sizeText(mb.Size), Note: truncNote(mb)}
	recs := records(mb)
	objects := 0
	for _, r := range recs {
		if r.Obj != nil {
			objects++
		}
	}
	if objects == 0 {
		return v, false
	}
	seen := map[string]bool{}
	var cols []string
	for _, r := range recs {
		for _, k := range orderedKeys(r.Raw, r.Obj) {
			if !seen[k] {
				seen[k] = true
				cols = append(cols, k)
			}
		}
	}
	shown := cols
	if len(cols) > maxColumns {
		shown = cols[:maxColumns-1]
		v.More = "other fields"
	}
	v.Columns = shown
	for _, r := range recs {
		row := make([]string, 0, len(shown)+1)
		if r.Obj == nil {
			row = append(row, r.Raw)
			v.Rows = append(v.Rows, row)
			continue
		}
		for _, c := range shown {
			if val, ok := r.Obj[c]; ok {
				row = append(row, compact(val))
			} else {
				row = append(row, "")
			}
		}
		if v.More != "" {
			rest := map[string]any{}
			for _, c := range cols[len(shown):] {
				if val, ok := r.Obj[c]; ok {
					rest[c] = val
				}
			}
			row = append(row, compact(rest))
		}
		v.Rows = append(v.Rows, row)
	}
	return v, true
}

// orderedKeys lists an object's keys in the order the line wrote them, which is how its writer meant to be read.
func orderedKeys(raw string, obj map[string]any) []string {
	if obj == nil {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(raw))
	var keys []string
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return slices.Sorted(maps.Keys(obj))
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return slices.Sorted(maps.Keys(obj))
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return slices.Sorted(maps.Keys(obj))
		}
	}
	return keys
}
