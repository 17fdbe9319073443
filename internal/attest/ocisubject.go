package attest

import (
	"fmt"
	"regexp"
	"sync"
)

// maxOCIName bounds an OCI manifest subject's name: a registry host and port (255), a repository (255, as
// registries limit it), the scheme and the digest.
const maxOCIName = 600

// ociName is oci://HOST[:PORT]/REPOSITORY@sha256:<64 hex> (doc.go, "OCI manifest subject"): a DNS name or a
// bracketed IPv6 address, and a repository in the distribution specification's grammar, so that the name is
// safe to print as it is.
var ociName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^oci://` +
		`(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?` +
		`/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*` +
		`@sha256:([0-9a-f]{64})$`)
})

// OCIManifestSubject is the subject naming an OCI image manifest: name oci://<repository>@sha256:<hex>, where
// repository is HOST[:PORT]/REPOSITORY, and digest {"sha256": hex}.
func OCIManifestSubject(repository, manifestHex string) (Subject, error) {
	s := Subject{Name: "oci://" + repository + "@sha256:" + manifestHex, Digest: map[string]string{"sha256": manifestHex}}
	if !isOCIManifest(s) {
		return Subject{}, fmt.Errorf("oci://%s@sha256:%s is not oci://HOST[:PORT]/REPOSITORY@sha256:<64 hex>", repository, manifestHex)
	}
	return s, nil
}

// isOCIManifest says whether s is an OCI manifest subject: its name of the form above, within maxOCIName, and
// its digest exactly one sha256, the name's.
func isOCIManifest(s Subject) bool {
	if len(s.Name) > maxOCIName || len(s.Digest) != 1 {
		return false
	}
	m := ociName().FindStringSubmatch(s.Name)
	return m != nil && s.Digest["sha256"] == m[1]
}
