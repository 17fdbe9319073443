// Package report renders a ticket bundle as one self-contained HTML page for people (`git bernstein view`): the
// verifier's verdict and check lines, then the evidence (ticket, pull requests, commits, patches, transcripts,
// traces, lineage, audit, manifest). It never prints and never extracts anything to disk.
package report

import (
	"io"
	"sync"

	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Display limits. Each member shows at most MaxMemberShown bytes, and the page at most MaxTotalShown bytes of
// bundle content in all, so that a hostile or simply huge bundle gives a page a browser can open. Sizes and
// hashes are always those of the whole member.
const (
	MaxMemberShown = 256 << 10
	MaxTotalShown  = 16 << 20
)

// Bundle is what the page shows: the verifier's report, and the members as the verifier read them.
type Bundle struct {
	Report *verify.Report
	// Members is in archive order, manifest.json excluded. It is empty when the archive check did not pass: an
	// archive the verifier refused (unsafe names, links, duplicates, appended data) or could not read is shown
	// as its report only.
	Members []*Member
	// ManifestJSON is manifest.json's bytes; nil when the archive check did not pass.
	ManifestJSON []byte
}

// Member is one archive member as it streamed by.
type Member struct {
	Name      string
	Size      int64    // bytes read, not the header's claim
	SHA256    [32]byte // of all Size bytes
	Head      []byte   // the first bytes, at most MaxMemberShown
	Truncated bool     // Head is not the whole member (its own cap, or the page's budget)
}

// Text is the member's shown bytes as a string.
func (m *Member) Text() string { return string(m.Head) }

// Read verifies the bundle and keeps the members for display, in one pass over archive: the bytes the verifier
// reads are teed to a second, capped tar reader, so what the page shows is exactly what was verified (no second
// read of the file that could see other bytes). Only when the verifier's archive check passed, meaning the
// archive is one intact gzip member of regular files with safe, distinct names and manifest.json first, are the
// members kept; their content is still untrusted text, escaped when rendered.
func Read(archive io.Reader, signature []byte, keys []sign.TrustedKey, opts verify.Options) *Bundle {
	pr, pw := io.Pipe()
	var col collected
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		col = collect(pr)
		// Whatever the collector did not need, the verifier still sends: drain it so the tee never blocks.
		io.Copy(io.Discard, pr)
	}()
	rep := verify.Verify(io.TeeReader(archive, pw), signature, keys, opts)
	pw.Close()
	wg.Wait()

	b := &Bundle{Report: rep}
	if len(rep.Checks) == 0 || rep.Checks[0].Check != verify.CheckArchive || rep.Checks[0].Status == verify.Fail || col.err != nil {
		return b
	}
	b.Members, b.ManifestJSON = col.members, col.manifest
	return b
}
