package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// CheckLineageV2 is the check of a bundle's lineage v2 slice against the checkpoint the bundle carries; it runs
// only when the bundle has lineage/v2/checkpoint.json (package checkpoint's doc.go).
const CheckLineageV2 = "lineage-v2"

const (
	lineageV2        = "lineage/v2/"
	lineageV2CP      = lineageV2 + "checkpoint.json"
	lineageV2CPRefs  = lineageV2 + "checkpoint-refs.json"
	lineageV2Parent  = lineageV2 + "parent.jsonl"
	lineageV2Prefix  = lineageV2 + "children/"
	maxLineageRecord = 64 << 20 // a longer record is read as one whose hmac is unknown
)

// lineageV2Collector is a Sink that keeps, from the one read of the archive, what the lineage check needs: the
// checkpoint's bytes, and of each lineage v2 file the hmac and prev_hmac of every record (and each parent
// ref's child_sha), never the records themselves.
type lineageV2Collector struct {
	checkpoint *bytes.Buffer
	refs       *bytes.Buffer // the ticket refs, when the bundle has them
	parent     *recordReader
	children   map[string]*recordReader // by hex
}

func (l *lineageV2Collector) Member(name string, size int64) (io.Writer, error) {
	switch {
	case name == lineageV2CP:
		if size > checkpoint.MaxSize {
			return nil, nil
		}
		l.checkpoint = &bytes.Buffer{}
		return l.checkpoint, nil
	case name == lineageV2CPRefs:
		if size > checkpoint.MaxSize {
			l.refs = &bytes.Buffer{} // read as empty, which is not a ticket refs file
			return nil, nil
		}
		l.refs = &bytes.Buffer{}
		return l.refs, nil
	case name == lineageV2Parent:
		l.parent = &recordReader{}
		return l.parent, nil
	case strings.HasPrefix(name, lineageV2Prefix) && strings.HasSuffix(name, ".jsonl"):
		hex := strings.TrimSuffix(strings.TrimPrefix(name, lineageV2Prefix), ".jsonl")
		if l.children == nil {
			l.children = map[string]*recordReader{}
		}
		l.children[hex] = &recordReader{}
		return l.children[hex], nil
	}
	return nil, nil
}

// chainRecord is what the check reads of one JSONL record.
type chainRecord struct {
	HMAC, PrevHMAC, ChildSHA, TaskID string
}

// readChainRecord reads a record as the store's readers (Python's json.loads, package lineage) do: the members
// by their exact names, the last of two alike. encoding/json's struct decoding would match them ignoring case
// ("HMAC" beside "hmac"), and a strict reader refusing case twins at any depth would refuse a child body whose
// payload, user data, has {"Name","name"}. Other members are skipped, not decoded into a tree: a body may be
// megabytes. An unreadable record keeps empty fields, which match no checkpoint.
func readChainRecord(line []byte) chainRecord {
	var rec chainRecord
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return chainRecord{}
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return chainRecord{}
		}
		var field *string
		switch t {
		case "hmac":
			field = &rec.HMAC
		case "prev_hmac":
			field = &rec.PrevHMAC
		case "child_sha":
			field = &rec.ChildSHA
		case "task_id":
			field = &rec.TaskID
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return chainRecord{}
		}
		if field != nil {
			*field = ""
			_ = json.Unmarshal(v, field) // a member that is not a string reads as ""
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return chainRecord{}
	}
	if _, err := dec.Token(); err != io.EOF {
		return chainRecord{}
	}
	return rec
}

// recordReader splits a JSONL member into records as the store's readers do (empty lines skipped; a last line
// without a newline still a record) and keeps each record's chain fields.
type recordReader struct {
	recs    []chainRecord
	line    []byte
	tooLong bool
}

func (r *recordReader) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			r.add(p)
			break
		}
		r.add(p[:i])
		r.end()
		p = p[i+1:]
	}
	return n, nil
}

func (r *recordReader) add(p []byte) {
	if len(r.line)+len(p) > maxLineageRecord {
		r.tooLong, r.line = true, r.line[:0]
		return
	}
	if !r.tooLong {
		r.line = append(r.line, p...)
	}
}

func (r *recordReader) end() {
	if len(r.line) > 0 || r.tooLong {
		var rec chainRecord
		if !r.tooLong {
			rec = readChainRecord(r.line)
		}
		r.recs = append(r.recs, rec)
	}
	r.line, r.tooLong = r.line[:0], false
}

// finish takes a last line without a newline as a record.
func (r *recordReader) finish() []chainRecord {
	if r == nil {
		return nil
	}
	r.end()
	return r.recs
}

// sinks hands every member to each non-nil sink.
type sinks []Sink

func (s sinks) Member(name string, size int64) (io.Writer, error) {
	var ws []io.Writer
	for _, sink := range s {
		if sink == nil {
			continue
		}
		w, err := sink.Member(name, size)
		if err != nil {
			return nil, err
		}
		if w != nil {
			ws = append(ws, w)
		}
	}
	switch len(ws) {
	case 0:
		return nil, nil
	case 1:
		return ws[0], nil
	}
	return io.MultiWriter(ws...), nil
}

// check holds the slice against the checkpoint; nil when the bundle carries none.
//
// What a slice can show (doc.go of package lineage, "Checkpoints"): every child file of the slice's refs is
// packed whole, so each one the checkpoint lists must hold at least its checkpointed bodies, the last with the
// checkpointed hmac, and a child file the checkpoint lists that a packed ref points at must be packed. The
// parent refs are a slice of parent.jsonl without their positions, and other tasks' refs are left out between
// them, so a gap in their prev_hmac links is no evidence: they are counted, not held against the checkpoint.
func (l *lineageV2Collector) check() *Check {
	if l.checkpoint == nil {
		return nil
	}
	cp, err := checkpoint.Parse(l.checkpoint.Bytes())
	if err != nil {
		return &Check{Check: CheckLineageV2, Status: Fail, Detail: lineageV2CP + " is not a lineage v2 checkpoint: " + err.Error()}
	}
	head := checkpoint.Head{Children: map[string][]string{}}
	var problems []string
	hexes := make([]string, 0, len(l.children))
	for hex := range l.children {
		hexes = append(hexes, hex)
	}
	sort.Strings(hexes)
	for _, hex := range hexes {
		recs := l.children[hex].finish()
		hmacs := make([]string, len(recs))
		prev := ""
		for i, rec := range recs {
			hmacs[i] = rec.HMAC
			if rec.PrevHMAC != prev {
				problems = append(problems, fmt.Sprintf("%s%s.jsonl body %d: prev_hmac is not body %d's hmac: a body was removed or replaced", lineageV2Prefix, hex, i, i-1))
			}
			prev = rec.HMAC
		}
		head.Children[hex] = hmacs
	}
	refs := l.parent.finish()
	pointed := map[string]bool{}
	for _, ref := range refs {
		pointed[strings.TrimPrefix(ref.ChildSHA, "sha256:")] = true
	}
	want := func(hex string) bool { _, packed := l.children[hex]; return packed || pointed[hex] }
	var pinned int64
	for _, p := range checkpoint.CheckChildren(cp, head, want) {
		problems = append(problems, "lineage/v2/"+p.Message)
	}
	var refsNote string
	if l.refs != nil {
		tr, err := checkpoint.ParseRefs(l.refs.Bytes())
		if err != nil {
			problems = append(problems, lineageV2CPRefs+" is not a lineage v2 ticket refs file: "+err.Error())
		} else {
			sum := sha256.Sum256(l.checkpoint.Bytes())
			slice := make([]checkpoint.Ref, len(refs))
			for i, r := range refs {
				slice[i] = checkpoint.Ref{TaskID: r.TaskID, HMAC: r.HMAC}
			}
			for _, p := range checkpoint.CheckRefs(cp, hex.EncodeToString(sum[:]), tr, slice) {
				problems = append(problems, lineageV2+p.Message)
			}
			refsNote = fmt.Sprintf("; held %s of the ticket's %s (lineage/v2/checkpoint-refs.json) at their checkpointed positions",
				plural.Count(len(tr.Refs), "parent ref"), plural.Count(len(tr.Tasks), "task"))
		}
	}
	checked := 0
	for hex, t := range cp.Children {
		if want(hex) {
			checked++
			pinned += t.Count
		}
	}
	when := cp.CreatedAt.Format(time.RFC3339)
	if len(problems) > 0 {
		return &Check{Check: CheckLineageV2, Status: Fail, Problems: problems, Detail: fmt.Sprintf(
			"the lineage v2 slice does not extend the checkpoint of %s the bundle carries: records were cut or replaced after it was taken and before the bundle was packed", when)}
	}
	if refsNote != "" {
		return &Check{Check: CheckLineageV2, Status: Pass, Detail: fmt.Sprintf(
			"the lineage v2 slice extends the bundle's checkpoint of %s (%s key): checked %s with %s%s",
			when, cp.KeyClass, plural.Count(checked, "child file"), plural.Count(pinned, "checkpointed body"), refsNote)}
	}
	return &Check{Check: CheckLineageV2, Status: Pass, Detail: fmt.Sprintf(
		"the lineage v2 slice extends the bundle's checkpoint of %s (%s key): checked %s with %s; not held against it: %s (the bundle has no lineage/v2/checkpoint-refs.json, so a ref of the ticket cut cannot be told from another task's left out): check the store with lineage v2 verify --since",
		when, cp.KeyClass, plural.Count(checked, "child file"), plural.Count(pinned, "checkpointed body"), plural.Count(len(refs), "parent ref"))}
}
