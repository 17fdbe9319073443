package ociartifact

import (
	"strings"
	"testing"
)

// The manifest's bytes are a format: statements signed at bundle time name their digest, so any change to them
// (a member, an annotation, the order) must be deliberate. The digest below is what this code writes for a fixed
// archive; the registry round trip is in package store (TestPutWritesTheAttestedManifest).
func TestArchiveManifestIsStable(t *testing.T) {
	t.Parallel()
	a := Archive{Tracker: "github", Ticket: "ENG-42", Bundle: "1a2b3c4d5e6f.tar.gz", SHA256: strings.Repeat("ab", 32),
		CreatedAt: "2026-01-01T00:00:00Z", Size: 1234}
	data, d := ArchiveManifest(a)
	want := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",` +
		`"artifactType":"application/vnd.git-bernstein.bundle.v1","config":{"mediaType":"application/vnd.git-bernstein.bundle.v1",` +
		`"digest":"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","size":2},` +
		`"layers":[{"mediaType":"application/vnd.git-bernstein.bundle.v1.tar+gzip","digest":"sha256:` + strings.Repeat("ab", 32) +
		`","size":1234,"annotations":{"org.opencontainers.image.title":"1a2b3c4d5e6f.tar.gz"}}],` +
		`"annotations":{"io.github.git-bernstein.bundle.sha256":"` + strings.Repeat("ab", 32) + `",` +
		`"io.github.git-bernstein.ticket":"ENG-42","io.github.git-bernstein.tracker":"github",` +
		`"org.opencontainers.image.created":"2026-01-01T00:00:00Z"}}`
	if string(data) != want {
		t.Fatalf("manifest\n%s\nwant\n%s", data, want)
	}
	if d.Size != int64(len(data)) || d.ArtifactType != ArchiveType {
		t.Fatalf("descriptor %+v", d)
	}
	s, err := Subject("oci://127.0.0.1:5000/team/evidence", a)
	if err != nil || s.Name != "oci://127.0.0.1:5000/team/evidence@"+d.Digest.String() || s.Digest["sha256"] != d.Digest.Encoded() {
		t.Fatalf("Subject: %+v %v", s, err)
	}
	for _, bad := range []string{"s3://bucket/x", "oci://Registry/Team", "oci://r.example"} {
		if _, err := Subject(bad, a); err == nil {
			t.Errorf("Subject(%q) accepted", bad)
		}
	}
}
