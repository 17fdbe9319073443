package github

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
)

// transport carries every request to GitHub, and is called again for each hop of a redirect. That is where the
// token is decided: go-github's WithAuthToken adds it on every hop, so a redirect to another host (or anyone
// answering for an http:// API URL) received it; here it goes only to the API URL's own scheme and host. A
// redirect elsewhere is still followed, without it. It also answers from the ETag cache and holds every answer's
// body to the fetch's budget.
type transport struct {
	next   http.RoundTripper
	scheme string // the API URL's scheme and host: the only place the token goes
	host   string
	token  string
	cache  *cache // nil: no cache
}

func newTransport(next http.RoundTripper, api *url.URL, token string, c *cache) *transport {
	return &transport{next: next, scheme: api.Scheme, host: api.Host, token: token, cache: c}
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Accept", mediaType)
	req.Header.Del("Authorization")
	if t.token != "" && req.URL.Scheme == t.scheme && req.URL.Host == t.host {
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	var cached *cacheEntry
	if t.cache != nil && req.Method == http.MethodGet {
		var warning string
		if cached, warning = t.cache.get(req.URL.String()); cached != nil {
			req.Header.Set("If-None-Match", cached.ETag)
		} else if warning != "" {
			notesOf(req.Context()).add(warning)
		}
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	// Only cacheEntry.response says an answer came from the cache.
	resp.Header.Del(headerCache)
	resp.Header.Del(headerCachedAt)
	fromCache := false
	if cached != nil && resp.StatusCode == http.StatusNotModified {
		// GitHub says the answer has not changed; a 304 does not count against its rate limit.
		resp.Body.Close()
		resp, fromCache = cached.response(req, resp), true
	}
	resp.Body = &budgetBody{rc: resp.Body, ctx: req.Context(), b: budgetOf(req.Context())}
	if t.cache != nil && req.Method == http.MethodGet && !fromCache && resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "" {
		resp.Body = t.cache.recorder(resp.Body, req.URL.String(), resp.Header, t.token)
	}
	return resp, nil
}

// notesKey finds a fetch's notes in a request's context.
type notesKey struct{}

// notes are warnings the transport has for the fetch (an edited cache entry), which Fetch adds to its own.
type notes struct {
	mu    sync.Mutex
	lines []string
}

func withNotes(ctx context.Context) (context.Context, *notes) {
	n := &notes{}
	return context.WithValue(ctx, notesKey{}, n), n
}

// notesOf is the fetch's notes; nil (which drops them) for a client used outside Fetch.
func notesOf(ctx context.Context) *notes {
	n, _ := ctx.Value(notesKey{}).(*notes)
	return n
}

func (n *notes) add(line string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.lines = append(n.lines, line)
}

func (n *notes) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.lines...)
}

// budgetKey finds a fetch's answer budget in a request's context.
type budgetKey struct{}

// budget is what is left of a fetch's allowance of answer bytes.
type budget struct {
	left  atomic.Int64
	limit int64
}

// withBudget gives all requests made with ctx one budget of n bytes of answers, counted after decompression:
// an answer that does not end, or a small gzip answer that inflates without bound, stops there.
func withBudget(ctx context.Context, n int64) context.Context {
	b := &budget{limit: n}
	b.left.Store(n)
	return context.WithValue(ctx, budgetKey{}, b)
}

func budgetOf(ctx context.Context) *budget {
	b, _ := ctx.Value(budgetKey{}).(*budget)
	return b
}

// errTooMuch is the error for answers past the budget.
type errTooMuch struct{ limit int64 }

func (e *errTooMuch) Error() string {
	return fmt.Sprintf("GitHub's answers passed %d MiB in all (after decompression)", e.limit>>20)
}

// budgetBody counts what is read against the fetch's budget, and stops at the fetch's deadline even while a
// gzip reader inflates data it already has (a decompression bomb reads little from the network).
type budgetBody struct {
	rc  io.ReadCloser
	ctx context.Context
	b   *budget // nil: no budget (a client used outside Fetch)
}

func (b *budgetBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := b.rc.Read(p)
	if b.b != nil && b.b.left.Add(-int64(n)) < 0 {
		return n, &errTooMuch{limit: b.b.limit}
	}
	return n, err
}

func (b *budgetBody) Close() error { return b.rc.Close() }
