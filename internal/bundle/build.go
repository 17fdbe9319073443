package bundle

import (
	"bufio"
	"crypto"
	"crypto/ed25519"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/jsonout"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// Options says what to bundle and where.
type Options struct {
	Repo      *gitext.Repo
	Find      discover.Options
	SDD       string // the .sdd folder; a missing one is a warning, not an error
	Out       string // the archive's path; the signature goes to Out + ".jws"
	CreatedAt time.Time
	Selector  Selector // Ticket is taken from Find
	// SignKey and SignKid sign the manifest when SignKey is set: an Ed25519 crypto.Signer (an
	// ed25519.PrivateKey, or a key in ssh-agent; package sshsig).
	SignKey crypto.Signer
	SignKid string
	// SSHSig also writes Out + ".sig", an SSHSIG over the archive's bytes, and Attest Out + ".intoto.jsonl",
	// a DSSE-signed in-toto statement about it, and Out + ".sigstore.json", the same envelope in a Sigstore
	// bundle (sidecars.go); both need SignKey.
	SSHSig bool
	Attest bool
	// OCIStore, with Attest, is the first oci:// store configured (bernstein.store): the statement then also names
	// the archive's manifest there (package ociartifact, Subject), the subject cosign verify-attestation matches.
	OCIStore string
	// LineageV2 also packs the lineage v2 records of tasks tied to the ticket under lineage/v2/.
	LineageV2 bool
	// LineageV2Checkpoint, with LineageV2, is a checkpoint file of the store (package lineage, "Checkpoints")
	// taken before the store is read for the slice; it is packed as lineage/v2/checkpoint.json, which the
	// manifest (and so its signature) covers, and the verifier holds the slice against it.
	LineageV2Checkpoint []byte
	// LineageV2CheckpointRefs, with LineageV2Checkpoint, are the parent refs that checkpoint counts, by position
	// (checkpoint.Checkpoint.Refs, from the same read of the store). With them the bundle also carries
	// lineage/v2/checkpoint-refs.json, the positions and hmacs of its ticket's tasks' refs among them, so the
	// verifier tells a ref of the ticket cut before packing from another task's ref left out.
	LineageV2CheckpointRefs []checkpoint.Ref
	// Progress, when set, hears how far hashing and packing the members has got.
	Progress func(stage string, done, total int)
	// PRs, when set, finds the ticket's pull request payloads once the commits are known (see PRFunc).
	PRs PRFunc
	// Deadline, when set, is when the build gives up with an error wrapping ErrDeadline (the post-merge hook's
	// budget); Now is the clock it is read with (nil: time.Now).
	Deadline time.Time
	Now      func() time.Time

	// afterSelect, when set, runs once the .sdd files are chosen and before they are hashed and packed: the
	// window a swap would use. Tests swap files there, deterministically.
	afterSelect func()
}

// PRFunc fetches the pull requests of a ticket whose commits are known. Problems that must not stop the
// bundle (GitHub offline, rate limited) come back as warnings; an error stops the build (--require-pr).
type PRFunc func(commits *discover.Commits) (*PRSet, error)

// PRSet is what a PRFunc found: payloads exactly as the API returned them, never invented.
type PRSet struct {
	PRs []PR
	// Landed is the PR that merged the work (latest merged_at), else the newest; nil when there are none.
	Landed   *int
	Warnings []string
	// Controls are change-control members of no one pull request (branch rules, the ticket's issue), packed
	// in pr/ like the others (package github, "Change-control evidence").
	Controls []PRMember
	// CodeOwners are git/codeowners/<base sha>.json, the CODEOWNERS file at each base commit as read from git
	// (package controls); their From is unused: git, not GitHub, said them.
	CodeOwners []PRMember
	// PatchIDs are git/patchids/pr_<N>.json, each reviewed head's patch id against the base as computed from
	// git (package prpatch); like CodeOwners, packed in the git section.
	PatchIDs []PRMember
}

// PRMember is one more pr/ member as GitHub sent it: its arcname (under pr/), bytes and source.
type PRMember struct {
	Name string
	Data []byte
	From prsource.Member
}

// PR is one pull request: its payload and, when known, its reviews (both raw JSON bytes), and where each came
// from (package prsource; Build sets the arcnames), packed as pr/sources.json.
type PR struct {
	Number  int
	Payload []byte
	Reviews []byte // nil when the reviews could not be fetched

	PayloadFrom, ReviewsFrom prsource.Member
	// Controls are its change-control members (pr/pr_<N>.commits.json, …).
	Controls []PRMember
}

// Result describes a written bundle.
type Result struct {
	Out         string
	Signature   string // "" when unsigned
	SSHSig      string // "" when not written
	Attestation string // "" when not written
	// SigstoreBundle is the .sigstore.json, written with Attestation; "" when not written.
	SigstoreBundle string
	Size           int64 // bytes of the archive
	Manifest       *manifest.Manifest
	Warnings       []string
}

// Build finds the ticket's commits, gathers the evidence and writes the archive (and signature) atomically:
// on any error neither the archive, the signature nor a temp file is left behind.
func Build(opts Options) (*Result, error) {
	res := &Result{Out: opts.Out}
	if k, ok := opts.SignKey.(ed25519.PrivateKey); ok && k == nil {
		opts.SignKey = nil
	}
	if (opts.SSHSig || opts.Attest) && opts.SignKey == nil {
		return nil, fmt.Errorf("an SSH signature or an attestation needs a signing key")
	}
	if opts.SignKey != nil {
		if err := sign.CheckKid(opts.SignKid); err != nil {
			return nil, err
		}
	}
	clk := newClock(opts)
	// What is signed takes no patch id from the cache, a file anyone who can write .git can fill: each is
	// computed again (the same commits are diffed for git/diff.patch anyway), and a cached one that differs is
	// replaced with a warning.
	opts.Find.RecomputePatchIDs = true
	// Those diffs are kept for git/diff.patch, which would otherwise diff every commit a second time.
	diffs := patch.NewDiffs()
	opts.Find.Diffs = diffs
	commits, err := discover.Find(opts.Repo, opts.Find)
	if err != nil {
		return nil, err
	}
	if err := clk.check("after finding the commits"); err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, commits.Warnings...)
	if len(commits.Commits) == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no commits tied to %s: the bundle holds no git history", opts.Find.Ticket.ID))
	}

	// Generated members and slices live in a work folder beside the archive, removed whatever happens.
	work, err := os.MkdirTemp(filepath.Dir(opts.Out), "."+filepath.Base(opts.Out)+".work-*")
	if err != nil {
		return nil, fmt.Errorf("create work folder beside %s: %w", opts.Out, err)
	}
	defer os.RemoveAll(work)

	var members []member
	cj, err := workMember(work, "git/commits.json", manifest.SectionGit, func(w io.Writer) error {
		return jsonout.Write(w, commits)
	})
	if err != nil {
		return nil, err
	}
	members = append(members, cj)

	patchable, skipped := patchableCommits(opts.Repo, commits)
	res.Warnings = append(res.Warnings, skipped...)
	if len(patchable) > 0 {
		dp, err := workMember(work, "git/diff.patch", manifest.SectionGit, func(w io.Writer) error {
			return patch.WriteSeries(w, opts.Repo, patchable, patch.WithDiffs(diffs))
		})
		if err != nil {
			return nil, fmt.Errorf("write git/diff.patch: %w", err)
		}
		members = append(members, dp)
	}

	var prNumber *int
	if opts.PRs != nil {
		set, err := opts.PRs(commits)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, set.Warnings...)
		prNumber = set.Landed
		var sources prsource.Sources
		for _, pr := range set.PRs {
			for _, f := range []struct {
				name string
				data []byte
				from prsource.Member
			}{{fmt.Sprintf("pr_%d.json", pr.Number), pr.Payload, pr.PayloadFrom}, {fmt.Sprintf("pr_%d.reviews.json", pr.Number), pr.Reviews, pr.ReviewsFrom}} {
				if f.data == nil {
					continue
				}
				m, err := workMember(work, "pr/"+f.name, manifest.SectionPR, func(w io.Writer) error { _, err := w.Write(f.data); return err })
				if err != nil {
					return nil, err
				}
				members = append(members, m)
				f.from.Arcname = "pr/" + f.name
				sources.Members = append(sources.Members, f.from)
			}
			for _, c := range pr.Controls {
				m, err := prMember(work, c)
				if err != nil {
					return nil, err
				}
				members = append(members, m)
				sources.Members = append(sources.Members, c.From)
			}
		}
		for _, c := range set.Controls {
			m, err := prMember(work, c)
			if err != nil {
				return nil, err
			}
			members = append(members, m)
			sources.Members = append(sources.Members, c.From)
		}
		for _, c := range append(append([]PRMember{}, set.CodeOwners...), set.PatchIDs...) {
			if !strings.HasPrefix(c.Name, "git/codeowners/") && !strings.HasPrefix(c.Name, "git/patchids/") {
				return nil, fmt.Errorf("%q is not a git/codeowners/ or git/patchids/ member", c.Name)
			}
			m, err := workMember(work, c.Name, manifest.SectionGit, func(w io.Writer) error { _, err := w.Write(c.Data); return err })
			if err != nil {
				return nil, err
			}
			members = append(members, m)
		}
		// Where each pr/ member came from, signed with them: an offline copy is never GitHub's answer.
		if len(sources.Members) > 0 {
			data, err := sources.Marshal()
			if err != nil {
				return nil, err
			}
			m, err := workMember(work, prsource.Arcname, manifest.SectionPR, func(w io.Writer) error { _, err := w.Write(data); return err })
			if err != nil {
				return nil, err
			}
			members = append(members, m)
		}
	}

	sel := opts.Selector
	sel.Ticket = opts.Find.Ticket
	if sel.ProbeLimit == 0 {
		sel.ProbeLimit = DefaultProbeLimit
	}
	// .sdd stays open until the archive is written: its members are reopened through it, never by path.
	sddDir, warning, err := openSDD(opts.SDD)
	if err != nil {
		return nil, err
	}
	if warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	var v2Tasks []string // the ticket's lineage v2 tasks, as the slice chose them
	if sddDir != nil {
		defer sddDir.Close()
		sdd, warnings, err := selectSDD(sddDir, sel, work)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings...)
		members = append(members, sdd...)
		v1, warnings, err := selectLineageV1(sddDir, opts.Repo, patchable, work)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings...)
		members = append(members, v1...)
		if opts.LineageV2 {
			v2, warnings, tasks, err := selectLineageV2(sddDir, sel, work)
			if err != nil {
				return nil, err
			}
			v2Tasks = tasks
			res.Warnings = appendNew(res.Warnings, warnings...)
			members = append(members, v2...)
		}
	}
	if opts.LineageV2 && opts.LineageV2Checkpoint != nil {
		cp, err := workMember(work, LineageV2CheckpointMember, manifest.SectionLineage, func(w io.Writer) error {
			_, err := w.Write(opts.LineageV2Checkpoint)
			return err
		})
		if err != nil {
			return nil, err
		}
		members = append(members, cp)
		if opts.LineageV2CheckpointRefs != nil {
			m, err := ticketRefsMember(work, opts, sel, v2Tasks)
			if err != nil {
				return nil, err
			}
			if m != nil {
				members = append(members, *m)
			}
		}
	}
	if opts.afterSelect != nil {
		opts.afterSelect()
	}

	if err := clk.check("after choosing the files"); err != nil {
		return nil, err
	}
	for i := range members {
		if err := hashMember(&members[i], clk); err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress("Hashing", i+1, len(members))
		}
	}
	sort.Slice(members, func(i, j int) bool { return members[i].entry.Arcname < members[j].entry.Arcname })

	m := &manifest.Manifest{
		SchemaVersion:    manifest.SchemaVersion,
		CreatedAt:        manifest.FormatTime(opts.CreatedAt),
		BernsteinVersion: buildinfo.Version(),
		Tracker:          opts.Find.Ticket.Tracker,
		TicketID:         opts.Find.Ticket.ID,
		Files:            make([]manifest.Entry, 0, len(members)),
		PRNumber:         prNumber,
		Commits:          commits.Commits,
	}
	for _, mb := range members {
		m.Files = append(m.Files, mb.entry)
	}
	res.Manifest = m
	manifestJSON, err := m.Marshal()
	if err != nil {
		return nil, err
	}

	var jws string
	if opts.SignKey != nil {
		canon, err := sign.Canonicalize(manifestJSON)
		if err != nil {
			return nil, err
		}
		if jws, err = sign.SignDetachedWith(opts.SignKey, opts.SignKid, canon); err != nil {
			return nil, err
		}
	}

	archive, err := atomicfile.Create(opts.Out, 0o644)
	if err != nil {
		return nil, err
	}
	defer archive.Abort()
	digests := newArchiveDigests(archive, opts.SSHSig || opts.Attest)
	counter := &countingWriter{w: digests}
	var packed func(int)
	if opts.Progress != nil {
		packed = func(n int) { opts.Progress("Packing", n, len(members)) }
	}
	if err := writeArchive(counter, manifestJSON, members, packed, clk); err != nil {
		return nil, fmt.Errorf("write %s: %w", opts.Out, err)
	}
	res.Size = counter.n
	// Sign first, publish second: the signature file is ready before the archive appears, and if the signature
	// cannot be written the archive is removed again, so no unsigned bundle is left where a signed one was asked for.
	var sigFile *atomicfile.File
	if jws != "" {
		res.Signature = opts.Out + ".jws"
		if sigFile, err = atomicfile.Create(res.Signature, 0o644); err != nil {
			return nil, err
		}
		defer sigFile.Abort()
		if _, err := io.WriteString(sigFile, jws); err != nil {
			return nil, fmt.Errorf("write %s: %w", res.Signature, err)
		}
	}
	sidecars, err := writeSidecars(opts, res, digests, manifestJSON)
	if err != nil {
		return nil, err
	}
	defer sidecars.abort()
	if err := archive.Commit(false); err != nil {
		return nil, err
	}
	if sigFile != nil {
		if err := sigFile.Commit(false); err != nil {
			os.Remove(opts.Out)
			return nil, err
		}
	} else {
		// An old signature beside a new unsigned archive would fail verification confusingly: remove it.
		os.Remove(opts.Out + ".jws")
	}
	if err := sidecars.commit(opts.Out); err != nil {
		os.Remove(opts.Out)
		os.Remove(opts.Out + ".jws")
		return nil, err
	}
	return res, nil
}

// patchableCommits are the tied non-merge commits, oldest first, whose first parent is in the repository.
func patchableCommits(repo *gitext.Repo, commits *discover.Commits) ([]gitext.Hash, []string) {
	var out []gitext.Hash
	var warnings []string
	for _, d := range commits.Details {
		h := gitext.NewHash(d.SHA)
		if len(d.Parents) > 1 {
			continue // merges are in commits.json, not in the patch
		}
		if repo.IsShallow(h) && len(d.Parents) == 1 {
			warnings = append(warnings, fmt.Sprintf("commit %s is at the shallow boundary: its parent is missing, so it is not in git/diff.patch", d.SHA[:12]))
			continue
		}
		out = append(out, h)
	}
	return out, warnings
}

// prMember writes a change-control member, whose name must be a pr/ member's (and not pr/sources.json).
func prMember(work string, c PRMember) (member, error) {
	if !strings.HasPrefix(c.Name, "pr/") || c.Name == prsource.Arcname || c.From.Arcname != c.Name {
		return member{}, fmt.Errorf("pull request member %q is not a pr/ member", c.Name)
	}
	return workMember(work, c.Name, manifest.SectionPR, func(w io.Writer) error { _, err := w.Write(c.Data); return err })
}

// workMember writes a generated member (commits.json, diff.patch, a PR payload, a slice) into the work folder.
func workMember(work, arcname, section string, fill func(io.Writer) error) (member, error) {
	f, err := os.CreateTemp(work, "member-*")
	if err != nil {
		return member{}, fmt.Errorf("create a work file for %s in %s: %w", arcname, work, err)
	}
	path := f.Name()
	defer f.Close()
	bw := bufio.NewWriterSize(f, 64<<10)
	cw := &countingWriter{w: bw}
	if err := fill(cw); err != nil {
		return member{}, err
	}
	if err := bw.Flush(); err != nil {
		return member{}, fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return member{}, fmt.Errorf("write %s: %w", path, err)
	}
	return member{entry: manifest.Entry{Arcname: arcname, Section: section, SizeBytes: cw.n}, source: path,
		open: func() (*os.File, error) { return os.Open(path) }}, nil
}

// appendNew appends the lines not already in list: a symlinked lineage folder is reported once, not once by
// the .sdd walk and once more by the lineage v2 reader.
func appendNew(list []string, lines ...string) []string {
	for _, l := range lines {
		if !slices.Contains(list, l) {
			list = append(list, l)
		}
	}
	return list
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
