package store

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/minio/minio-go/v7/pkg/s3utils"
	"golang.org/x/net/http/httpproxy"

	"github.com/git-bernstein/git-bernstein/internal/archives"
	"github.com/git-bernstein/git-bernstein/internal/attest"
)

// The S3 layout: under s3://BUCKET/PREFIX, the files of one archive are named as refs/bernstein/archives names
// them (archives.ArchivePath, archives.SidecarPath), so every key says the sha256 of what it holds:
//
//	PREFIX/<tracker>/<ticket>/<bundle sha256>.tar.gz
//	PREFIX/<tracker>/<ticket>/<bundle sha256>.<sidecar sha256>{.jws,.sig,.intoto.jsonl,.sigstore.json}
//
// Each object is written once: put HEADs the key first and PUTs with If-None-Match: * only when it is absent;
// a key that holds other bytes is refused, never overwritten (see existing for how they are judged). In a bucket with
// Object Lock every object is written with x-amz-object-lock-mode and -retain-until-date (the bundle's created_at
// plus bernstein.retention) and, with bernstein.legalHold, x-amz-object-lock-legal-hold: ON. The version id the
// bucket gives each object is returned in the Receipt, and the caller keeps it (archives.StoreRecord) so that get
// reads that version, not whatever was written under the key later.
//
// The tests run against versitygw (v1.8.0, posix backend, `make test`), which differs from AWS in ways that
// shaped this code and its tests: its GetObjectRetention reply has the root element <ObjectLockRetention>, not
// <Retention>, so minio-go cannot parse it (the tests read a version's lock from the HEAD headers
// x-amz-object-lock-mode, -retain-until-date and -legal-hold instead, which both answer alike); and it refuses
// the trailing (aws-chunked) checksums minio-go sends for PutObjectOptions.Checksum as mismatched, so put sends
// Content-MD5 and checks an object it finds by a store record's version or by reading it back, not by a stored
// x-amz-checksum-sha256 (used when a server does return one).

// The bounds on what a bucket returns, besides archives.MaxFor for the files.
const maxListed = 256 // keys listed under one archive's name

// Retention is what bernstein.retention, bernstein.retentionMode and bernstein.legalHold ask of each object.
type Retention struct {
	Period    time.Duration // 0: the bucket's default retention
	Mode      string        // COMPLIANCE (default) or GOVERNANCE
	LegalHold bool
	// None (push --no-retention) writes no retention headers and accepts a bucket without Object Lock.
	None bool
}

// ParseRetention reads bernstein.retention (days as "2555d", years as "7y", or a Go duration such as "720h")
// and bernstein.retentionMode.
func ParseRetention(period, mode string) (Retention, error) {
	r := Retention{Mode: "COMPLIANCE"}
	switch m := strings.ToUpper(strings.TrimSpace(mode)); m {
	case "", "COMPLIANCE":
	case "GOVERNANCE":
		r.Mode = m
	default:
		return r, fmt.Errorf("bernstein.retentionMode %q: use COMPLIANCE or GOVERNANCE", mode)
	}
	p := strings.TrimSpace(period)
	if p == "" {
		return r, nil
	}
	n, unit := p[:len(p)-1], p[len(p)-1]
	var d time.Duration
	switch unit {
	case 'd', 'y':
		v, err := strconv.Atoi(n)
		if err != nil || v <= 0 || v > 100*366 {
			return r, fmt.Errorf("bernstein.retention %q: a whole number of days (2555d) or years (7y), at most 100 years", period)
		}
		days := v
		if unit == 'y' {
			days = v * 365
		}
		d = time.Duration(days) * 24 * time.Hour
	default:
		var err error
		if d, err = time.ParseDuration(p); err != nil || d <= 0 {
			return r, fmt.Errorf("bernstein.retention %q: a period such as 2555d, 7y or 720h", period)
		}
	}
	r.Period = d
	return r, nil
}

// ErrNoObjectLock says a bucket has no Object Lock, so nothing written to it is write-once.
var ErrNoObjectLock = errors.New("the bucket has no Object Lock")

type s3Store struct {
	raw, bucket, prefix string
	client              *minio.Client
	ret                 Retention
	now                 func() time.Time

	once    sync.Once
	lockErr error
}

var bucketPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^s3://([^/?#@]+)(/[^?#]*)?$`) })

// openS3 parses s3://BUCKET[/PREFIX] and configures the client the AWS way: AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), AWS_REGION (else AWS_DEFAULT_REGION), AWS_ENDPOINT_URL_S3 or
// AWS_ENDPOINT_URL for another endpoint than AWS's. No credential ever comes from the URL or reaches a message.
func openS3(raw string, o Options) (Store, error) {
	m := bucketPath().FindStringSubmatch(raw)
	if m == nil {
		return nil, fmt.Errorf("bernstein.store %q is not s3://BUCKET[/PREFIX]; credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not the URL", redactS3(raw))
	}
	bucket, prefix := m[1], strings.Trim(m[2], "/")
	if err := s3utils.CheckValidBucketNameStrict(bucket); err != nil {
		return nil, fmt.Errorf("bernstein.store %q: bucket %q: %w", raw, bucket, err)
	}
	if strings.Contains("/"+prefix+"/", "/../") || strings.Contains("/"+prefix+"/", "/./") || strings.Contains(prefix, "//") ||
		strings.IndexFunc(prefix, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) >= 0 {
		return nil, fmt.Errorf("bernstein.store %q: the prefix %q has an empty, . or .. part, a backslash or a control character", raw, prefix)
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	region := first(getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"))
	endpoint, secure, lookup := "s3.amazonaws.com", true, minio.BucketLookupAuto
	if e := first(getenv("AWS_ENDPOINT_URL_S3"), getenv("AWS_ENDPOINT_URL")); e != "" {
		u, err := url.Parse(e)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || strings.Trim(u.Path, "/") != "" {
			return nil, fmt.Errorf("bernstein.store %q: AWS_ENDPOINT_URL is not http(s)://HOST[:PORT]", raw)
		}
		// Not AWS: path-style requests, which every S3 server answers (virtual hosts need DNS for each bucket).
		endpoint, secure, lookup = u.Host, u.Scheme == "https", minio.BucketLookupPath
	} else if region != "" {
		endpoint = "s3." + region + ".amazonaws.com"
	}
	creds := credentials.NewStaticV4(getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY"), getenv("AWS_SESSION_TOKEN"))
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = responseTimeout
	t.TLSHandshakeTimeout = responseTimeout
	// Proxies as the AWS tools take them, from the run's environment (not the process's).
	proxy := (&httpproxy.Config{HTTPProxy: first(getenv("HTTP_PROXY"), getenv("http_proxy")),
		HTTPSProxy: first(getenv("HTTPS_PROXY"), getenv("https_proxy")), NoProxy: first(getenv("NO_PROXY"), getenv("no_proxy"))}).ProxyFunc()
	t.Proxy = func(r *http.Request) (*url.URL, error) { return proxy(r.URL) }
	c, err := minio.New(endpoint, &minio.Options{Creds: creds, Secure: secure, Region: region, BucketLookup: lookup,
		Transport: boundedAnswers{t}, MaxRetries: 3})
	if err != nil {
		return nil, fmt.Errorf("bernstein.store %q: %w", raw, err)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	// The URL as records name the store: one spelling for s3://b/p, s3://b/p/ and s3://b//p.
	canonical := "s3://" + bucket
	if prefix != "" {
		canonical += "/" + prefix
	}
	return &s3Store{raw: canonical, bucket: bucket, prefix: prefix, client: c, ret: o.Retention, now: now}, nil
}

// boundedAnswers cuts the body of every answer that is not an object's bytes (listings, the bucket's
// configuration, errors) at maxMetadata: minio-go decodes those whole, and a bucket is not trusted to keep them
// small. Object bodies are bounded by read, from the size the answer states.
type boundedAnswers struct{ http.RoundTripper }

func (b boundedAnswers) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := b.RoundTripper.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	q := r.URL.Query()
	object := r.Method == http.MethodGet && resp.StatusCode/100 == 2 && !q.Has("list-type") && !q.Has("versions") &&
		!q.Has("object-lock") && !q.Has("location") && !q.Has("versioning") && !q.Has("retention") && !q.Has("legal-hold")
	if !object {
		resp.Body = &cappedBody{ReadCloser: resp.Body, left: maxMetadata}
	}
	return resp, nil
}

type cappedBody struct {
	io.ReadCloser
	left int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, fmt.Errorf("the answer is larger than the %d bytes allowed", int64(maxMetadata))
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.ReadCloser.Read(p)
	c.left -= int64(n)
	return n, err
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func redactS3(raw string) string {
	if i := strings.LastIndex(raw, "@"); i >= 0 {
		return "s3://…@" + raw[i+1:]
	}
	return raw
}

func (s *s3Store) URL() string { return s.raw }

func (s *s3Store) key(name string) string {
	if s.prefix == "" {
		return name
	}
	return s.prefix + "/" + name
}

// checkLock asks the bucket once whether it has Object Lock: without it nothing is write-once, and push refuses
// (ErrNoObjectLock) unless retention is None. Without bernstein.retention, the bucket's default retention must
// be there to lock each object.
func (s *s3Store) checkLock(ctx context.Context) error {
	s.once.Do(func() {
		if s.ret.None {
			return
		}
		enabled, mode, _, _, err := s.client.GetObjectLockConfig(ctx, s.bucket)
		if err != nil && minio.ToErrorResponse(err).Code != "ObjectLockConfigurationNotFoundError" {
			s.lockErr = fmt.Errorf("%s: reading the bucket's Object Lock configuration: %w", s.raw, err)
			return
		}
		if err != nil || enabled != "Enabled" {
			s.lockErr = fmt.Errorf("%s: %w, so the archives would not be write-once: create the bucket with Object Lock "+
				"(aws s3api create-bucket --object-lock-enabled-for-bucket), or push --no-retention to upload without it", s.raw, ErrNoObjectLock)
			return
		}
		if s.ret.Period == 0 && (mode == nil || *mode == "") {
			s.lockErr = fmt.Errorf("%s: %w default retention and bernstein.retention is not set: set it (git config bernstein.retention 2555d), "+
				"or push --no-retention", s.raw, ErrNoObjectLock)
		}
	})
	return s.lockErr
}

// s3File is one file of an item: its name under the prefix, its sha256 and its bytes.
type s3File struct {
	name, sum string
	data      []byte
}

// Put writes the archive and each sidecar whose key the bucket does not hold, each once; a key that holds
// something else is refused. The receipt lists every file's key and version, written now or found.
func (s *s3Store) Put(ctx context.Context, it Item) (Receipt, error) {
	var rc Receipt
	if sum(it.Archive) != it.SHA256 {
		return rc, fmt.Errorf("%s: the archive for %s %s is not the noted %s: not uploaded", s.raw, it.Tracker, it.Ticket, it.SHA256)
	}
	if err := s.checkLock(ctx); err != nil {
		return rc, err
	}
	until := time.Time{}
	if !s.ret.None && s.ret.Period > 0 {
		created, err := time.Parse(time.RFC3339, it.CreatedAt)
		if err != nil {
			created = s.now() // a note without created_at (none written so far lacks it): counted from now
		}
		until = created.Add(s.ret.Period).UTC().Truncate(time.Second)
		if !until.After(s.now()) {
			until = time.Time{} // the period is over already: the bucket's default retention, if any, applies
		}
	}
	files := []s3File{{archives.ArchivePath(it.Tracker, it.Ticket, it.SHA256), it.SHA256, it.Archive}}
	for _, sc := range it.Sidecars {
		if _, ok := sidecarTypes[sc.Kind]; ok {
			side := sum(sc.Data) // the key says the digest of these bytes, whatever the caller said
			files = append(files, s3File{archives.SidecarPath(it.Tracker, it.Ticket, it.SHA256, side, sc.Kind), side, sc.Data})
		}
	}
	known := map[string]string{}
	for _, k := range it.Known {
		known[k.Key+" "+k.SHA256] = k.VersionID
	}
	for _, f := range files {
		v, added, err := s.putOnce(ctx, s.key(f.name), f.sum, f.data, until, known[s.key(f.name)+" "+f.sum])
		if err != nil {
			return rc, err
		}
		if added {
			rc.Added++
		}
		rc.Versions = append(rc.Versions, archives.StoredObject{Key: s.key(f.name), SHA256: f.sum, VersionID: v})
	}
	return rc, nil
}

// putOnce writes data under key unless the key holds it already: HEAD first, then PUT with If-None-Match: *
// (a writer that got there in between makes the PUT fail, and the HEAD after it judges what is there).
func (s *s3Store) putOnce(ctx context.Context, key, digest string, data []byte, until time.Time, known string) (version string, added bool, err error) {
	if v, found, err := s.existing(ctx, key, digest, int64(len(data)), known); err != nil || found {
		return v, false, err
	}
	opts := minio.PutObjectOptions{ContentType: "application/octet-stream", UserMetadata: map[string]string{"sha256": digest},
		DisableMultipart: true, SendContentMd5: true}
	opts.SetMatchETagExcept("*")
	if !until.IsZero() {
		opts.Mode, opts.RetainUntilDate = minio.RetentionMode(first(s.ret.Mode, "COMPLIANCE")), until
	}
	if s.ret.LegalHold && !s.ret.None {
		opts.LegalHold = minio.LegalHoldEnabled
	}
	info, err := s.client.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		if code := minio.ToErrorResponse(err).Code; code == "PreconditionFailed" || code == "ConditionalRequestConflict" {
			v, found, herr := s.existing(ctx, key, digest, int64(len(data)), "")
			if herr == nil && found {
				return v, false, nil
			}
		}
		return "", false, fmt.Errorf("%s: upload of %s: %w", s.raw, key, err)
	}
	return info.VersionID, true, nil
}

// existing HEADs key: found is false when there is none. What is there must be data: the size, and then
// either the latest version is the one a store record names for this sha256 (S3 never changes a version's bytes,
// and the record's version was written by a put that sent these bytes), or the sha256 the server computed when it
// was written (x-amz-checksum-sha256, when the writer sent one) is digest, or else the bytes themselves, read
// within the size, have that sha256. Anything else is refused.
func (s *s3Store) existing(ctx context.Context, key, digest string, size int64, known string) (string, bool, error) {
	info, err := s.client.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{Checksum: true})
	if err != nil {
		if code := minio.ToErrorResponse(err).Code; code == "NoSuchKey" || code == "NotFound" {
			return "", false, nil
		}
		return "", false, fmt.Errorf("%s: %s: %w", s.raw, key, err)
	}
	if info.IsDeleteMarker {
		return "", false, nil
	}
	got := "of another size"
	if info.Size == size {
		if known != "" && info.VersionID == known {
			return known, true, nil
		}
		if info.ChecksumSHA256 != "" {
			raw, err := base64.StdEncoding.DecodeString(info.ChecksumSHA256)
			if err == nil && hex.EncodeToString(raw) == digest {
				return info.VersionID, true, nil
			}
			got = "with x-amz-checksum-sha256 " + info.ChecksumSHA256
		} else {
			data, found, err := s.read(ctx, key, info.VersionID, size)
			if err != nil || !found {
				return "", false, fmt.Errorf("%s: reading what %s holds: %v", s.raw, key, err)
			}
			if sum(data) == digest {
				return info.VersionID, true, nil
			}
			got = "with sha256 " + sum(data)
		}
	}
	return "", false, fmt.Errorf("%s: %s holds an object (version %q) of %d bytes %s, not the %d bytes with sha256 %s its name says: "+
		"the bucket was written by something else; refused, nothing overwritten", s.raw, key, info.VersionID, info.Size, got, size, digest)
}

// Get reads the archive with the noted digest and every sidecar listed under its name. known are the versions a
// record kept (archives.StoreRecord): a key with one is read at that version, others at the latest. Every file
// is bounded by the size its HEAD gives before it is read and checked against the sha256 its key says after; an
// archive that does not match is an error, a sidecar that does not is passed over with a reason.
func (s *s3Store) Get(ctx context.Context, tracker, ticket, want string, known []archives.StoredObject) (*archives.Held, []string, bool, error) {
	versions := map[string]string{}
	for _, k := range known {
		versions[k.Key+" "+k.SHA256] = k.VersionID
	}
	archiveKey := s.key(archives.ArchivePath(tracker, ticket, want))
	data, found, err := s.read(ctx, archiveKey, versions[archiveKey+" "+want], archives.MaxArchive)
	if err != nil || !found {
		return nil, nil, false, err
	}
	if got := sum(data); got != want {
		return nil, nil, false, fmt.Errorf("%s: %s has sha256 %s: refused", s.raw, archiveKey, got)
	}
	h := &archives.Held{Archive: data}
	var skipped []string
	namePrefix := s.key(archives.Dir(tracker, ticket)) + "/" + want + "."
	listCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var keys []string
	for o := range s.client.ListObjects(listCtx, s.bucket, minio.ListObjectsOptions{Prefix: namePrefix, Recursive: true}) {
		if o.Err != nil {
			return nil, nil, false, fmt.Errorf("%s: listing the sidecars of %s: %w", s.raw, want, o.Err)
		}
		if len(keys) == maxListed {
			skipped = append(skipped, fmt.Sprintf("%s: more than %d keys under %s; the rest passed over", s.raw, maxListed, namePrefix))
			break
		}
		keys = append(keys, o.Key)
	}
	for _, k := range keys {
		m := sidecarKey().FindStringSubmatch(strings.TrimPrefix(k, namePrefix))
		if m == nil {
			continue // the archive, or a name not ours
		}
		kind, side := m[2], m[1]
		data, found, err := s.read(ctx, k, versions[k+" "+side], sidecarMax(kind))
		if err == nil && found && sum(data) != side {
			err = fmt.Errorf("it has sha256 %s", sum(data))
		}
		if err != nil || !found {
			skipped = append(skipped, fmt.Sprintf("%s: sidecar %s passed over: %v", s.raw, k, err))
			continue
		}
		h.Sidecars = append(h.Sidecars, archives.Sidecar{Kind: kind, SHA256: side, Data: data})
	}
	sortSidecars(h.Sidecars)
	return h, skipped, true, nil
}

var sidecarKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9a-f]{64})(\.jws|\.sig|\.intoto\.jsonl|` + regexp.QuoteMeta(attest.SigstoreSuffix) + `)$`)
})

// read GETs key (at version, when given) and reads at most max bytes of it: a size over max is refused before
// the body is read, and a body longer than its size is an error.
func (s *s3Store) read(ctx context.Context, key, version string, max int64) ([]byte, bool, error) {
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{VersionID: version})
	if err != nil {
		return nil, false, fmt.Errorf("%s: %s: %w", s.raw, key, err)
	}
	defer obj.Close()
	info, err := obj.Stat()
	if err != nil {
		if code := minio.ToErrorResponse(err).Code; code == "NoSuchKey" || code == "NotFound" || code == "NoSuchVersion" && version == "" {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("%s: %s (version %q): %w", s.raw, key, version, err)
	}
	if info.Size < 0 || info.Size > max {
		return nil, false, fmt.Errorf("%s: %s is said to be %d bytes, more than the %d allowed", s.raw, key, info.Size, max)
	}
	data, err := io.ReadAll(io.LimitReader(obj, info.Size+1))
	if err != nil {
		return nil, false, fmt.Errorf("%s: reading %s: %w", s.raw, key, err)
	}
	if int64(len(data)) != info.Size {
		return nil, false, fmt.Errorf("%s: %s sent %d bytes, not the %d it said", s.raw, key, len(data), info.Size)
	}
	return data, true, nil
}
