// Package report renders a ticket bundle as one self-contained HTML page for people (`git bernstein view`): the
// verifier's verdict and check lines, then the evidence (ticket, pull requests, commits, patches, transcripts,
// traces, lineage, audit, manifest). It never prints and never extracts anything to disk.
package report

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"io"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/policy"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// Display limits. Each member shows at most MaxMemberShown bytes. The page shows at most MaxTotalShown bytes of
// bundle content in all, member names included (a name is up to 4 KiB, and a bundle may have 100,000 of them):
// MaxTableNamesShown of it for the names in the file table, the rest for the members' names and heads in the
// sections. So a hostile or simply huge bundle still gives a page a browser can open. Sizes and hashes are
// always those of the whole member.
const (
	MaxMemberShown     = 256 << 10
	MaxTotalShown      = 16 << 20
	MaxTableNamesShown = 1 << 20
)

// Bundle is what the page shows: the verifier's report, and the members as the verifier read them.
type Bundle struct {
	Report *verify.Report
	// Members is in archive order, manifest.json excluded, up to the page budget. It is empty when the archive
	// check did not pass: an archive the verifier refused (unsafe names, links, duplicates, appended data, a
	// header outside the bundle shape) or could not read is shown as its report only.
	Members []*Member
	// Omitted counts the members after Members that the page budget left out entirely, names too.
	Omitted int
	// ManifestJSON is manifest.json's bytes; nil when the archive check did not pass.
	ManifestJSON []byte
	// Policy is the auditor's change-control policy for the Controls section (view --policy); nil: defaults.
	Policy *policy.Policy
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

// Read verifies the bundle and keeps the members for display from the verifier's own read (a verify.Sink), so
// what the page shows is exactly what was verified: no second tar reader, no second read of the file. Only when
// the verifier's archive check passed are the members kept; their content is still untrusted text, escaped when
// rendered.
func Read(archive io.Reader, signature []byte, keys []sign.TrustedKey, opts verify.Options) *Bundle {
	s := &pageSink{budget: MaxTotalShown - MaxTableNamesShown}
	opts.Sink = s
	rep := verify.Verify(archive, signature, keys, opts)
	s.finish()
	b := &Bundle{Report: rep}
	if len(rep.Checks) == 0 || rep.Checks[0].Check != verify.CheckArchive || rep.Checks[0].Status == verify.Fail || rep.Checks[0].Status == verify.CannotCheck {
		return b
	}
	b.Members, b.Omitted, b.ManifestJSON = s.members, s.omitted, s.manifest.Bytes()
	if b.ManifestJSON == nil {
		b.ManifestJSON = []byte{}
	}
	return b
}

// pageSink keeps the head of each member within the display budget. The verifier bounds the manifest (its
// --max-manifest-size) and the number and names of members; this only has to keep the page small.
type pageSink struct {
	budget   int64
	manifest bytes.Buffer
	members  []*Member
	omitted  int
	cur      *memberHead
}

func (s *pageSink) Member(name string, size int64) (io.Writer, error) {
	s.finish()
	if name == manifest.Name && len(s.members) == 0 && s.omitted == 0 && s.manifest.Len() == 0 {
		return &s.manifest, nil
	}
	if int64(len(name)) > s.budget {
		s.omitted++
		return nil, nil
	}
	s.budget -= int64(len(name))
	m := &Member{Name: name}
	s.members = append(s.members, m)
	s.cur = &memberHead{m: m, h: sha256.New(), keep: min(int64(MaxMemberShown), s.budget)}
	return s.cur, nil
}

// finish closes the member being read.
func (s *pageSink) finish() {
	if c := s.cur; c != nil {
		copy(c.m.SHA256[:], c.h.Sum(nil))
		c.m.Truncated = c.m.Size > int64(len(c.m.Head))
		s.budget -= int64(len(c.m.Head))
		s.cur = nil
	}
}

// memberHead hashes a member and keeps its first keep bytes.
type memberHead struct {
	m    *Member
	h    hash.Hash
	keep int64
}

func (w *memberHead) Write(p []byte) (int, error) {
	w.h.Write(p)
	w.m.Size += int64(len(p))
	if room := w.keep - int64(len(w.m.Head)); room > 0 {
		w.m.Head = append(w.m.Head, p[:min(room, int64(len(p)))]...)
	}
	return len(p), nil
}

// ReadFiles is Read of the files f names, opened as verify opens them (verify.Open): the same cards, signature
// lookup and unusable reports, so that an input that cannot be used is a page of its unusable report.
func ReadFiles(f verify.Files, opts verify.Options) *Bundle {
	in, unusable := verify.Open(f)
	if unusable != nil {
		return &Bundle{Report: unusable}
	}
	defer in.Archive.Close()
	return Read(in.Archive, in.Sig, in.Keys, opts)
}
