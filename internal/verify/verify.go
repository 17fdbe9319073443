package verify

import (
	"errors"
	"fmt"
	"io"

	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/sshsig"
)

// Options tune a verification. The zero value is the documented defaults, not strict.
type Options struct {
	Limits Limits
	// Strict makes warnings count: a bundle that verifies with warnings exits 3 instead of 0.
	Strict bool
	// Note, when set, adds the note check (see note.go).
	Note *NoteCheck
	// Repository, when set, adds the repository check (see repo.go).
	Repository *RepoCheck
	// Sink, when set, receives every member's bytes as they are read (see sink.go).
	Sink Sink
	// AgentCards, when set, checks the bundle's lineage v1 entries against them (lineagev1.go).
	AgentCards *logv1.Cards
	// AllowedSigners are trusted keys from allowed signers files; SSHSig, Attestation and SigstoreBundle,
	// when not nil, are the archive's .sig, .intoto.jsonl and .sigstore.json, checked too; ArchiveName is the
	// archive's file name (ssh.go).
	AllowedSigners []sshsig.AllowedSigner
	SSHSig         []byte
	Attestation    []byte
	SigstoreBundle []byte
	ArchiveName    string
}

// Verify checks archive (a ticket bundle's tar.gz) and signature (the detached JWS; nil when there is none)
// against keys (the trusted keys from the user's cards; none means nothing can be VERIFIED).
//
// Checks run in a fixed order: archive, manifest, files, signature, trust. A failed archive or manifest check
// stops there, as there is nothing sound to go on; a files failure does not stop the signature check, whose
// answer (is the manifest itself authentic?) still helps the reader. Integrity is checked even with no
// signature or no key: a changed bundle is FAILED, an intact one UNVERIFIABLE.
func Verify(archive io.Reader, signature []byte, keys []sign.TrustedKey, opts Options) *Report {
	r := &Report{}
	defer r.finish(opts.Strict)
	lim := opts.Limits.withDefaults()
	var hashes *archiveHashes
	if opts.SSHSig != nil || opts.Attestation != nil || opts.SigstoreBundle != nil {
		hashes = hashArchive(archive)
		archive = hashes.r
	}

	l2 := &lineageV2Collector{}
	prs := &prSourcesCollector{}
	commits := &commitsCollector{}
	next := sinks{opts.Sink, l2, prs, commits}
	var git *repoCollector
	if opts.Repository != nil {
		git = &repoCollector{}
		next = append(next, git)
	}
	lv := &lineageV1Sink{next: next}
	c, fail := readArchive(archive, lim, lv)
	if fail != nil {
		r.add(Check{Check: CheckArchive, Status: Fail, Detail: fail.detail, unusable: fail.unusable})
		return r
	}
	archiveCheck := Check{Check: CheckArchive, Status: Pass, Detail: fmt.Sprintf(
		"one gzip member, intact, nothing after it; %s, %s inflated, in the one unambiguous tar shape (ustar; PAX path and mtime only; canonical numbers; zero padding), manifest.json first, only regular files with safe, distinct names (no .git), each in its section's folder and none a folder of another",
		plural.Count(c.entries, "member"), FormatSize(c.total))}
	if len(c.nameWarnings) > 0 {
		archiveCheck.Status, archiveCheck.Problems = Warn, c.nameWarnings
		archiveCheck.Detail += fmt.Sprintf("; %s on extraction elsewhere (letter case, Unicode normalization, Windows): extract on Linux, or with git bernstein extract and read the warnings", plural.Count(len(c.nameWarnings), "name problem"))
	}
	r.add(archiveCheck)

	m, err := c.manifest, c.manifestErr
	if err != nil {
		r.add(Check{Check: CheckManifest, Status: Fail, Detail: err.Error(), unusable: errors.Is(err, manifest.ErrUnsupportedSchema)})
		return r
	}
	r.TicketID, r.Tracker = m.TicketID, m.Tracker
	r.add(Check{Check: CheckManifest, Status: Pass, Detail: fmt.Sprintf("schema_version 1, tracker %q, ticket %q, %s, %s, created %s by %s",
		m.Tracker, m.TicketID, plural.Count(len(m.Files), "file"), plural.Count(len(m.Commits), "commit"), m.CreatedAt, m.BernsteinVersion)})

	r.add(checkFiles(m, c.members))

	sig, trust, kid := checkSignatureAllowing(c.manifestJSON, signature, keys, m.CreatedAt, opts.AllowedSigners)
	r.Kid = kid
	r.add(sig)
	if trust != nil {
		r.add(*trust)
	}
	if hashes != nil {
		r.checkSidecars(hashes, c.manifestJSON, m.CreatedAt, keys, opts)
	}
	if chk := checkCommits(m, commits); chk != nil {
		r.add(*chk)
	}
	if opts.Note != nil {
		r.add(checkNote(*opts.Note, m.Tracker, m.TicketID))
	}
	if git != nil {
		r.add(checkRepository(*opts.Repository, git))
	}
	if chk, attr := lv.check(opts.AgentCards); chk != nil {
		r.add(*chk)
		r.Attribution = attr
	}
	if chk := l2.check(); chk != nil {
		r.add(*chk)
	}
	if chk, sources := prs.check(c.members, m.CreatedAt); chk != nil {
		r.add(*chk)
		r.PRSources = sources
	}
	return r
}
