// Package store keeps bundle archives and their sidecars in the stores named by git config bernstein.store, for
// teams that outgrow one repository: push and the post-merge hook upload there, get reads from there. Every
// store is found by the digest a note gives (bundle_sha256), and whatever a store returns is read as hostile:
// sizes are bounded before anything is read, and every file is checked against its digest before it is
// returned.
//
// Two kinds: OCI registries (oci://HOST[:PORT]/REPOSITORY, oci.go) for distribution, and S3 buckets with Object
// Lock (s3://BUCKET[/PREFIX], s3.go) for write-once retention. The layout of each is described in its file.
//
// # Versions
//
// An S3 bucket keeps every version written under a key, and Object Lock protects versions, not keys: a later
// PUT (by anyone allowed to write) makes a new latest version that a plain GET returns. So put returns, in its
// Receipt, the version id of each file it wrote or found, the caller keeps them in refs/bernstein/archives as a
// store record (archives.StoreRecord, beside the archive they are of), and get is given them back and reads those
// versions; a key without a record is read at its latest version, and the sha256 check refuses a replaced one.
package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/archives"
)

// Item is one noted archive to upload, with its sidecars, as the bundles folder or refs/bernstein/archives holds
// it (already checked against the note).
type Item struct {
	Tracker, Ticket string
	Bundle          string // the archive's file name, as noted
	SHA256          string // the noted bundle_sha256
	CreatedAt       string // the noted created_at, if any
	Archive         []byte
	Sidecars        []archives.Sidecar // archives.Kinds, and attest.SigstoreSuffix for the Sigstore bundle
	// Known are the versions store records keep for this store (S3): a key whose latest version is the recorded
	// one is not read again to be checked.
	Known []archives.StoredObject
}

// Store is one configured store.
type Store interface {
	// URL is the store as configured, without credentials (none are ever part of it).
	URL() string
	// Put uploads the archive and every sidecar the store lacks. A second Put of the same item uploads nothing.
	Put(ctx context.Context, it Item) (Receipt, error)
	// Get reads the archive with the noted digest and its sidecars; ok is false when the store does not hold it.
	// A copy with another digest is an error, never returned; skipped says which sidecars were passed over.
	// known are the versions a store record kept for this store (nil: none; stores without versions ignore it).
	Get(ctx context.Context, tracker, ticket, digest string, known []archives.StoredObject) (h *archives.Held, skipped []string, ok bool, err error)
}

// Receipt is what Put did: how many files it uploaded, and (S3) the key and version of every file of the item,
// uploaded now or found there, for the caller to keep as an archives.StoreRecord.
type Receipt struct {
	Added    int
	Versions []archives.StoredObject
}

// Options are what opening a store may need from the caller's environment.
type Options struct {
	// Getenv reads the environment (DOCKER_CONFIG, HOME; AWS_*) of the run; nil means none.
	Getenv func(string) string
	// Retention is what S3 stores lock each object with (bernstein.retention, …; push --no-retention).
	Retention Retention
	// Now is the run's clock (nil: time.Now), for retention counted from a note without created_at.
	Now func() time.Time
}

// Open makes the store a bernstein.store value names.
func Open(raw string, o Options) (Store, error) {
	scheme, _, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, fmt.Errorf("bernstein.store %q is not a URL: use oci://HOST[:PORT]/REPOSITORY or s3://BUCKET[/PREFIX]", raw)
	}
	switch strings.ToLower(scheme) {
	case "oci":
		return openOCI(raw, o)
	case "s3":
		return openS3(raw, o)
	}
	return nil, fmt.Errorf("bernstein.store %q: unknown scheme %q; use oci://HOST[:PORT]/REPOSITORY or s3://BUCKET[/PREFIX]", redactS3(raw), scheme)
}
