package github

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v62/github"

	"github.com/git-bernstein/git-bernstein/internal/prsource"
)

const (
	// DefaultAPIURL is the public API, used when nothing names another server.
	DefaultAPIURL = "https://api.github.com/"
	// DefaultTimeout bounds all requests of one Fetch together, so an unreachable server delays a bundle by at
	// most this long.
	DefaultTimeout = 20 * time.Second
	// mediaType is the Accept header GitHub documents for the REST API today; go-github still sends the older
	// application/vnd.github.v3+json.
	mediaType = "application/vnd.github+json"
	// maxBody caps all answers of one Fetch together, counted after decompression (a pull request payload is a
	// few tens of KiB, a page of 100 pull requests a few MiB), and so also any one answer.
	maxBody = 32 << 20
	// maxPerPage is what we ask for and the most items a list page may hold: a longer one is not GitHub's.
	maxPerPage = 100
)

// Config says how to reach the API.
type Config struct {
	// APIURL is used as given (a GitHub Enterprise URL already ends in /api/v3); "" is DefaultAPIURL.
	APIURL string
	// Token is sent as "Authorization: Bearer" when set; public repositories work without one.
	Token string
	// Timeout bounds a whole Fetch; 0 is DefaultTimeout.
	Timeout time.Duration
	// RetryDelay is the pause before the one retry after a 5xx answer; 0 is one second, negative is none.
	RetryDelay time.Duration
	// Transport carries the requests; nil is a copy of http.DefaultTransport (which honours HTTPS_PROXY).
	Transport http.RoundTripper
	// UserAgent identifies us to GitHub, which rejects requests without one.
	UserAgent string
	// Now is the clock used to say when a rate limit resets and to date cache entries; nil is time.Now.
	Now func() time.Time
	// CacheDir keeps answers with their ETags, asked again with If-None-Match; "" is no cache.
	CacheDir string
}

// Client talks to one repository on one GitHub server.
type Client struct {
	gh         *gh.Client
	repo       Repo
	apiURL     string
	token      string
	timeout    time.Duration
	retryDelay time.Duration
	now        func() time.Time
}

// NewClient checks the API URL and prepares a client for repo. It makes no request.
func NewClient(repo Repo, cfg Config) (*Client, error) {
	if repo.IsZero() {
		return nil, errors.New("no GitHub repository named")
	}
	base, err := ParseAPIURL(cfg.APIURL)
	if err != nil {
		return nil, err
	}
	transport := cfg.Transport
	if transport == nil {
		transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	// Not WithAuthToken: it adds the token on every hop of a redirect, whatever the host (see transport).
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	var c0 *cache
	if cfg.CacheDir != "" {
		c0 = &cache{dir: cfg.CacheDir, now: now}
	}
	client := gh.NewClient(&http.Client{Transport: newTransport(transport, base, cfg.Token, c0)})
	client.BaseURL = base
	if cfg.UserAgent != "" {
		client.UserAgent = cfg.UserAgent
	}
	c := &Client{gh: client, repo: repo, apiURL: base.String(), token: cfg.Token, timeout: cfg.Timeout,
		retryDelay: cfg.RetryDelay, now: now}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	switch {
	case c.retryDelay == 0:
		c.retryDelay = time.Second
	case c.retryDelay < 0:
		c.retryDelay = 0
	}
	return c, nil
}

// ParseAPIURL checks an API URL ("" is DefaultAPIURL) and returns it with the trailing slash go-github needs.
// Nothing else is added: unlike WithEnterpriseURLs we never append /api/v3, so the URL GitHub Actions puts in
// GITHUB_API_URL, or a GitHub Enterprise URL that already ends in /api/v3, works as given.
func ParseAPIURL(raw string) (*url.URL, error) {
	if raw == "" {
		raw = DefaultAPIURL
	}
	base, err := url.Parse(raw)
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, fmt.Errorf("GitHub API URL %q is not an http(s) URL such as %s or https://ghe.example.com/api/v3", redactURL(raw), DefaultAPIURL)
	}
	if base.User != nil {
		return nil, fmt.Errorf("GitHub API URL %q carries credentials: give the token in GITHUB_TOKEN instead", redactURL(raw))
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	return base, nil
}

// Repo is the repository the client reads.
func (c *Client) Repo() Repo { return c.repo }

// APIURL is the server's API URL, with the trailing slash go-github needs.
func (c *Client) APIURL() string { return c.apiURL }

// retry runs call, and once more after a pause when GitHub answered with a server error (5xx).
func (c *Client) retry(ctx context.Context, call func() (*gh.Response, error)) error {
	resp, err := call()
	if err == nil || !serverError(resp) {
		return err
	}
	select {
	case <-ctx.Done():
		return err
	case <-time.After(c.retryDelay):
	}
	_, err = call()
	return err
}

func serverError(resp *gh.Response) bool {
	return resp != nil && resp.Response != nil && resp.StatusCode >= 500
}

// getRaw fetches an API path and returns the body byte for byte as the server sent it.
func (c *Client) getRaw(ctx context.Context, path string) ([]byte, *gh.Response, error) {
	var body []byte
	var last *gh.Response
	err := c.retry(ctx, func() (*gh.Response, error) {
		req, err := c.gh.NewRequest(http.MethodGet, path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.gh.BareDo(ctx, req)
		last = resp
		if err != nil {
			return resp, err
		}
		defer resp.Body.Close()
		body, err = io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
		if err != nil {
			return resp, fmt.Errorf("read %s: %w", path, err)
		}
		if len(body) > maxBody {
			return resp, &errTooMuch{limit: maxBody}
		}
		// Warnings are scrubbed of the token, but a payload is packed byte for byte: an answer that repeats the
		// token (a broken proxy, a hostile server) is not used at all.
		if len(c.token) >= minTokenLen && bytes.Contains(body, []byte(c.token)) {
			return resp, errTokenEchoed
		}
		return resp, nil
	})
	return body, last, err
}

// sourceOf is where an answer getRaw returned came from, for pr/sources.json: the URL that answered (after any
// redirect; without user information, and without the token should a redirect have put it there), fetched or
// from the cache after a 304, and its ETag.
func (c *Client) sourceOf(resp *gh.Response) prsource.Request {
	var r prsource.Request
	if resp == nil || resp.Response == nil {
		return r
	}
	r.Source = prsource.Fetched
	if resp.Request != nil && resp.Request.URL != nil {
		u := *resp.Request.URL
		u.User = nil
		r.URL = u.String()
		if len(c.token) >= minTokenLen {
			r.URL = strings.ReplaceAll(r.URL, c.token, "REDACTED")
		}
	}
	if etag := resp.Header.Get("ETag"); etag != "" {
		r.ETag = &etag
	}
	if resp.Header.Get(headerCache) == "hit" {
		at := resp.Header.Get(headerCachedAt)
		r.Source, r.CachedAt = prsource.Cache, &at
	}
	return r
}

func (c *Client) repoPath() string {
	return "repos/" + url.PathEscape(c.repo.Owner) + "/" + url.PathEscape(c.repo.Name)
}
