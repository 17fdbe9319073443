package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
	"oras.land/oras-go/v2/registry/remote/retry"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/ociartifact"
)

// The OCI layout (OCI image-spec 1.1, "Guidelines for Artifact Usage"): each archive is an image manifest of
// artifact type ArchiveType, with the empty config and one layer, the archive itself, whose digest is the
// note's bundle_sha256; it is tagged TagFor(sha256) so that get finds it by the noted digest. Each sidecar is a
// manifest of its own artifact type whose subject is the archive's manifest, found through the referrers API
// (distribution-spec 1.1 "Listing Referrers") or, on registries without it, the referrers tag schema
// (sha256-<manifest hex>, an index oras-go keeps). Manifests carry only what the note says (no timestamps), so
// two clones uploading one archive write the same bytes and the same digests.
const (
	ArchiveType      = ociartifact.ArchiveType
	archiveLayerType = ociartifact.ArchiveLayerType

	annBundle  = ociartifact.AnnBundle
	annSidecar = ociartifact.AnnSidecar
)

// sidecarTypes are the artifact types of the sidecars, by kind; the layer has the same media type.
var sidecarTypes = map[string]string{
	archives.JWS:         "application/vnd.git-bernstein.jws.v1",
	archives.SSHSig:      "application/vnd.git-bernstein.sshsig.v1",
	archives.Attestation: "application/vnd.git-bernstein.intoto.v1+jsonl",
	// The Sigstore bundle under the media type cosign itself attaches bundles with, so that cosign's and
	// oras's tools see it for what it is.
	attest.SigstoreSuffix: attest.SigstoreMediaType,
}

// sidecarMax is the most bytes a sidecar of kind may hold.
func sidecarMax(kind string) int64 {
	if kind == attest.SigstoreSuffix {
		return attest.MaxSigstoreBundle
	}
	return archives.MaxFor(kind)
}

// Bounds on what a registry returns, besides archives.MaxFor for the files themselves.
const (
	maxManifest  = 64 << 10 // ours are under 2 KiB
	maxMetadata  = 4 << 20  // a referrers page or tag-schema index
	maxReferrers = 256      // referrers of one archive listed by put and get

	responseTimeout = 30 * time.Second
)

// TagFor is the tag of the archive with that sha256 (hex): 78 characters, within the 128 a tag may have.
func TagFor(sum string) string { return "bundle-sha256-" + sum }

type ociStore struct {
	raw  string
	repo *remote.Repository
}

// openOCI parses oci://HOST[:PORT]/REPOSITORY. Credentials come from the Docker configuration (docker login,
// credential helpers), never from the URL. Loopback hosts are spoken to over plain HTTP, as docker does for them;
// every other host over HTTPS.
func openOCI(raw string, o Options) (Store, error) {
	rest := raw[len("oci://"):]
	if strings.ContainsAny(rest, "@?#") {
		return nil, fmt.Errorf("bernstein.store %q: an oci:// store is HOST[:PORT]/REPOSITORY only; credentials come from docker login, not the URL", redact(raw))
	}
	ref, err := registry.ParseReference(rest)
	if err != nil || ref.Reference != "" || ref.Repository == "" {
		return nil, fmt.Errorf("bernstein.store %q is not oci://HOST[:PORT]/REPOSITORY (lower-case repository, no tag)", raw)
	}
	repo, err := remote.NewRepository(rest)
	if err != nil {
		return nil, fmt.Errorf("bernstein.store %q: %w", raw, err)
	}
	repo.PlainHTTP = isLoopback(ref.Host())
	repo.MaxMetadataBytes = maxMetadata
	repo.SkipReferrersGC = true // a sidecar is never removed, so the fallback index never needs collecting
	creds, err := credentials.NewStore(dockerConfig(o.Getenv), credentials.StoreOptions{})
	if err != nil {
		return nil, fmt.Errorf("bernstein.store %q: reading the Docker configuration: %w", raw, err)
	}
	repo.Client = &auth.Client{Client: httpClient(), Cache: auth.NewCache(), Credential: credentials.Credential(creds)}
	return &ociStore{raw: raw, repo: repo}, nil
}

// httpClient is oras-go's retrying client over a transport that gives up on a registry that does not answer: a
// response must start within responseTimeout (the body of a large archive may take longer).
func httpClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = responseTimeout
	t.TLSHandshakeTimeout = responseTimeout
	return &http.Client{Transport: retry.NewTransport(t)}
}

// redact keeps a URL's scheme and host part only, so a mistaken user:password never reaches a message.
func redact(raw string) string {
	if i := strings.LastIndex(raw, "@"); i >= 0 {
		return "oci://…@" + raw[i+1:]
	}
	return raw
}

func isLoopback(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// dockerConfig is where docker keeps credentials: $DOCKER_CONFIG/config.json, else ~/.docker/config.json.
func dockerConfig(getenv func(string) string) string {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if d := getenv("DOCKER_CONFIG"); d != "" {
		return filepath.Join(d, "config.json")
	}
	return filepath.Join(getenv("HOME"), ".docker", "config.json")
}

func (s *ociStore) URL() string { return s.raw }

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

func blobDesc(mediaType string, data []byte) ocispec.Descriptor {
	return ocispec.Descriptor{MediaType: mediaType, Digest: digest.FromBytes(data), Size: int64(len(data))}
}

// pushBlob uploads data unless the registry has it already; it reports whether it uploaded.
func (s *ociStore) pushBlob(ctx context.Context, d ocispec.Descriptor, data []byte) (bool, error) {
	ok, err := s.repo.Blobs().Exists(ctx, d)
	if err != nil || ok {
		return false, err
	}
	if err := s.repo.Blobs().Push(ctx, d, bytes.NewReader(data)); err != nil && !errors.Is(err, errdef.ErrAlreadyExists) {
		return false, err
	}
	return true, nil
}

// manifestBytes makes an artifact manifest (package ociartifact, Manifest).
func manifestBytes(m ocispec.Manifest) ([]byte, ocispec.Descriptor) { return ociartifact.Manifest(m) }

// archiveManifest is the archive's manifest, made from what the note says (package ociartifact): the bytes the
// OCI manifest subject of a bundle's attestation names.
func (s *ociStore) archiveManifest(it Item) ([]byte, ocispec.Descriptor) {
	return ociartifact.ArchiveManifest(ociartifact.Archive{Tracker: it.Tracker, Ticket: it.Ticket, Bundle: it.Bundle,
		SHA256: it.SHA256, CreatedAt: it.CreatedAt, Size: int64(len(it.Archive))})
}

// Put uploads the archive's manifest (tagged TagFor), its blob and the empty config when missing, then a
// referrer for each sidecar the registry does not list yet.
func (s *ociStore) Put(ctx context.Context, it Item) (Receipt, error) {
	n, err := s.put(ctx, it)
	return Receipt{Added: n}, err
}

func (s *ociStore) put(ctx context.Context, it Item) (int, error) {
	if sum(it.Archive) != it.SHA256 {
		return 0, fmt.Errorf("%s: the archive for %s %s is not the noted %s: not uploaded", s.raw, it.Tracker, it.Ticket, it.SHA256)
	}
	added := 0
	subject, m, err := s.resolve(ctx, it.SHA256)
	if err != nil {
		return 0, err
	}
	found := m != nil
	if _, err := s.pushBlob(ctx, ocispec.DescriptorEmptyJSON, ocispec.DescriptorEmptyJSON.Data); err != nil {
		return 0, fmt.Errorf("%s: %w", s.raw, err)
	}
	if !found {
		up, err := s.pushBlob(ctx, blobDesc(archiveLayerType, it.Archive), it.Archive)
		if err != nil {
			return 0, fmt.Errorf("%s: upload of %s: %w", s.raw, it.Bundle, err)
		}
		if up {
			added++
		}
		data, d := s.archiveManifest(it)
		if err := s.repo.Manifests().PushReference(ctx, d, bytes.NewReader(data), TagFor(it.SHA256)); err != nil {
			return added, fmt.Errorf("%s: manifest of %s: %w", s.raw, it.Bundle, err)
		}
		subject = ocispec.Descriptor{MediaType: d.MediaType, Digest: d.Digest, Size: d.Size}
	}
	// What is listed already, by the digest its annotation gives: enough to skip an upload, never trusted by get.
	have := map[string]bool{}
	if found {
		n := 0
		if err := s.repo.Referrers(ctx, subject, "", func(rs []ocispec.Descriptor) error {
			for _, r := range rs {
				have[r.ArtifactType+" "+r.Annotations[annSidecar]] = true
			}
			if n += len(rs); n > maxReferrers {
				return fmt.Errorf("more than %d referrers", maxReferrers)
			}
			return nil
		}); err != nil {
			return added, fmt.Errorf("%s: listing the sidecars of %s: %w", s.raw, it.Bundle, err)
		}
	} else if err := s.pingReferrers(ctx, subject); err != nil {
		return added, err
	}
	for _, sc := range it.Sidecars {
		typ, ok := sidecarTypes[sc.Kind]
		if !ok || have[typ+" "+sc.SHA256] {
			continue
		}
		if _, err := s.pushBlob(ctx, blobDesc(typ, sc.Data), sc.Data); err != nil {
			return added, fmt.Errorf("%s: upload of %s%s: %w", s.raw, it.Bundle, sc.Kind, err)
		}
		layer := blobDesc(typ, sc.Data)
		layer.Annotations = map[string]string{ocispec.AnnotationTitle: it.Bundle + sc.Kind}
		ann := map[string]string{annSidecar: sc.SHA256, annBundle: it.SHA256}
		if sc.Kind == attest.SigstoreSuffix {
			// What cosign's bundle specification asks of the referrer (specs/BUNDLE_SPEC.md, "Annotations").
			ann["dev.sigstore.bundle.content"], ann["dev.sigstore.bundle.predicateType"] = "dsse-envelope", attest.PredicateType
		}
		data, d := manifestBytes(ocispec.Manifest{ArtifactType: typ, Layers: []ocispec.Descriptor{layer}, Subject: &subject, Annotations: ann})
		if err := s.repo.Manifests().Push(ctx, d, bytes.NewReader(data)); err != nil {
			return added, fmt.Errorf("%s: referrer %s%s: %w", s.raw, it.Bundle, sc.Kind, err)
		}
		have[typ+" "+sc.SHA256] = true
		added++
	}
	return added, nil
}

// pingReferrers lets oras-go learn whether the registry has the referrers API before a sidecar is pushed: with
// it, no tag-schema index is written beside (a registry may take a subject without saying so in OCI-Subject).
func (s *ociStore) pingReferrers(ctx context.Context, subject ocispec.Descriptor) error {
	if err := s.repo.Referrers(ctx, subject, "", func([]ocispec.Descriptor) error { return nil }); err != nil {
		return fmt.Errorf("%s: referrers: %w", s.raw, err)
	}
	return nil
}

// resolve finds the archive manifest tagged for sum and checks it before anything else is read: one of ours,
// bounded, its one layer the archive with that digest. found is false when the tag is not there.
func (s *ociStore) resolve(ctx context.Context, sum string) (ocispec.Descriptor, *ocispec.Manifest, error) {
	none := ocispec.Descriptor{}
	d, err := s.repo.Resolve(ctx, TagFor(sum))
	if errors.Is(err, errdef.ErrNotFound) {
		return none, nil, nil
	}
	if err != nil {
		return none, nil, fmt.Errorf("%s: %w", s.raw, err)
	}
	m, err := s.fetchManifest(ctx, d)
	if err != nil {
		return none, nil, fmt.Errorf("%s: tag %s: %w", s.raw, TagFor(sum), err)
	}
	if m.ArtifactType != ArchiveType || len(m.Layers) != 1 || m.Layers[0].Digest != digest.NewDigestFromEncoded(digest.SHA256, sum) {
		return none, nil, fmt.Errorf("%s: tag %s names a manifest that is not the archive with sha256 %s: refused", s.raw, TagFor(sum), sum)
	}
	if m.Layers[0].Size < 0 || m.Layers[0].Size > archives.MaxArchive {
		return none, nil, fmt.Errorf("%s: tag %s: the archive is said to be %d bytes, more than the %d allowed", s.raw, TagFor(sum), m.Layers[0].Size, int64(archives.MaxArchive))
	}
	return ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: d.Digest, Size: d.Size}, m, nil
}

// fetchManifest reads an image manifest of at most maxManifest bytes, checked against d's digest.
func (s *ociStore) fetchManifest(ctx context.Context, d ocispec.Descriptor) (*ocispec.Manifest, error) {
	if d.Size < 0 || d.Size > maxManifest {
		return nil, fmt.Errorf("manifest %s is said to be %d bytes, more than the %d allowed", d.Digest, d.Size, maxManifest)
	}
	if d.MediaType != ocispec.MediaTypeImageManifest {
		return nil, fmt.Errorf("manifest %s has media type %q, not an OCI image manifest", d.Digest, d.MediaType)
	}
	data, err := content.FetchAll(ctx, s.repo.Manifests(), d) // checks size and digest
	if err != nil {
		return nil, err
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", d.Digest, err)
	}
	if m.MediaType != ocispec.MediaTypeImageManifest {
		return nil, fmt.Errorf("manifest %s says media type %q", d.Digest, m.MediaType)
	}
	return &m, nil
}

// fetchBlob reads a blob of d's size, at most max bytes, checked against d's digest.
func (s *ociStore) fetchBlob(ctx context.Context, d ocispec.Descriptor, max int64) ([]byte, error) {
	if d.Size < 0 || d.Size > max {
		return nil, fmt.Errorf("%s is said to be %d bytes, more than the %d allowed", d.Digest, d.Size, max)
	}
	if d.Digest.Algorithm() != digest.SHA256 || d.Digest.Validate() != nil {
		return nil, fmt.Errorf("%q is not a sha256 digest", d.Digest)
	}
	return content.FetchAll(ctx, s.repo.Blobs(), d) // checks size and digest
}

// Get reads the archive tagged for digest and each sidecar among its referrers. Every file is checked against
// its digest (the archive against the noted one) after it is read and before it is returned. A referrer of
// another artifact type (a cosign signature, say) is not read; one of ours that is not what it claims (another
// subject, too large, a blob that does not match) is passed over and said in skipped, so that a planted
// referrer cannot keep the archive from being had; an archive that does not match is an error.
func (s *ociStore) Get(ctx context.Context, tracker, ticket, want string, _ []archives.StoredObject) (*archives.Held, []string, bool, error) {
	subject, m, err := s.resolve(ctx, want)
	if err != nil || m == nil {
		return nil, nil, false, err
	}
	data, err := s.fetchBlob(ctx, m.Layers[0], archives.MaxArchive)
	if err != nil {
		return nil, nil, false, fmt.Errorf("%s: archive %s: %w", s.raw, want, err)
	}
	if got := sum(data); got != want {
		return nil, nil, false, fmt.Errorf("%s: the archive tagged %s has sha256 %s: refused", s.raw, TagFor(want), got)
	}
	h := &archives.Held{Archive: data}
	var refs []ocispec.Descriptor
	err = s.repo.Referrers(ctx, subject, "", func(rs []ocispec.Descriptor) error {
		refs = append(refs, rs...)
		if len(refs) > maxReferrers {
			return fmt.Errorf("more than %d referrers", maxReferrers)
		}
		return nil
	})
	if err != nil {
		return nil, nil, false, fmt.Errorf("%s: sidecars of %s: %w", s.raw, want, err)
	}
	var skipped []string
	seen := map[string]bool{}
	for _, r := range refs {
		kind := kindOf(r.ArtifactType)
		if kind == "" || seen[r.Digest.String()] {
			continue
		}
		seen[r.Digest.String()] = true
		sc, err := s.sidecar(ctx, r, kind, subject)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: a sidecar of %s passed over: %v", s.raw, want, err))
			continue
		}
		if !seen[sc.Kind+sc.SHA256] {
			seen[sc.Kind+sc.SHA256] = true
			h.Sidecars = append(h.Sidecars, *sc)
		}
	}
	sortSidecars(h.Sidecars)
	return h, skipped, true, nil
}

// sidecar reads one referrer: a manifest of kind's artifact type whose subject is the archive's manifest, with
// one layer within the kind's size limit, read and checked against its digest.
func (s *ociStore) sidecar(ctx context.Context, r ocispec.Descriptor, kind string, subject ocispec.Descriptor) (*archives.Sidecar, error) {
	m, err := s.fetchManifest(ctx, ocispec.Descriptor{MediaType: r.MediaType, Digest: r.Digest, Size: r.Size})
	if err != nil {
		return nil, err
	}
	if m.ArtifactType != r.ArtifactType || m.Subject == nil || m.Subject.Digest != subject.Digest || len(m.Layers) != 1 {
		return nil, fmt.Errorf("referrer %s is not a %s sidecar of this archive", r.Digest, kind)
	}
	data, err := s.fetchBlob(ctx, m.Layers[0], sidecarMax(kind))
	if err != nil {
		return nil, fmt.Errorf("referrer %s: %w", r.Digest, err)
	}
	return &archives.Sidecar{Kind: kind, SHA256: sum(data), Data: data}, nil
}

func kindOf(artifactType string) string {
	for k, t := range sidecarTypes {
		if t == artifactType {
			return k
		}
	}
	return ""
}

// sortSidecars orders sidecars as the archives ref lists them: by kind (archives.Kinds, then the rest), then digest.
func sortSidecars(sc []archives.Sidecar) {
	sort.Slice(sc, func(i, j int) bool {
		a, b := sc[i], sc[j]
		if a.Kind != b.Kind {
			return kindRank(a.Kind) < kindRank(b.Kind)
		}
		return a.SHA256 < b.SHA256
	})
}

func kindRank(k string) int {
	for i, x := range archives.Kinds {
		if x == k {
			return i
		}
	}
	return len(archives.Kinds)
}
