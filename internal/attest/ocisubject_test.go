package attest

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// A statement may name, after the archive, exactly one OCI manifest (oci://HOST[:PORT]/REPOSITORY@sha256:<hex>,
// its one digest that sha256); CheckBundle says which, and refuses every other extra subject.
func TestCheckBundleOCIManifestSubject(t *testing.T) {
	t.Parallel()
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	sum := sha256.Sum256([]byte("archive bytes"))
	hexSum := hex.EncodeToString(sum[:])
	manifest := strings.Repeat("ab", 32)
	other := strings.Repeat("cd", 32)
	archive := Subject{Name: "ENG-42.tar.gz", Digest: map[string]string{"sha256": hexSum}}
	oci := func(name string, digest map[string]string) Subject { return Subject{Name: name, Digest: digest} }
	good := oci("oci://registry.example.com:5000/team/evidence@sha256:"+manifest, map[string]string{"sha256": manifest})
	for _, tc := range []struct {
		name     string
		subjects []Subject
		want     string // the OCIManifest CheckBundle reports; "" with wantErr false: none
		wantErr  bool
	}{
		{"archive alone", []Subject{archive}, "", false},
		{"archive and its OCI manifest", []Subject{archive, good}, good.Name, false},
		{"IPv6 loopback registry", []Subject{archive, oci("oci://[::1]:5000/evidence@sha256:"+manifest,
			map[string]string{"sha256": manifest})}, "oci://[::1]:5000/evidence@sha256:" + manifest, false},
		{"no subject", nil, "", true},
		{"two OCI manifests", []Subject{archive, good, good}, "", true},
		{"OCI manifest first", []Subject{good, archive}, "", true},
		{"another file", []Subject{archive, oci("other.tar.gz", map[string]string{"sha256": other})}, "", true},
		{"name and digest differ", []Subject{archive, oci("oci://r.example/e@sha256:"+manifest,
			map[string]string{"sha256": other})}, "", true},
		{"a second digest", []Subject{archive, oci(good.Name, map[string]string{"sha256": manifest, "sha512": other})}, "", true},
		{"tag, not digest", []Subject{archive, oci("oci://r.example/e:latest", map[string]string{"sha256": manifest})}, "", true},
		{"upper-case repository", []Subject{archive, oci("oci://r.example/Team@sha256:"+manifest,
			map[string]string{"sha256": manifest})}, "", true},
		{"control character", []Subject{archive, oci("oci://r.example/e\x1b[2J@sha256:"+manifest,
			map[string]string{"sha256": manifest})}, "", true},
		{"credentials in the name", []Subject{archive, oci("oci://u:p@r.example/e@sha256:"+manifest,
			map[string]string{"sha256": manifest})}, "", true},
		{"another scheme", []Subject{archive, oci("https://r.example/e@sha256:"+manifest,
			map[string]string{"sha256": manifest})}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st, err := Canonical(Statement{Type: StatementType, Subject: tc.subjects, PredicateType: PredicateType,
				Predicate: json.RawMessage(manifestJSON)})
			if err != nil {
				t.Fatal(err)
			}
			line, err := Seal(priv, "k1", PayloadType, st)
			if err != nil {
				t.Fatal(err)
			}
			o, err := Open(line, []sign.TrustedKey{{Kid: "k1", Public: pub}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := CheckBundle(o, "ENG-42.tar.gz", hexSum, []byte(manifestJSON))
			if tc.wantErr {
				if !errors.Is(err, ErrMismatch) {
					t.Fatalf("accepted: %+v %v", got, err)
				}
				if strings.ContainsRune(err.Error(), 0x1b) {
					t.Fatalf("the error carries a control character: %q", err)
				}
				return
			}
			if err != nil || got.OCIManifest != tc.want {
				t.Fatalf("CheckBundle: %+v %v, want OCI manifest %q", got, err, tc.want)
			}
		})
	}
}

// SealBundle writes the OCI manifest subject after the archive's, and refuses anything else there.
func TestSealBundleOCIManifestSubject(t *testing.T) {
	t.Parallel()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	manifest := strings.Repeat("ab", 32)
	s, err := OCIManifestSubject("127.0.0.1:5000/team/evidence", manifest)
	if err != nil {
		t.Fatal(err)
	}
	st, err := BundleStatement("a.tar.gz", strings.Repeat("0", 64), []byte(manifestJSON), s)
	if err != nil {
		t.Fatal(err)
	}
	want := `"subject":[{"digest":{"sha256":"` + strings.Repeat("0", 64) + `"},"name":"a.tar.gz"},{"digest":{"sha256":"` +
		manifest + `"},"name":"oci://127.0.0.1:5000/team/evidence@sha256:` + manifest + `"}]`
	if !strings.Contains(string(st), want) {
		t.Fatalf("statement %s\nlacks %s", st, want)
	}
	if _, err := SealBundle(priv, "k", "a.tar.gz", "00", []byte(manifestJSON), s, s); err == nil {
		t.Fatal("two OCI subjects sealed")
	}
	if _, err := SealBundle(priv, "k", "a.tar.gz", "00", []byte(manifestJSON), Subject{Name: "x", Digest: map[string]string{"sha256": manifest}}); err == nil {
		t.Fatal("another subject sealed")
	}
	for _, repo := range []string{"Registry.example/Team", "r.example", "r.example/e:tag", "u@r.example/e"} {
		if _, err := OCIManifestSubject(repo, manifest); err == nil {
			t.Errorf("OCIManifestSubject(%q) accepted", repo)
		}
	}
}
