package store

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/attest"
	"github.com/git-bernstein/git-bernstein/internal/s3test"
)

func openS3Store(t *testing.T, srv *s3test.Server, bucket string, ret Retention) Store {
	t.Helper()
	env := srv.Env()
	s, err := Open("s3://"+bucket+"/team/evidence", Options{Getenv: func(k string) string { return env[k] }, Retention: ret})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// lockOf reads an object version's retention and legal hold from the headers of a HEAD: versitygw's
// GetObjectRetention reply is not one minio-go reads (see the package comment of s3.go).
func lockOf(t *testing.T, srv *s3test.Server, bucket, key, version string) (mode string, until time.Time, hold string) {
	t.Helper()
	info, err := srv.Client.StatObject(context.Background(), bucket, key, minio.StatObjectOptions{VersionID: version})
	if err != nil {
		t.Fatalf("HEAD %s (version %s): %v", key, version, err)
	}
	until, _ = time.Parse(time.RFC3339, info.Headers.Get("X-Amz-Object-Lock-Retain-Until-Date"))
	return info.Headers.Get("X-Amz-Object-Lock-Mode"), until, info.Headers.Get("X-Amz-Object-Lock-Legal-Hold")
}

// What WORM promises, against a real S3 server with Object Lock: every file is written once, locked until the
// bundle's created_at plus the retention; a locked version cannot be deleted or have its retention shortened; a
// second put changes nothing; get reads the versions put wrote.
func TestS3WriteOnce(t *testing.T) {
	t.Parallel()
	srv := s3test.Need(t)
	bucket := srv.Bucket(t, true)
	ctx := context.Background()
	s := openS3Store(t, srv, bucket, Retention{Period: 48 * time.Hour, Mode: "COMPLIANCE"})
	created := time.Now().UTC().Truncate(time.Second)
	it := item("archive bytes", side(archives.JWS, "jws"), side(attest.SigstoreSuffix, "{}"))
	it.CreatedAt = created.Format(time.RFC3339)

	if _, _, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, nil); ok || err != nil {
		t.Fatalf("get from an empty bucket: %v %v", ok, err)
	}
	rc, err := s.Put(ctx, it)
	if err != nil || rc.Added != 3 || len(rc.Versions) != 3 {
		t.Fatalf("put: %+v %v", rc, err)
	}
	again, err := s.Put(ctx, it)
	if err != nil || again.Added != 0 || len(again.Versions) != 3 {
		t.Fatalf("second put: %+v %v", again, err)
	}
	for i, v := range rc.Versions {
		if v.VersionID == "" || again.Versions[i] != v {
			t.Errorf("versions: first put %+v, second %+v", v, again.Versions[i])
		}
		mode, until, hold := lockOf(t, srv, bucket, v.Key, v.VersionID)
		t.Logf("%s version %s: %s until %s, legal hold %s", v.Key, v.VersionID, mode, until, hold)
		if mode != "COMPLIANCE" || !until.Equal(created.Add(48*time.Hour)) || hold == "ON" {
			t.Errorf("%s is locked %q until %s (legal hold %q), want COMPLIANCE until %s, no hold", v.Key, mode, until, hold, created.Add(48*time.Hour))
		}
	}
	archiveKey := rc.Versions[0].Key
	if !strings.HasSuffix(archiveKey, "team/evidence/github/ENG-42/"+it.SHA256+".tar.gz") {
		t.Fatalf("archive key %q", archiveKey)
	}
	// WORM: the locked version stays, whoever asks (these are the server's administrator's credentials).
	if err := srv.Client.RemoveObject(ctx, bucket, archiveKey, minio.RemoveObjectOptions{VersionID: rc.Versions[0].VersionID}); err == nil {
		t.Error("a locked version was deleted")
	} else {
		t.Logf("delete of the locked version: %v", err)
	}
	if err := srv.Client.RemoveObject(ctx, bucket, archiveKey, minio.RemoveObjectOptions{VersionID: rc.Versions[0].VersionID,
		GovernanceBypass: true}); err == nil {
		t.Error("a COMPLIANCE version was deleted with the governance bypass")
	}
	shorter := created.Add(time.Hour)
	comp := minio.Compliance
	if err := srv.Client.PutObjectRetention(ctx, bucket, archiveKey, minio.PutObjectRetentionOptions{Mode: &comp,
		RetainUntilDate: &shorter, VersionID: rc.Versions[0].VersionID}); err == nil {
		t.Error("a COMPLIANCE retention was shortened")
	} else {
		t.Logf("shortening the retention: %v", err)
	}
	if mode, until, _ := lockOf(t, srv, bucket, archiveKey, rc.Versions[0].VersionID); mode != "COMPLIANCE" || !until.Equal(created.Add(48*time.Hour)) {
		t.Errorf("after the attempts the archive is locked %q until %s", mode, until)
	}
	// The deviation lockOf works around: minio-go cannot read versitygw's GetObjectRetention reply.
	if m, u, err := srv.Client.GetObjectRetention(ctx, bucket, archiveKey, rc.Versions[0].VersionID); err != nil || m == nil || u == nil {
		t.Logf("GetObjectRetention (known versitygw deviation): %v %v %v", m, u, err)
	}

	if n := versionsOf(t, srv, bucket, archiveKey); n != 1 {
		t.Errorf("after two puts %s has %d versions, want 1", archiveKey, n)
	}

	h, skipped, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, rc.Versions)
	if !ok || err != nil || len(skipped) != 0 || string(h.Archive) != "archive bytes" || len(h.Sidecars) != 2 ||
		h.Sidecars[0].Kind != archives.JWS || h.Sidecars[1].Kind != attest.SigstoreSuffix {
		t.Fatalf("get: %v %v %v %+v", ok, err, skipped, h)
	}

	// A sidecar planted under a name whose digest its bytes do not have is passed over, said, and the archive had.
	planted := strings.TrimSuffix(archiveKey, ".tar.gz") + "." + sum([]byte("real jws")) + archives.JWS
	if _, err := srv.Client.PutObject(ctx, bucket, planted, bytes.NewReader([]byte("fake jws")), 8, minio.PutObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	if h, skipped, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, rc.Versions); !ok || err != nil || len(h.Sidecars) != 2 ||
		len(skipped) != 1 || !strings.Contains(skipped[0], "passed over") {
		t.Fatalf("get with a planted sidecar: %v %v %v", ok, err, skipped)
	}

	// Someone writes other bytes under the archive's key: a new latest version. Put refuses it, get by the
	// recorded version still reads the original, and get without a record refuses what it finds.
	forged := []byte("ARCHIVE BYTES") // the same size, and the same x-amz-meta-sha256 as ours
	if _, err := srv.Client.PutObject(ctx, bucket, archiveKey, bytes.NewReader(forged), int64(len(forged)), minio.PutObjectOptions{
		UserMetadata: map[string]string{"sha256": it.SHA256}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, it); err == nil || !strings.Contains(err.Error(), "refused, nothing overwritten") {
		t.Fatalf("put over a changed object: %v", err)
	} else {
		t.Logf("put over a changed object: %v", err)
	}
	if h, _, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, rc.Versions); !ok || err != nil || string(h.Archive) != "archive bytes" {
		t.Fatalf("get at the recorded version after a forgery: %v %v", ok, err)
	}
	if _, _, ok, err := s.Get(ctx, "github", "ENG-42", it.SHA256, nil); ok || err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("get of the latest version, forged: %v %v", ok, err)
	}
}

func versionsOf(t *testing.T, srv *s3test.Server, bucket, key string) int {
	t.Helper()
	n := 0
	for o := range srv.Client.ListObjects(context.Background(), bucket, minio.ListObjectsOptions{Prefix: key, WithVersions: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		if o.Key == key {
			n++
		}
	}
	return n
}

// Clones pushing one archive at once: each file is written once (If-None-Match: * makes the losers find the
// winner's object), every put succeeds, and all agree on the versions.
func TestS3ConcurrentPuts(t *testing.T) {
	t.Parallel()
	srv := s3test.Need(t)
	bucket := srv.Bucket(t, true)
	it := item("raced archive", side(archives.JWS, "raced jws"))
	it.CreatedAt = time.Now().UTC().Format(time.RFC3339)
	const n = 6
	type result struct {
		rc  Receipt
		err error
	}
	results := make(chan result, n)
	for i := 0; i < n; i++ {
		go func() {
			rc, err := openS3Store(t, srv, bucket, Retention{Period: time.Hour}).Put(context.Background(), it)
			results <- result{rc, err}
		}()
	}
	added := 0
	var first []archives.StoredObject
	for i := 0; i < n; i++ {
		r := <-results
		if r.err != nil {
			t.Fatalf("put %d: %v", i, r.err)
		}
		added += r.rc.Added
		if first == nil {
			first = r.rc.Versions
		}
		for j, v := range r.rc.Versions {
			if v != first[j] {
				t.Errorf("puts disagree: %+v and %+v", v, first[j])
			}
		}
	}
	if added != 2 {
		t.Errorf("%d puts uploaded %d files, want 2", n, added)
	}
	for _, v := range first {
		if c := versionsOf(t, srv, bucket, v.Key); c != 1 {
			t.Errorf("%s has %d versions", v.Key, c)
		}
	}
}

// GOVERNANCE retention gives way to the governance bypass (that is what it is for); a legal hold does not, and
// stays until it is lifted.
func TestS3GovernanceAndLegalHold(t *testing.T) {
	t.Parallel()
	srv := s3test.Need(t)
	bucket := srv.Bucket(t, true)
	ctx := context.Background()
	for _, hold := range []bool{true, false} {
		it := item(map[bool]string{true: "held", false: "governed"}[hold])
		it.CreatedAt = time.Now().UTC().Format(time.RFC3339)
		rc, err := openS3Store(t, srv, bucket, Retention{Period: 24 * time.Hour, Mode: "GOVERNANCE", LegalHold: hold}).Put(ctx, it)
		if err != nil || rc.Added != 1 {
			t.Fatalf("put: %+v %v", rc, err)
		}
		v := rc.Versions[0]
		mode, _, h := lockOf(t, srv, bucket, v.Key, v.VersionID)
		if mode != "GOVERNANCE" || (h == "ON") != hold {
			t.Fatalf("legal hold %v: locked %q, hold %q", hold, mode, h)
		}
		err = srv.Client.RemoveObject(ctx, bucket, v.Key, minio.RemoveObjectOptions{VersionID: v.VersionID, GovernanceBypass: true})
		if hold && err == nil {
			t.Error("a version under legal hold was deleted with the governance bypass")
		}
		if !hold && err != nil {
			t.Errorf("a GOVERNANCE version without hold, deleted with the bypass: %v", err)
		}
	}
}

// A bucket without Object Lock is refused, unless retention is None (push --no-retention).
func TestS3RefusesABucketWithoutObjectLock(t *testing.T) {
	t.Parallel()
	srv := s3test.Need(t)
	bucket := srv.Bucket(t, false)
	ctx := context.Background()
	it := item("plain")
	if _, err := openS3Store(t, srv, bucket, Retention{Period: time.Hour}).Put(ctx, it); !errors.Is(err, ErrNoObjectLock) {
		t.Fatalf("put to a bucket without Object Lock: %v", err)
	}
	rc, err := openS3Store(t, srv, bucket, Retention{None: true}).Put(ctx, it)
	if err != nil || rc.Added != 1 {
		t.Fatalf("put --no-retention: %+v %v", rc, err)
	}
	// A locked bucket with neither bernstein.retention nor a default retention: nothing would be locked.
	locked := srv.Bucket(t, true)
	if _, err := openS3Store(t, srv, locked, Retention{}).Put(ctx, it); !errors.Is(err, ErrNoObjectLock) || !strings.Contains(err.Error(), "bernstein.retention") {
		t.Fatalf("put without a retention: %v", err)
	}
}

// Wrong credentials fail without the secret in the error.
func TestS3WrongCredentials(t *testing.T) {
	t.Parallel()
	srv := s3test.Need(t)
	bucket := srv.Bucket(t, true)
	env := srv.Env()
	env["AWS_SECRET_ACCESS_KEY"] = "wrong-s3cret-key"
	s, err := Open("s3://"+bucket, Options{Getenv: func(k string) string { return env[k] }, Retention: Retention{Period: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(context.Background(), item("x")); err == nil || strings.Contains(err.Error(), "s3cret") ||
		strings.Contains(err.Error(), srv.SecretKey) {
		t.Fatalf("put with a wrong secret: %v", err)
	}
}

func TestParseRetention(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		period, mode string
		want         Retention
		err          string
	}{
		{"2555d", "", Retention{Period: 2555 * 24 * time.Hour, Mode: "COMPLIANCE"}, ""},
		{"7y", "governance", Retention{Period: 7 * 365 * 24 * time.Hour, Mode: "GOVERNANCE"}, ""},
		{"720h", "COMPLIANCE", Retention{Period: 720 * time.Hour, Mode: "COMPLIANCE"}, ""},
		{"", "", Retention{Mode: "COMPLIANCE"}, ""},
		{"0d", "", Retention{}, "whole number"},
		{"-5d", "", Retention{}, "whole number"},
		{"forever", "", Retention{}, "a period"},
		{"30d", "LEGAL", Retention{}, "COMPLIANCE or GOVERNANCE"},
	} {
		got, err := ParseRetention(c.period, c.mode)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseRetention(%q, %q): %v, want %q", c.period, c.mode, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseRetention(%q, %q) = %+v %v, want %+v", c.period, c.mode, got, err, c.want)
		}
	}
}

// A bucket that claims a 2 GiB archive is refused before its body is read (an in-process fake: error paths only,
// never proof of retention).
func TestS3BoundsWhatTheBucketClaims(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.FormatInt(2<<30, 10))
		w.Header().Set("Last-Modified", time.Now().UTC().Format(http.TimeFormat))
		w.Header().Set("ETag", `"x"`)
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{"AWS_ENDPOINT_URL": srv.URL, "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"}
	s, err := Open("s3://evidence", Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, _, ok, err := s.Get(ctx, "github", "ENG-42", sum([]byte("x")), nil); ok || err == nil || !strings.Contains(err.Error(), "more than the 1073741824 allowed") {
		t.Fatalf("a 2 GiB archive: %v %v", ok, err)
	}
}

// A listing larger than maxMetadata is cut, not decoded whole (an in-process fake: error paths only).
func TestS3BoundsListings(t *testing.T) {
	t.Parallel()
	archive := []byte("archive")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("list-type") {
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>evidence</Name>`))
			for i := 0; i < (maxMetadata/20)+10; i++ {
				w.Write([]byte(`<!-- padding  -->   `))
			}
			w.Write([]byte(`</ListBucketResult>`))
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(archive)))
		w.Header().Set("Last-Modified", time.Now().UTC().Format(http.TimeFormat))
		w.Header().Set("ETag", `"x"`)
		w.Write(archive)
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{"AWS_ENDPOINT_URL": srv.URL, "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"}
	s, err := Open("s3://evidence", Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := s.Get(context.Background(), "github", "ENG-42", sum(archive), nil); ok || err == nil || !strings.Contains(err.Error(), "larger than the 4194304 bytes allowed") {
		t.Fatalf("a 4 MiB listing: %v %v", ok, err)
	}
}
