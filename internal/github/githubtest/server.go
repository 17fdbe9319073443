// Package githubtest is a fake GitHub REST server for tests: it serves the fixtures in internal/github/testdata
// for the repository acme/app and records every request it gets.
package githubtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Request is what the server saw of one request.
type Request struct {
	Method string
	Path   string // without the prefix
	Query  string
	Header http.Header
}

// Server is an httptest server speaking GitHub's REST shapes under Prefix ("" or "/api/v3").
type Server struct {
	*httptest.Server
	Prefix string

	mu       sync.Mutex
	requests []Request
	override map[string]http.HandlerFunc
}

// New starts a server, closed when the test ends. prefix is "" for api.github.com's layout, "/api/v3" for
// GitHub Enterprise's.
func New(t testing.TB, prefix string) *Server {
	s := &Server{Prefix: prefix, override: map[string]http.HandlerFunc{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// APIURL is the URL a client is given: the server's URL plus the prefix.
func (s *Server) APIURL() string { return s.URL + s.Prefix }

// Handle replaces the answer for an exact path (without the prefix), e.g. "/repos/acme/app/pulls/17".
func (s *Server) Handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.override[path] = h
}

// Requests returns the requests seen so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Fixture returns a fixture's bytes.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fixtureDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutPrefix(r.URL.Path, s.Prefix+"/")
	path = "/" + path
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: path, Query: r.URL.RawQuery, Header: r.Header.Clone()})
	h := s.override[path]
	s.mu.Unlock()
	if !ok {
		NotFound(w)
		return
	}
	if h != nil {
		h(w, r)
		return
	}
	const repo = "/repos/acme/app"
	rate(w)
	switch {
	case path == repo+"/pulls/17":
		s.file(w, "pulls_17.json")
	case path == repo+"/pulls/21":
		s.file(w, "pulls_21.json")
	case path == repo+"/pulls/17/reviews":
		page := r.URL.Query().Get("page")
		link := func(p int, rel string) string {
			return fmt.Sprintf(`<%s%s/repositories/700100/pulls/17/reviews?per_page=100&page=%d>; rel="%s"`, s.URL, s.Prefix, p, rel)
		}
		if page == "" || page == "1" {
			w.Header().Set("Link", link(2, "next")+", "+link(2, "last"))
			s.file(w, "pulls_17_reviews_1.json")
		} else if page == "2" {
			w.Header().Set("Link", link(1, "prev")+", "+link(1, "first"))
			s.file(w, "pulls_17_reviews_2.json")
		} else {
			s.json(w, []byte("[]"))
		}
	case path == repo+"/pulls/21/reviews":
		s.json(w, []byte("[]"))
	case strings.HasPrefix(path, repo+"/commits/") && strings.HasSuffix(path, "/pulls"):
		s.file(w, "commits_pulls.json")
	case path == repo+"/pulls":
		if r.URL.Query().Get("state") != "all" {
			s.json(w, []byte("[]"))
			return
		}
		s.file(w, "pulls_list.json")
	default:
		// Any other answer is a file under testdata/api named for its path (the change-control endpoints:
		// testdata/README.md), the query ignored but for page: <path>.page<N>.json is page N (2 on), and a Link
		// header points at the next page while there is one, as GitHub's does.
		if clean := filepath.Clean(path); clean == path && !strings.Contains(path, "..") {
			page, err := strconv.Atoi(r.URL.Query().Get("page"))
			if err != nil || page < 1 {
				page = 1
			}
			name := func(p int) string {
				if p == 1 {
					return filepath.Join("api", path+".json")
				}
				return filepath.Join("api", fmt.Sprintf("%s.page%d.json", path, p))
			}
			if _, err := os.Stat(filepath.Join(fixtureDir(), name(page))); err == nil {
				if _, err := os.Stat(filepath.Join(fixtureDir(), name(page+1))); err == nil {
					w.Header().Set("Link", fmt.Sprintf(`<%s%s%s?per_page=100&page=%d>; rel="next"`, s.URL, s.Prefix, path, page+1))
				}
				s.file(w, name(page))
				return
			}
		}
		NotFound(w)
	}
}

func (s *Server) file(w http.ResponseWriter, name string) {
	b, err := os.ReadFile(filepath.Join(fixtureDir(), name))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.json(w, b)
}

func (s *Server) json(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(b) // a client gone mid-answer is the client's test failure
}

func rate(w http.ResponseWriter) {
	w.Header().Set("X-GitHub-Media-Type", "github.v3; format=json")
	w.Header().Set("X-RateLimit-Limit", "60")
	w.Header().Set("X-RateLimit-Remaining", "59")
	w.Header().Set("X-RateLimit-Reset", "1767229200")
	w.Header().Set("X-RateLimit-Resource", "core")
}

// NotFound answers as GitHub does for a missing resource.
func NotFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprint(w, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}`)
}
