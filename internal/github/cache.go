package github

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

const (
	// maxCacheEntry bounds one cached answer: a page of 100 pull requests is a few MiB at most.
	maxCacheEntry = 8 << 20
	// maxCache bounds the cache folder; the oldest entries go first.
	maxCache = 64 << 20
	// cacheVersion is the "v" of an entry's header line. Version 1 entries had no body digest: they are
	// ignored (so fetched again) and overwritten.
	cacheVersion = 2
	// cachedAtFormat is cached_at's layout, the manifest's created_at layout.
	cachedAtFormat = "2006-01-02T15:04:05Z"
)

// Internal headers of an answer made from the cache (cacheEntry.response); the transport removes them from
// every answer a server sent, so a server cannot pass its 200 off as a cached one.
const (
	headerCache    = "X-Bernstein-Cache"
	headerCachedAt = "X-Bernstein-Cached-At"
)

// cache keeps GitHub's answers with their ETags (doc.go describes the files), so a run can ask "changed since?"
// with If-None-Match and reuse the body when GitHub answers 304.
type cache struct {
	dir string
	now func() time.Time
}

// cacheEntry is an entry's header line, then its body. SHA256 is the body's digest: a 304 says GitHub's
// answer has not changed since the ETag, not that the bytes on disk are still the ones it sent then.
type cacheEntry struct {
	V           int    `json:"v"`
	URL         string `json:"url"`
	ETag        string `json:"etag"`
	SHA256      string `json:"sha256"`
	CachedAt    string `json:"cached_at"`
	Link        string `json:"link,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	body        []byte
}

func (c *cache) path(url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:])+".entry")
}

// get returns the entry for url, or nil. A damaged, foreign, older or oversized entry is no entry: the cache
// only saves requests, it never decides an answer. An entry whose body no longer has the digest stored beside
// its ETag (edited, or damaged on disk) is removed, and warning says so: a 304 for its ETag would otherwise
// have the edited bytes packed as GitHub's answer.
func (c *cache) get(url string) (e *cacheEntry, warning string) {
	path := c.path(url)
	data, err := regularfile.ReadFile(path, "GitHub cache entry", maxCacheEntry+64<<10)
	if err != nil {
		return nil, ""
	}
	head, body, ok := bytes.Cut(data, []byte("\n"))
	var ent cacheEntry
	if !ok || json.Unmarshal(head, &ent) != nil || ent.V != cacheVersion || ent.URL != url || ent.ETag == "" {
		return nil, ""
	}
	if _, err := time.Parse(cachedAtFormat, ent.CachedAt); err != nil {
		return nil, ""
	}
	if sum := sha256.Sum256(body); hex.EncodeToString(sum[:]) != ent.SHA256 {
		os.Remove(path)
		return nil, fmt.Sprintf("GitHub cache entry %s for %s: its body does not have the sha256 stored beside its ETag (edited or damaged since it was cached); removed it and fetched the answer again without If-None-Match", path, redactURL(url))
	}
	ent.body = body
	return &ent, ""
}

// response turns a 304 into the 200 it stands for: the cached body, GitHub's fresh headers (rate limit) and the
// cached ones a 304 may leave out (Link for the next page, Content-Type).
func (e *cacheEntry) response(req *http.Request, notModified *http.Response) *http.Response {
	h := notModified.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("ETag", e.ETag)
	if e.Link != "" && h.Get("Link") == "" {
		h.Set("Link", e.Link)
	}
	if e.ContentType != "" {
		h.Set("Content-Type", e.ContentType)
	}
	h.Set(headerCache, "hit")
	h.Set(headerCachedAt, e.CachedAt)
	return &http.Response{Status: "200 OK", StatusCode: http.StatusOK, Proto: notModified.Proto,
		ProtoMajor: notModified.ProtoMajor, ProtoMinor: notModified.ProtoMinor, Header: h,
		Body: io.NopCloser(bytes.NewReader(e.body)), ContentLength: int64(len(e.body)), Request: req}
}

// recorder passes body through and, once it has been read to its end, stores it: only whole answers of at most
// maxCacheEntry bytes, and never one that holds the token.
func (c *cache) recorder(body io.ReadCloser, url string, h http.Header, token string) io.ReadCloser {
	return &recorder{rc: body, c: c, e: cacheEntry{V: cacheVersion, URL: url, ETag: h.Get("ETag"),
		Link: h.Get("Link"), ContentType: h.Get("Content-Type")}, token: token}
}

type recorder struct {
	rc    io.ReadCloser
	c     *cache
	e     cacheEntry
	token string
	buf   bytes.Buffer
	over  bool
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.rc.Read(p)
	if !r.over {
		if r.buf.Len()+n > maxCacheEntry {
			r.over = true
			r.buf = bytes.Buffer{}
		} else {
			r.buf.Write(p[:n])
		}
	}
	if err == io.EOF && !r.over {
		r.over = true // store once
		r.e.body = r.buf.Bytes()
		sum := sha256.Sum256(r.e.body)
		r.e.SHA256, r.e.CachedAt = hex.EncodeToString(sum[:]), r.c.now().UTC().Format(cachedAtFormat)
		if r.token == "" || !bytes.Contains(r.e.body, []byte(r.token)) {
			r.c.put(&r.e)
		}
	}
	return n, err
}

func (r *recorder) Close() error { return r.rc.Close() }

// put writes an entry atomically, then trims the folder to maxCache. Failing to cache is not worth a warning:
// the answer itself is in hand.
func (c *cache) put(e *cacheEntry) {
	head, err := json.Marshal(e)
	if err != nil || os.MkdirAll(c.dir, 0o700) != nil {
		return
	}
	data := append(append(head, '\n'), e.body...)
	if atomicfile.WriteFile(c.path(e.URL), data, 0o600) != nil {
		return
	}
	c.trim()
}

// trim removes the oldest entries until the folder holds at most maxCache bytes.
func (c *cache) trim() {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".entry") || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil {
			files = append(files, file{e.Name(), info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files {
		if total <= maxCache {
			break
		}
		if os.Remove(filepath.Join(c.dir, f.name)) == nil {
			total -= f.size
		}
	}
}
