package prsource

import (
	"fmt"
	"sort"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/jsonout"
)

// Arcname is the member's name in the archive.
const Arcname = "pr/sources.json"

// timeFormat is cached_at's layout, the manifest's created_at layout (manifest.TimeFormat).
const timeFormat = "2006-01-02T15:04:05Z"

// Version is the only "v" this program writes or reads.
const Version = 1

// Sources: a member's or a request's source (doc.go).
const (
	Fetched = "fetched"
	Cache   = "cache"
	Offline = "offline"
)

// Sources is pr/sources.json.
type Sources struct {
	V       int      `json:"v"`
	Members []Member `json:"members"`
}

// Member says where one pr/ member came from.
type Member struct {
	Arcname  string    `json:"arcname"`
	Source   string    `json:"source"`
	Path     *string   `json:"path"`
	Requests []Request `json:"requests"`
}

// Request is one GET whose body is in a member.
type Request struct {
	URL      string  `json:"url"`
	Source   string  `json:"source"`
	ETag     *string `json:"etag"`
	CachedAt *string `json:"cached_at"`
}

// FromRequests is the member for a body the API gave through reqs: "cache" when one of them came from the
// cache, else "fetched".
func FromRequests(arcname string, reqs []Request) Member {
	m := Member{Arcname: arcname, Source: Fetched, Requests: append([]Request{}, reqs...)}
	for _, r := range reqs {
		if r.Source == Cache {
			m.Source = Cache
		}
	}
	return m
}

// FromOffline is the member for a copy read from .sdd/pr/<file>.
func FromOffline(arcname, file string) Member {
	p := ".sdd/pr/" + file
	return Member{Arcname: arcname, Source: Offline, Path: &p, Requests: []Request{}}
}

// Marshal renders s as it is stored: members sorted by arcname, lists never null, package jsonout's layout.
func (s *Sources) Marshal() ([]byte, error) {
	out := Sources{V: Version, Members: append([]Member{}, s.Members...)}
	sort.Slice(out.Members, func(i, j int) bool { return out.Members[i].Arcname < out.Members[j].Arcname })
	for i := range out.Members {
		if out.Members[i].Requests == nil {
			out.Members[i].Requests = []Request{}
		}
		if i > 0 && out.Members[i].Arcname == out.Members[i-1].Arcname {
			return nil, fmt.Errorf("%s: %s is listed twice", Arcname, out.Members[i].Arcname)
		}
	}
	return jsonout.Bytes(out)
}

// Describe is the member's source in words, for verify's and view's lines: "fetched from GitHub: URL",
// "GitHub's answer from the ETag cache (304 Not Modified): URL (ETag …, cached at …, 3 h before the bundle
// was made)", "offline copy from .sdd/pr/…, not from GitHub". createdAt is the manifest's created_at, which the
// cache's age is counted back from ("" or unreadable: no age).
func (m Member) Describe(createdAt string) string {
	switch m.Source {
	case Offline:
		p := ""
		if m.Path != nil {
			p = *m.Path
		}
		return "offline copy from " + p + ", not from GitHub"
	case Cache:
		s := "GitHub's answer from the ETag cache (304 Not Modified):"
		for i, r := range m.Requests {
			if i > 0 {
				s += ","
			}
			s += " " + r.describe(createdAt)
		}
		return s
	}
	s := "fetched from GitHub:"
	for i, r := range m.Requests {
		if i > 0 {
			s += ","
		}
		s += " " + r.URL
	}
	return s
}

func (r Request) describe(createdAt string) string {
	if r.Source != Cache {
		return r.URL + " (fetched)"
	}
	etag, at := "", ""
	if r.ETag != nil {
		etag = *r.ETag
	}
	if r.CachedAt != nil {
		at = *r.CachedAt
	}
	return fmt.Sprintf("%s (ETag %s, cached at %s%s)", r.URL, etag, at, age(at, createdAt))
}

// age is ", <age> before the bundle was made" when both times read and the cache is older; the bundle's
// created_at may be pinned (--created-at, a commit's date), so a cache younger than it says nothing.
func age(cachedAt, createdAt string) string {
	c, err1 := time.Parse(timeFormat, cachedAt)
	b, err2 := time.Parse(timeFormat, createdAt)
	if err1 != nil || err2 != nil || b.Before(c) {
		return ""
	}
	d := b.Sub(c)
	switch {
	case d < time.Minute:
		return fmt.Sprintf(", %d s before the bundle was made", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf(", %d min before the bundle was made", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf(", %d h before the bundle was made", int(d/time.Hour))
	}
	return fmt.Sprintf(", %d days before the bundle was made", int(d/(24*time.Hour)))
}
