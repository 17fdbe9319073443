package store

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/ociartifact"
)

// serve starts go-containerregistry's in-process registry on 127.0.0.1, with or without the referrers API, behind
// wrap (nil: none), and opens the store oci://127.0.0.1:PORT/team/evidence on it.
func serve(t *testing.T, referrers bool, wrap func(http.Handler) http.Handler) (Store, *httptest.Server) {
	t.Helper()
	h := registry.New(registry.WithReferrersSupport(referrers), registry.Logger(log.New(io.Discard, "", 0)))
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	s, err := Open("oci://"+strings.TrimPrefix(srv.URL, "http://")+"/team/evidence", Options{Getenv: func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s, srv
}

func item(archive string, sidecars ...archives.Sidecar) Item {
	return Item{Tracker: "github", Ticket: "ENG-42", Bundle: "1a2b3c4d5e6f.tar.gz", SHA256: sum([]byte(archive)),
		CreatedAt: "2026-01-01T00:00:00Z", Archive: []byte(archive), Sidecars: sidecars}
}

func side(kind, data string) archives.Sidecar {
	return archives.Sidecar{Kind: kind, SHA256: sum([]byte(data)), Data: []byte(data)}
}

// The round trip on both kinds of registry: put uploads the archive and its sidecars once, get reads them back
// checked, a second put uploads nothing, and a sidecar added later (a second signature) is uploaded alone.
func TestPutGet(t *testing.T) {
	for _, referrers := range []bool{true, false} {
		name := "referrers API"
		if !referrers {
			name = "tag schema fallback"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var paths []string
			s, _ := serve(t, referrers, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					paths = append(paths, r.Method+" "+r.URL.Path)
					h.ServeHTTP(w, r)
				})
			})
			ctx := context.Background()
			it := item("archive bytes", side(archives.JWS, "jws"), side(archives.Attestation, "{}\n"))
			if _, _, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, nil); ok || err != nil {
				t.Fatalf("get from an empty registry: %v %v", ok, err)
			}
			if n, err := s.Put(ctx, it); n.Added != 3 || err != nil {
				t.Fatalf("put: %d %v", n.Added, err)
			}
			if n, err := s.Put(ctx, it); n.Added != 0 || err != nil {
				t.Fatalf("second put: %d %v", n.Added, err)
			}
			it.Sidecars = append(it.Sidecars, side(archives.JWS, "second jws"))
			if n, err := s.Put(ctx, it); n.Added != 1 || err != nil {
				t.Fatalf("put with a new sidecar: %d %v", n.Added, err)
			}
			h, skipped, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, nil)
			if !ok || err != nil || len(skipped) != 0 {
				t.Fatalf("get: %v %v %v", ok, err, skipped)
			}
			if string(h.Archive) != "archive bytes" || len(h.Sidecars) != 3 || h.Sidecars[2].Kind != archives.Attestation {
				t.Fatalf("get returned %q and %+v", h.Archive, h.Sidecars)
			}
			fallback := false
			for _, p := range paths {
				fallback = fallback || strings.Contains(p, "/manifests/sha256-")
			}
			if fallback == referrers {
				t.Errorf("with referrers API %v the tag schema was used: %v\n%s", referrers, fallback, strings.Join(paths, "\n"))
			}
		})
	}
}

// A hostile registry: an archive blob changed under its digest is refused, never returned; a sidecar blob changed
// is passed over with a reason, and the archive still had.
func TestGetChecksWhatTheRegistrySends(t *testing.T) {
	t.Parallel()
	it := item("the real archive", side(archives.JWS, "jws"))
	var tamper string
	s, _ := serve(t, true, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && tamper != "" && strings.HasSuffix(r.URL.Path, "/blobs/sha256:"+tamper) {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				body := bytes.ToUpper(rec.Body.Bytes())
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Code)
				w.Write(body)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	ctx := context.Background()
	if _, err := s.Put(ctx, it); err != nil {
		t.Fatal(err)
	}
	tamper = it.Sidecars[0].SHA256
	h, skipped, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, nil)
	if !ok || err != nil || len(h.Sidecars) != 0 || len(skipped) != 1 {
		t.Fatalf("a changed sidecar: %v %v %+v %v", ok, err, h, skipped)
	}
	tamper = it.SHA256
	if h, _, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, nil); ok || h != nil || err == nil || !strings.Contains(err.Error(), "digest") {
		t.Fatalf("a changed archive: %v %v %v", ok, h, err)
	}
	// put refuses an archive that is not the noted one
	bad := it
	bad.Archive = []byte("other")
	if _, err := s.Put(ctx, bad); err == nil {
		t.Fatal("put of an archive with another digest")
	}
}

// A tag that names something else (here: the archive's manifest tagged for another digest) is refused.
func TestGetRefusesAForeignTag(t *testing.T) {
	t.Parallel()
	s, _ := serve(t, true, nil)
	ctx := context.Background()
	it := item("one")
	if _, err := s.Put(ctx, it); err != nil {
		t.Fatal(err)
	}
	o := s.(*ociStore)
	d, err := o.repo.Resolve(ctx, TagFor(it.SHA256))
	if err != nil {
		t.Fatal(err)
	}
	other := sum([]byte("two"))
	if err := o.repo.Tag(ctx, d, TagFor(other)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := s.Get(ctx, "github", "ENG-42", other, nil); ok || err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("a tag naming another archive: %v %v", ok, err)
	}
}

func TestOpen(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"oci://registry.example.com/team/evidence": "",
		"oci://user:secret@registry.example.com/x": "credentials come from docker login",
		"oci://registry.example.com/x:latest":      "not oci://",
		"oci://registry.example.com":               "not oci://",
		"s3://bucket/prefix":                       "",
		"s3://user:secret@bucket/prefix":           "not s3://BUCKET",
		"s3://Bad_Bucket/prefix":                   "bucket",
		"s3://bucket/a/../b":                       "..",
		"s3://bucket/a\tb":                         "control character",
		"https://example.com/x":                    "unknown scheme",
		"registry.example.com/x":                   "not a URL",
	} {
		_, err := Open(raw, Options{})
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("Open(%q): %v, want %q", raw, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q) shows the password: %v", raw, err)
		}
	}
	for host, want := range map[string]bool{"127.0.0.1:5000": true, "localhost": true, "[::1]:5000": true, "registry.example.com": false, "10.0.0.1:80": false} {
		if isLoopback(host) != want {
			t.Errorf("isLoopback(%q) = %v", host, !want)
		}
	}
}

// Credentials come from the Docker configuration ($DOCKER_CONFIG/config.json), as docker login writes it; a
// registry that refuses says so without the secret in the error.
func TestDockerCredentials(t *testing.T) {
	t.Parallel()
	reg := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "ci" || p != "s3cret-token" {
			w.Header().Set("WWW-Authenticate", `Basic realm="evidence"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		reg.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	open := func(config string) Store {
		dir := t.TempDir()
		if config != "" {
			if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Open("oci://"+host+"/team/evidence", Options{Getenv: func(k string) string {
			return map[string]string{"DOCKER_CONFIG": dir}[k]
		}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ctx := context.Background()
	it := item("archive")
	wrong := `{"auths":{"` + host + `":{"auth":"` + base64.StdEncoding.EncodeToString([]byte("ci:wrong-s3cret")) + `"}}}`
	if _, err := open(wrong).Put(ctx, it); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("put with wrong credentials: %v", err)
	}
	if _, err := open("").Put(ctx, it); err == nil {
		t.Fatal("put without credentials")
	}
	right := `{"auths":{"` + host + `":{"auth":"` + base64.StdEncoding.EncodeToString([]byte("ci:s3cret-token")) + `"}}}`
	if n, err := open(right).Put(ctx, it); n.Added != 1 || err != nil {
		t.Fatalf("put with docker login's credentials: %d %v", n.Added, err)
	}
	if _, _, ok, err := open(right).Get(ctx, "github", "ENG-42", it.SHA256, nil); !ok || err != nil {
		t.Fatalf("get with docker login's credentials: %v %v", ok, err)
	}
}

// Sizes a registry states are bounded before anything is read: a tag whose manifest is said to be 10 MiB is
// refused without reading it.
func TestGetBoundsWhatTheRegistryClaims(t *testing.T) {
	t.Parallel()
	big := false
	s, _ := serve(t, true, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if big && strings.Contains(r.URL.Path, "/manifests/bundle-sha256-") {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.Header().Set("Content-Length", "10485760")
				w.WriteHeader(rec.Code)
				if r.Method == http.MethodGet {
					w.Write(bytes.Repeat([]byte(" "), 10<<20))
				}
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	ctx := context.Background()
	it := item("archive")
	if _, err := s.Put(ctx, it); err != nil {
		t.Fatal(err)
	}
	big = true
	if _, _, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, nil); ok || err == nil || !strings.Contains(err.Error(), "more than the 65536 allowed") {
		t.Fatalf("a 10 MiB manifest: %v %v", ok, err)
	}
}

// The archive's manifest is what a bundle's attestation names before any upload (package ociartifact,
// Subject): put writes exactly those bytes, so the registry's digest for the tag is the subject's, on both
// kinds of registry; and the Sigstore bundle's referrer carries the annotations cosign's bundle specification
// asks for.
func TestPutWritesTheAttestedManifest(t *testing.T) {
	for _, referrers := range []bool{true, false} {
		t.Run(map[bool]string{true: "referrers API", false: "tag schema"}[referrers], func(t *testing.T) {
			t.Parallel()
			s, _ := serve(t, referrers, nil)
			ctx := context.Background()
			it := item("archive bytes", side(attest.SigstoreSuffix, `{"sigstore":1}`))
			sub, err := ociartifact.Subject(s.URL(), ociartifact.Archive{Tracker: it.Tracker, Ticket: it.Ticket,
				Bundle: it.Bundle, SHA256: it.SHA256, CreatedAt: it.CreatedAt, Size: int64(len(it.Archive))})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Put(ctx, it); err != nil {
				t.Fatal(err)
			}
			o := s.(*ociStore)
			d, err := o.repo.Resolve(ctx, TagFor(it.SHA256))
			if err != nil {
				t.Fatal(err)
			}
			if want := s.URL() + "@" + d.Digest.String(); sub.Name != want || sub.Digest["sha256"] != d.Digest.Encoded() {
				t.Fatalf("the attestation would name %+v; the registry holds %s", sub, want)
			}
			var refs []ocispec.Descriptor
			if err := o.repo.Referrers(ctx, d, attest.SigstoreMediaType, func(rs []ocispec.Descriptor) error {
				refs = append(refs, rs...)
				return nil
			}); err != nil || len(refs) != 1 {
				t.Fatalf("referrers: %v %+v", err, refs)
			}
			m, err := o.fetchManifest(ctx, refs[0])
			if err != nil {
				t.Fatal(err)
			}
			if m.Annotations["dev.sigstore.bundle.content"] != "dsse-envelope" ||
				m.Annotations["dev.sigstore.bundle.predicateType"] != attest.PredicateType {
				t.Fatalf("the Sigstore bundle's referrer lacks cosign's annotations: %v", m.Annotations)
			}
		})
	}
}
