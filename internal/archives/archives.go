// Package archives keeps bundle archives and their sidecars as git objects, on refs/bernstein/archives, so that
// they travel with the notes that name them (git bernstein push, fetch, get).
//
// # Ref and tree
//
// The ref names a commit whose tree holds, for each bundle, files named by content:
//
//	<tracker>/<ticket>/<bundle sha256>.tar.gz                       the archive
//	<tracker>/<ticket>/<bundle sha256>.<sidecar sha256>.jws         its detached JWS
//	<tracker>/<ticket>/<bundle sha256>.<sidecar sha256>.sig         its SSH signature
//	<tracker>/<ticket>/<bundle sha256>.<sidecar sha256>.intoto.jsonl its attestation
//
//	<tracker>/<ticket>/<bundle sha256>.<record sha256>.store.json   where a store keeps it (StoreRecord)
//
// tracker and ticket as the bundles folder names them (record.PathPart); sha256s are lower-case hex. A name says
// what its file holds, so two writers either write the same blob under a name or different names, and two
// signatures of one archive (two signers, or one re-signed) sit side by side. The tree is write-once: files are
// only added, trees from two clones merge as their union, and a name holding two different blobs is a conflict
// refused loudly (gitext.ErrTreeConflict), never resolved by overwriting.
//
// # Store records
//
// A .store.json file says at which version an S3 store (package store) keeps each file of the archive, so that
// get reads the version push wrote and not a later one written under the same key. It is one JSON object with
// sorted keys, written as encoding/json writes StoreRecord, at most 64 KiB:
//
//	{"objects":[{"key":"evidence/github/ENG-42/<hex>.tar.gz","sha256":"<hex>","version_id":"<id>"},…],
//	 "store":"s3://bucket/evidence","v":1}
//
// objects sorted by key. Like every file here it is named by its content, so two pushes that find the same
// versions write the same record, and a record per store (or per later sidecar) sits beside the others. A record
// is a hint, never a proof: get still checks every file it reads against the digest its name or the note gives.
// Versions before this record refuse a tree that holds one (as they refuse any name they do not know).
//
// A tree fetched from a remote is read as hostile (Check): exactly three levels, folders and regular 0644 files
// only (no symlink, gitlink or executable), names exactly as above, sizes bounded; and every file read is checked
// against the sha256 its name gives before it is used (Find).
package archives

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/record"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// Ref is where the archives are kept.
const Ref gitext.RefName = "refs/bernstein/archives"

// Sidecar kinds, by the suffix a bundle's sidecar file has beside its archive.
const (
	JWS         = ".jws"
	SSHSig      = ".sig"
	Attestation = ".intoto.jsonl"
	// StoreKind is the suffix of a store record (StoreRecord): kept in the ref, never written out as a sidecar.
	StoreKind = ".store.json"
)

// Kinds lists the sidecar suffixes in the order they are written.
var Kinds = []string{JWS, SSHSig, Attestation}

// Size limits: what is read of a file from the ref (a remote's), and of a tree.
const (
	MaxArchive     = 1 << 30  // a bundle archive; verify's inflated limit is of the same order
	MaxSignature   = 64 << 10 // a .jws or .sig: a few hundred bytes in practice
	MaxAttestation = 32 << 20 // an in-toto envelope (attest.MaxEnvelope is 24 MiB)
	MaxStoreRecord = 64 << 10 // a store record: about 150 bytes a file
	maxEntries     = 1 << 20
	maxNamePart    = 255
)

// MaxFor is the most bytes a file of this kind ("" for the archive) may hold, wherever it is read from.
func MaxFor(kind string) int64 {
	switch kind {
	case "":
		return MaxArchive
	case Attestation:
		return MaxAttestation
	case StoreKind:
		return MaxStoreRecord
	}
	return MaxSignature
}

var (
	// Compiled when first used, not at every command's start-up: {64} is a program of 64 steps.
	archiveName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-f]{64})\.tar\.gz$`) })
	sidecarName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([0-9a-f]{64})\.([0-9a-f]{64})(\.jws|\.sig|\.intoto\.jsonl|\.store\.json)$`)
	})
)

// Dir is the folder of a ticket's files in the tree.
func Dir(tracker, ticket string) string {
	return record.PathPart(tracker) + "/" + record.PathPart(ticket)
}

// ArchivePath is where the archive with digest sum is kept.
func ArchivePath(tracker, ticket, sum string) string {
	return Dir(tracker, ticket) + "/" + sum + ".tar.gz"
}

// SidecarPath is where a sidecar of kind (JWS, SSHSig, Attestation) with digest sideSum, of the archive with
// digest sum, is kept.
func SidecarPath(tracker, ticket, sum, sideSum, kind string) string {
	return Dir(tracker, ticket) + "/" + sum + "." + sideSum + kind
}

// Bundle is one recorded bundle to keep: the files as the bundles folder holds them.
type Bundle struct {
	Tracker, Ticket string
	SHA256          string            // the noted bundle_sha256
	Archive         string            // path of the archive
	Sidecars        map[string]string // kind → path, for the sidecars written
}

// Store adds bundles to the ref in one commit. Each archive is read again and must still have its noted digest
// (a file changed since it was noted is refused, not kept). added counts the new files.
func Store(r *gitext.Repo, sig gitext.Signature, bundles []Bundle) (added int, err error) {
	var files []objstore.TreeFile
	for _, b := range bundles {
		data, err := regularfile.ReadFile(b.Archive, "bundle", MaxArchive)
		if err != nil {
			return 0, err
		}
		if got := sum(data); got != b.SHA256 {
			return 0, fmt.Errorf("%s has sha256 %s, not the noted %s: not kept in %s", b.Archive, got, b.SHA256, Ref)
		}
		blob, err := objstore.Of(r).WriteBlob(data)
		if err != nil {
			return 0, err
		}
		files = append(files, objstore.TreeFile{Path: ArchivePath(b.Tracker, b.Ticket, b.SHA256), Blob: blob})
		for _, kind := range Kinds {
			p, ok := b.Sidecars[kind]
			if !ok || p == "" {
				continue
			}
			side, err := regularfile.ReadFile(p, "sidecar", MaxFor(kind))
			if err != nil {
				return 0, err
			}
			blob, err := objstore.Of(r).WriteBlob(side)
			if err != nil {
				return 0, err
			}
			files = append(files, objstore.TreeFile{Path: SidecarPath(b.Tracker, b.Ticket, b.SHA256, sum(side), kind), Blob: blob})
		}
	}
	return objstore.Of(r).AddFiles(Ref, sig, "Archives added by 'git bernstein'\n", files)
}

func sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Check judges the tree of a commit from elsewhere before any of it is merged: the layout of the package comment,
// exactly; at most maxEntries entries; every file within its size limit. Folders that the local ref holds under
// the same hash (already checked when they came in, or written here) are not read again, so a fetch that brings
// little costs little.
func Check(r *gitext.Repo, tree gitext.Hash) error {
	_, local, err := objstore.Of(r).RefCommit(Ref)
	if err != nil {
		return err
	}
	// A folder is known at its level only: a ticket folder's hash is no warrant for a tracker folder's contents.
	type level struct {
		depth int
		hash  gitext.Hash
	}
	known := map[level]bool{}
	if !local.IsZero() {
		if err := objstore.Of(r).CheckTree(local, objstore.TreeLimits{}, func(p string, e gitext.TreeEntry) error {
			if e.Mode != gitext.ModeDir {
				return nil
			}
			depth := strings.Count(p, "/")
			known[level{depth, e.Hash}] = true
			if depth >= 1 {
				return objstore.SkipTree
			}
			return nil
		}); err != nil {
			return err
		}
	}
	lim := objstore.TreeLimits{MaxEntries: maxEntries, MaxDepth: 3}
	return objstore.Of(r).CheckTree(tree, lim, func(p string, e gitext.TreeEntry) error {
		parts := strings.Split(p, "/")
		if len(parts) < 3 {
			if e.Mode != gitext.ModeDir {
				return fmt.Errorf("%s: %s is not a folder (mode %s); only <tracker>/<ticket>/ folders belong there", Ref, p, e.Mode)
			}
			if !safePart(e.Name) {
				return fmt.Errorf("%s: folder name %q is not one git-bernstein writes", Ref, e.Name)
			}
			if known[level{len(parts) - 1, e.Hash}] {
				return objstore.SkipTree
			}
			return nil
		}
		if e.Mode != gitext.ModeRegular {
			return fmt.Errorf("%s: %s has mode %s; only regular files (100644) are kept", Ref, p, e.Mode)
		}
		kind, ok := fileKind(e.Name)
		if !ok {
			return fmt.Errorf("%s: file name %q is not <sha256>.tar.gz or <sha256>.<sha256>{.jws,.sig,.intoto.jsonl,.store.json}", Ref, p)
		}
		n, err := objstore.Of(r).BlobSize(e.Hash)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", Ref, p, err)
		}
		if n > MaxFor(kind) {
			return fmt.Errorf("%s: %s is %d bytes, more than the %d allowed", Ref, p, n, MaxFor(kind))
		}
		return nil
	})
}

// safePart is a folder name as record.PathPart makes them: nothing it would change, not . or .., bounded.
func safePart(s string) bool {
	return s != "" && len(s) <= maxNamePart && record.PathPart(s) == s
}

// fileKind says which file a tree name is: "" for an archive, a sidecar suffix, or not ok.
func fileKind(name string) (string, bool) {
	if archiveName().MatchString(name) {
		return "", true
	}
	if m := sidecarName().FindStringSubmatch(name); m != nil {
		return m[3], true
	}
	return "", false
}

// Sidecar is one sidecar kept for an archive.
type Sidecar struct {
	Kind   string // JWS, SSHSig or Attestation
	SHA256 string
	Data   []byte
}

// Held is what the ref keeps for one noted bundle.
type Held struct {
	Archive  []byte
	Sidecars []Sidecar // by kind, then digest
}

// Has says whether the ref keeps the archive with that digest of the ticket, without reading it.
func Has(r *gitext.Repo, tracker, ticket, digest string) (bool, error) {
	_, tree, err := objstore.Of(r).RefCommit(Ref)
	if err != nil {
		return false, err
	}
	_, _, ok, err := objstore.Of(r).TreeEntryAt(tree, ArchivePath(tracker, ticket, digest))
	return ok, err
}

// Find reads the archive with that digest of the ticket, and its sidecars, from the ref; ok is false when the ref
// does not keep it. Every file is checked against the digest its name gives (the archive against digest, the note's
// bundle_sha256): a file that does not match is an error, never returned.
func Find(r *gitext.Repo, tracker, ticket, digest string) (h *Held, ok bool, err error) {
	_, tree, err := objstore.Of(r).RefCommit(Ref)
	if err != nil || tree.IsZero() {
		return nil, false, err
	}
	if !archiveName().MatchString(digest + ".tar.gz") {
		return nil, false, fmt.Errorf("noted digest %q is not a sha256", digest)
	}
	dirHash, mode, ok, err := objstore.Of(r).TreeEntryAt(tree, Dir(tracker, ticket))
	if err != nil || !ok || mode != gitext.ModeDir {
		return nil, false, err
	}
	entries, err := objstore.Of(r).TreeEntries(dirHash)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", Ref, err)
	}
	h, ok = &Held{}, false
	for _, e := range entries {
		if !strings.HasPrefix(e.Name, digest+".") || e.Mode != gitext.ModeRegular {
			continue
		}
		kind, known := fileKind(e.Name)
		if !known || kind == StoreKind { // store records: Records reads them
			continue
		}
		data, err := objstore.Of(r).ReadBlobMax(e.Hash, MaxFor(kind))
		if err != nil {
			return nil, false, fmt.Errorf("%s: %s/%s: %w", Ref, Dir(tracker, ticket), e.Name, err)
		}
		got := sum(data)
		if kind == "" {
			if got != digest {
				return nil, false, fmt.Errorf("%s: %s/%s holds a file with sha256 %s: refused", Ref, Dir(tracker, ticket), e.Name, got)
			}
			h.Archive, ok = data, true
			continue
		}
		m := sidecarName().FindStringSubmatch(e.Name)
		if got != m[2] {
			return nil, false, fmt.Errorf("%s: %s/%s holds a file with sha256 %s: refused", Ref, Dir(tracker, ticket), e.Name, got)
		}
		h.Sidecars = append(h.Sidecars, Sidecar{Kind: kind, SHA256: got, Data: data})
	}
	if !ok {
		return nil, false, nil
	}
	sort.SliceStable(h.Sidecars, func(i, j int) bool {
		if h.Sidecars[i].Kind != h.Sidecars[j].Kind {
			return kindOrder(h.Sidecars[i].Kind) < kindOrder(h.Sidecars[j].Kind)
		}
		return h.Sidecars[i].SHA256 < h.Sidecars[j].SHA256
	})
	return h, true, nil
}

func kindOrder(k string) int {
	for i, x := range Kinds {
		if x == k {
			return i
		}
	}
	return len(Kinds)
}
