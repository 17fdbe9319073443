package verify

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// CheckLineage is the lineage v1 check: the packed entries against the agent cards the user gave, and who wrote
// each file of the ticket's commits (doc.go, "Lineage").
const CheckLineage = "lineage"

// lineageV1Prefix is where a bundle carries lineage v1 (package bundle, LineageV1Dir).
const lineageV1Prefix = "lineage/v1/"

// maxLineageV1 bounds what the check keeps of lineage/v1/ in memory: a log slice and its sidecars are small.
const maxLineageV1 = 64 << 20

// lineageV1Sink keeps the lineage/v1/ members from the verifier's one read, and hands every member on to the
// caller's sink.
type lineageV1Sink struct {
	next    Sink
	members map[string]*bytes.Buffer
	total   int64
	over    bool
}

func (s *lineageV1Sink) Member(name string, size int64) (io.Writer, error) {
	var w io.Writer
	if s.next != nil {
		nw, err := s.next.Member(name, size)
		if err != nil {
			return nil, err
		}
		w = nw
	}
	if !strings.HasPrefix(name, lineageV1Prefix) {
		return w, nil
	}
	if s.members == nil {
		s.members = map[string]*bytes.Buffer{}
	}
	b := &bytes.Buffer{}
	s.members[name] = b
	keep := &capped{s: s, b: b}
	if w == nil {
		return keep, nil
	}
	return io.MultiWriter(w, keep), nil
}

type capped struct {
	s *lineageV1Sink
	b *bytes.Buffer
}

func (c *capped) Write(p []byte) (int, error) {
	c.s.total += int64(len(p))
	if c.s.total > maxLineageV1 {
		c.s.over = true
		return len(p), nil
	}
	return c.b.Write(p)
}

// check is the lineage line, or nil when the bundle carries no lineage v1 and no cards were given (nothing was
// asked and nothing is there: the report stays as it was).
func (s *lineageV1Sink) check(cards *logv1.Cards) (*Check, []logv1.Attribution) {
	if len(s.members) == 0 {
		if cards == nil {
			return nil, nil
		}
		return &Check{Check: CheckLineage, Status: Warn,
			Detail: "the bundle carries no lineage v1 (lineage/v1/log.jsonl): no file of its commits can be attributed to an agent"}, nil
	}
	if s.over {
		return &Check{Check: CheckLineage, Status: Fail, unusable: true,
			Detail: fmt.Sprintf("lineage/v1/ holds more than %s: not checked", FormatSize(maxLineageV1))}, nil
	}
	logBytes, ok := s.members[lineageV1Prefix+logv1.LogName]
	if !ok {
		return &Check{Check: CheckLineage, Status: Fail, Detail: "lineage/v1/ has no log.jsonl: its sidecars sign nothing the bundle holds"}, nil
	}
	files := &logv1.CommitFiles{V: 1}
	if fb, ok := s.members[lineageV1Prefix+logv1.FilesName]; ok {
		f, err := logv1.ParseCommitFiles(fb.Bytes())
		if err != nil {
			return &Check{Check: CheckLineage, Status: Fail, Detail: err.Error()}, nil
		}
		files = f
	}
	sidecars := func(rel string) ([]byte, error) {
		if b, ok := s.members[lineageV1Prefix+rel]; ok {
			return b.Bytes(), nil
		}
		return nil, fs.ErrNotExist
	}
	log := logv1.Parse(logBytes.Bytes())
	res := logv1.Verify(log, logv1.Options{Cards: cards, Sidecars: sidecars})
	attr := logv1.Attribute(res, files)
	for i := range attr {
		a := &attr[i]
		a.Path = termtext.Clean(a.Path)
		for j := range a.WrittenBy {
			w := &a.WrittenBy[j]
			w.AgentID, w.Kid, w.ToolCallID = termtext.Clean(w.AgentID), termtext.Clean(w.Kid), termtext.Clean(w.ToolCallID)
		}
	}
	total, signed := 0, 0
	for _, a := range attr {
		total++
		for _, w := range a.WrittenBy {
			if w.Signature == logv1.SigVerified {
				signed++
				break
			}
		}
	}
	matched := 0
	for _, a := range attr {
		if len(a.WrittenBy) > 0 {
			matched++
		}
	}
	var problems []string
	for _, p := range res.Failures {
		problems = append(problems, p.String())
	}
	switch {
	case !res.OK():
		return &Check{Check: CheckLineage, Status: Fail, Problems: problems,
			Detail: fmt.Sprintf("%s in the packed lineage v1 %s (%d): an entry or its signature was changed, removed or swapped, or is not by the agent it names", plural.Count(len(res.Failures), "problem"), plural.Noun(len(log.Entries), "entry"), len(log.Entries))}, attr
	case cards == nil:
		return &Check{Check: CheckLineage, Status: Warn,
			Detail: fmt.Sprintf("%s, not checked: no --agent-cards given; %d of %s match an entry, which says only what the entries claim", plural.Count(len(log.Entries), "lineage v1 entry"), matched, plural.Count(total, "changed file"))}, attr
	}
	c := &Check{Check: CheckLineage, Status: Pass,
		Detail: fmt.Sprintf("%s, each signed by the key of its (agent, kid) in the agent cards you gave; %d of %s written by a signed entry", plural.Count(len(log.Entries), "lineage v1 entry"), signed, plural.Count(total, "changed file"))}
	if len(res.Warnings) > 0 {
		c.Status, c.Problems = Warn, res.Warnings
	}
	return c, attr
}
