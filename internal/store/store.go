// Package store keeps bundle archives and their sidecars in the stores named by git config bernstein.store, for
// teams that outgrow one repository: push and the post-merge hook upload there, get reads from there. Every
// store is found by the digest a note gives (bundle_sha256), and whatever a store returns is read as hostile:
// sizes are bounded before anything is read, and every file is checked against its digest before it is
// returned.
//
// Only OCI registries (oci://HOST[:PORT]/REPOSITORY) are implemented; s3:// is refused with a clear error until
// the S3 store (issue 28) lands.
package store

import (
	"context"
	"fmt"
	"strings"

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
}

// Store is one configured store.
type Store interface {
	// URL is the store as configured, without credentials (none are ever part of it).
	URL() string
	// Put uploads the archive and every sidecar the store lacks; added counts the files uploaded. A second Put
	// of the same item uploads nothing.
	Put(ctx context.Context, it Item) (added int, err error)
	// Get reads the archive with the noted digest and its sidecars; ok is false when the store does not hold it.
	// A copy with another digest is an error, never returned; skipped says which sidecars were passed over.
	Get(ctx context.Context, tracker, ticket, digest string) (h *archives.Held, skipped []string, ok bool, err error)
}

// Options are what opening a store may need from the caller's environment.
type Options struct {
	// Getenv reads the environment (DOCKER_CONFIG, HOME) of the run; nil means none.
	Getenv func(string) string
}

// Open makes the store a bernstein.store value names.
func Open(raw string, o Options) (Store, error) {
	scheme, _, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, fmt.Errorf("bernstein.store %q is not a URL: use oci://HOST[:PORT]/REPOSITORY", raw)
	}
	switch strings.ToLower(scheme) {
	case "oci":
		return openOCI(raw, o)
	case "s3":
		return nil, fmt.Errorf("bernstein.store %q: S3 stores are not supported yet (issue 28); use oci://HOST[:PORT]/REPOSITORY", raw)
	}
	return nil, fmt.Errorf("bernstein.store %q: unknown scheme %q; use oci://HOST[:PORT]/REPOSITORY", raw, scheme)
}
