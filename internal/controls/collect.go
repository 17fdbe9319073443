package controls

import (
	"bytes"
	"fmt"
	"io"

	"github.com/git-bernstein/git-bernstein/internal/policy"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// MaxMembers bounds what a Collector keeps: a ticket's pull requests with their timelines and checks are a few
// MiB, and the verifier's one read of the archive must not keep an unbounded part of it.
const MaxMembers = 64 << 20

// Collector is a verifier sink (verify.Options.Sink) that keeps, from the verifier's one read of the archive,
// the members the controls read (Reads), at most MaxMembers in all; audit and the browser page use it.
type Collector struct {
	members map[string]*bytes.Buffer
	total   int64
	dropped []string
}

// NewCollector returns an empty Collector.
func NewCollector() *Collector { return &Collector{members: map[string]*bytes.Buffer{}} }

// Member keeps name's bytes when the controls read it and the budget allows.
func (c *Collector) Member(name string, size int64) (io.Writer, error) {
	if !Reads(name) {
		return nil, nil
	}
	if c.total+size > MaxMembers {
		c.dropped = append(c.dropped, name)
		return nil, nil
	}
	c.total += size
	b := &bytes.Buffer{}
	c.members[name] = b
	return b, nil
}

// Evaluate runs the controls under pol (nil: the default policy) over what was kept, with the report's
// attribution; a member left out for the budget is said in the result's notes.
func (c *Collector) Evaluate(rep *verify.Report, pol *policy.Policy) *Result {
	in := Input{Members: map[string][]byte{}, Attribution: rep.Attribution}
	for name, b := range c.members {
		in.Members[name] = b.Bytes()
	}
	res := Evaluate(in, pol)
	for _, name := range c.dropped {
		res.Notes = append(res.Notes, fmt.Sprintf("%s was not read: the members kept for the controls passed %d MiB",
			name, MaxMembers>>20))
	}
	return res
}
