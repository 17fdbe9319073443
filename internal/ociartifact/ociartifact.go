// Package ociartifact builds the OCI image manifest an archive becomes in an OCI store (package store, "The OCI
// layout"), from what the note says and the archive's size alone: no upload time, no registry. The same archive
// so gives the same manifest bytes, and the same digest, in every registry and before any upload, which is what
// lets bundle sign a statement about the manifest (Subject) when the archive is written.
package ociartifact

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/git-bernstein/git-bernstein/internal/attest"
)

// Artifact and layer types, and the annotations of an archive's manifest and its sidecars' manifests.
const (
	ArchiveType      = "application/vnd.git-bernstein.bundle.v1"
	ArchiveLayerType = "application/vnd.git-bernstein.bundle.v1.tar+gzip"

	AnnTracker = "io.github.git-bernstein.tracker"
	AnnTicket  = "io.github.git-bernstein.ticket"
	AnnBundle  = "io.github.git-bernstein.bundle.sha256"
	AnnSidecar = "io.github.git-bernstein.sidecar.sha256"
)

// Archive is what an archive's manifest is made of: the note's tracker, ticket, bundle (file name), bundle_sha256
// (hex) and created_at (left out when empty), and the archive's size in bytes.
type Archive struct {
	Tracker, Ticket, Bundle, SHA256, CreatedAt string
	Size                                       int64
}

// Manifest is m as an artifact manifest: schema version 2, the image manifest media type, and the empty JSON
// config under the artifact's own media type as well as artifactType (image-spec 1.1 allows both): registries
// that list referrers by config media type, as some did before 1.1 was final, then list the same type as those
// that read artifactType. It returns the bytes and their descriptor (with artifactType and annotations).
func Manifest(m ocispec.Manifest) ([]byte, ocispec.Descriptor) {
	m.Versioned = specs.Versioned{SchemaVersion: 2}
	m.Config = ocispec.Descriptor{MediaType: m.ArtifactType, Digest: ocispec.DescriptorEmptyJSON.Digest, Size: ocispec.DescriptorEmptyJSON.Size}
	m.MediaType = ocispec.MediaTypeImageManifest
	data, _ := json.Marshal(m) // a struct of strings and numbers: cannot fail
	d := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromBytes(data), Size: int64(len(data))}
	d.ArtifactType, d.Annotations = m.ArtifactType, m.Annotations
	return data, d
}

// ArchiveManifest is the archive's manifest: artifact type ArchiveType, one layer (the archive, titled with its
// file name), annotated with the tracker, ticket, bundle sha256 and, when given, created_at.
func ArchiveManifest(a Archive) ([]byte, ocispec.Descriptor) {
	layer := ocispec.Descriptor{MediaType: ArchiveLayerType, Digest: digest.NewDigestFromEncoded(digest.SHA256, a.SHA256),
		Size: a.Size, Annotations: map[string]string{ocispec.AnnotationTitle: a.Bundle}}
	ann := map[string]string{AnnTracker: a.Tracker, AnnTicket: a.Ticket, AnnBundle: a.SHA256}
	if a.CreatedAt != "" {
		ann[ocispec.AnnotationCreated] = a.CreatedAt
	}
	return Manifest(ocispec.Manifest{ArtifactType: ArchiveType, Layers: []ocispec.Descriptor{layer}, Annotations: ann})
}

// IsStore says whether a bernstein.store value names an OCI registry (oci://…, the scheme in any case).
func IsStore(storeURL string) bool {
	scheme, _, ok := strings.Cut(storeURL, "://")
	return ok && strings.EqualFold(scheme, "oci")
}

// FirstStore is the first of the bernstein.store values that names an OCI registry, "" when none does: the
// store whose manifest a statement names.
func FirstStore(storeURLs []string) string {
	for _, u := range storeURLs {
		if IsStore(u) {
			return u
		}
	}
	return ""
}

// Subject is the in-toto subject naming the archive's manifest in the OCI store storeURL
// (oci://HOST[:PORT]/REPOSITORY): oci://HOST[:PORT]/REPOSITORY@sha256:<manifest hex>, digest that sha256
// (package attest, "OCI manifest subject"). The digest is the same in every registry; the name says where the
// first one configured keeps it.
func Subject(storeURL string, a Archive) (attest.Subject, error) {
	_, repo, _ := strings.Cut(storeURL, "://")
	if !IsStore(storeURL) {
		return attest.Subject{}, fmt.Errorf("bernstein.store %q is not oci://HOST[:PORT]/REPOSITORY", storeURL)
	}
	_, d := ArchiveManifest(a)
	s, err := attest.OCIManifestSubject(repo, d.Digest.Encoded())
	if err != nil {
		return attest.Subject{}, fmt.Errorf("bernstein.store %q: %w", storeURL, err)
	}
	return s, nil
}
