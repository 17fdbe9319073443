package verify

import "io"

// Sink receives every member as the verifier reads it: manifest.json first, then the others in archive order.
// A caller that shows or writes the members (view, extract) thereby has exactly the bytes that were checked,
// from the one read, and no second tar reader is ever involved. Member returns where the member's bytes go (nil:
// nowhere); an error from Member or from that writer stops the verification, and the archive check fails as
// unusable, naming the member and the error.
//
// A sink sees members before the verdict: whatever it keeps is untrusted until the report says VERIFIED.
type Sink interface {
	Member(name string, size int64) (io.Writer, error)
}

// sinkWriter remembers the sink's own write error, so that it is told apart from a damaged archive.
type sinkWriter struct {
	w   io.Writer
	err error
}

func (s *sinkWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil && s.err == nil {
		s.err = err
	}
	return n, err
}
