package inbrowser

import (
	"bytes"
	"io"

	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// maxControlMembers bounds what the page keeps for the controls, as audit does.
const maxControlMembers = 64 << 20

// controlsSink keeps the members the change controls read, from the verifier's one read of the archive.
type controlsSink struct {
	members map[string]*bytes.Buffer
	total   int64
	dropped []string
}

func (s *controlsSink) Member(name string, size int64) (io.Writer, error) {
	if !controls.Reads(name) {
		return nil, nil
	}
	if s.total+size > maxControlMembers {
		s.dropped = append(s.dropped, name)
		return nil, nil
	}
	s.total += size
	b := &bytes.Buffer{}
	s.members[name] = b
	return b, nil
}

// evaluate runs the controls over the kept members under the default policy (the page takes no policy file).
func (s *controlsSink) evaluate(rep *verify.Report) *controls.Result {
	in := controls.Input{Members: map[string][]byte{}, Attribution: rep.Attribution}
	for name, b := range s.members {
		in.Members[name] = b.Bytes()
	}
	res := controls.Evaluate(in, nil)
	for _, name := range s.dropped {
		res.Notes = append(res.Notes, name+" was not read: the members kept for the controls passed 64 MiB")
	}
	return res
}
