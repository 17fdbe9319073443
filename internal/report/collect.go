package report

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"io"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
)

// collected is what the display reader kept. err is set when it could not read the archive to its end; the
// verifier then fails the archive check too, and nothing is shown.
type collected struct {
	manifest []byte
	members  []*Member
	err      error
}

// collect reads the tar.gz the verifier is reading and keeps the head of each member within the display
// limits. It relies on the verifier for every structural rule and limit (the result is used only when the
// verifier's archive check passed), so it only has to stay bounded in memory: heads are capped, and the number
// of members is bounded by what the verifier accepts before it stops feeding this reader.
func collect(r io.Reader) (c collected) {
	zr, err := gzip.NewReader(bufio.NewReader(r))
	if err != nil {
		c.err = err
		return c
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	budget := int64(MaxTotalShown)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return c
		}
		if err != nil {
			c.err = err
			return c
		}
		if hdr.Name == manifest.Name && c.manifest == nil && len(c.members) == 0 {
			// The verifier holds the manifest to its own limit (16 MiB by default) and fails past it.
			if c.manifest, err = io.ReadAll(io.LimitReader(tr, 64<<20)); err != nil {
				c.err = err
				return c
			}
			continue
		}
		m := &Member{Name: hdr.Name}
		keep := min(int64(MaxMemberShown), budget)
		h := sha256.New()
		head, err := io.ReadAll(io.TeeReader(io.LimitReader(tr, keep), h))
		if err != nil {
			c.err = err
			return c
		}
		rest, err := io.Copy(h, tr)
		if err != nil {
			c.err = err
			return c
		}
		m.Head, m.Size, m.Truncated = head, int64(len(head))+rest, rest > 0
		copy(m.SHA256[:], h.Sum(nil))
		budget -= int64(len(head))
		c.members = append(c.members, m)
	}
}
