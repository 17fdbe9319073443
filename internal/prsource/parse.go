package prsource

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// Parse outcomes, for errors.Is (doc.go, "Reading").
var (
	// ErrMalformed: not strict JSON, or a v 1 document with a missing, unknown or wrongly typed member or value.
	ErrMalformed = errors.New("malformed " + Arcname)
	// ErrUnsupported: "v" is an integer other than Version, a newer format.
	ErrUnsupported = errors.New("unsupported " + Arcname + " version")
)

// Parse reads pr/sources.json strictly (doc.go, "Reading"). Errors say which member is wrong.
func Parse(data []byte) (*Sources, error) {
	v, err := strictjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: want a JSON object, got %s", ErrMalformed, strictjson.Kind(v))
	}
	ver, ok := top["v"].(json.Number)
	if !ok {
		return nil, fmt.Errorf("%w: \"v\" must be an integer, got %s", ErrMalformed, strictjson.Kind(top["v"]))
	}
	if string(ver) != "1" {
		if n, err := ver.Int64(); err == nil && !strings.ContainsAny(string(ver), ".eE") && n > Version {
			return nil, fmt.Errorf("%w: v %d is newer than this program reads (%d); use a newer git-bernstein", ErrUnsupported, n, Version)
		}
		return nil, fmt.Errorf("%w: \"v\" is %.40s; only %d exists", ErrMalformed, ver, Version)
	}
	if err := only(top, "top level", "v", "members"); err != nil {
		return nil, err
	}
	list, ok := top["members"].([]any)
	if !ok {
		return nil, fmt.Errorf("%w: \"members\" must be a list, got %s", ErrMalformed, strictjson.Kind(top["members"]))
	}
	s := &Sources{V: Version, Members: make([]Member, 0, len(list))}
	seen := map[string]int{}
	for i, e := range list {
		where := fmt.Sprintf("members[%d]", i)
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: %s must be an object, got %s", ErrMalformed, where, strictjson.Kind(e))
		}
		m, err := member(obj, where)
		if err != nil {
			return nil, err
		}
		if j, dup := seen[m.Arcname]; dup {
			return nil, fmt.Errorf("%w: %s: %q is also members[%d]", ErrMalformed, where, m.Arcname, j)
		}
		seen[m.Arcname] = i
		s.Members = append(s.Members, m)
	}
	return s, nil
}

func member(o map[string]any, where string) (Member, error) {
	var m Member
	if err := only(o, where, "arcname", "source", "path", "requests"); err != nil {
		return m, err
	}
	var err error
	if m.Arcname, err = str(o, where, "arcname"); err != nil {
		return m, err
	}
	if err := manifest.CheckName(m.Arcname); err != nil {
		return m, fmt.Errorf("%w: %s: arcname: %v", ErrMalformed, where, err)
	}
	if !strings.HasPrefix(m.Arcname, "pr/") || m.Arcname == Arcname {
		return m, fmt.Errorf("%w: %s: arcname %q is not another member of pr/", ErrMalformed, where, m.Arcname)
	}
	where += " (" + m.Arcname + ")"
	if m.Source, err = str(o, where, "source"); err != nil {
		return m, err
	}
	if m.Path, err = optStr(o, where, "path"); err != nil {
		return m, err
	}
	list, ok := o["requests"].([]any)
	if !ok {
		return m, fmt.Errorf("%w: %s: \"requests\" must be a list, got %s", ErrMalformed, where, strictjson.Kind(o["requests"]))
	}
	m.Requests = make([]Request, 0, len(list))
	anyCache := false
	for i, e := range list {
		rw := fmt.Sprintf("%s: requests[%d]", where, i)
		obj, ok := e.(map[string]any)
		if !ok {
			return m, fmt.Errorf("%w: %s must be an object, got %s", ErrMalformed, rw, strictjson.Kind(e))
		}
		r, err := request(obj, rw)
		if err != nil {
			return m, err
		}
		anyCache = anyCache || r.Source == Cache
		m.Requests = append(m.Requests, r)
	}
	switch m.Source {
	case Offline:
		if m.Path == nil || !offlinePath(*m.Path) {
			return m, fmt.Errorf("%w: %s: an offline member's \"path\" must be .sdd/pr/<file name>", ErrMalformed, where)
		}
		if len(m.Requests) > 0 {
			return m, fmt.Errorf("%w: %s: an offline member has no requests", ErrMalformed, where)
		}
	case Fetched, Cache:
		if m.Path != nil {
			return m, fmt.Errorf("%w: %s: \"path\" must be null unless the source is offline", ErrMalformed, where)
		}
		if len(m.Requests) == 0 {
			return m, fmt.Errorf("%w: %s: a %s member lists the requests it came from; there are none", ErrMalformed, where, m.Source)
		}
		if anyCache != (m.Source == Cache) {
			return m, fmt.Errorf("%w: %s: source %q, but %s of its requests came from the cache", ErrMalformed, where, m.Source, map[bool]string{true: "one", false: "none"}[anyCache])
		}
	default:
		return m, fmt.Errorf("%w: %s: source %.40q is not fetched, cache or offline", ErrMalformed, where, m.Source)
	}
	return m, nil
}

func request(o map[string]any, where string) (Request, error) {
	var r Request
	if err := only(o, where, "url", "source", "etag", "cached_at"); err != nil {
		return r, err
	}
	var err error
	if r.URL, err = str(o, where, "url"); err != nil {
		return r, err
	}
	if u, err := url.Parse(r.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return r, fmt.Errorf("%w: %s: url %.200q is not an http(s) URL without user information", ErrMalformed, where, r.URL)
	}
	if r.Source, err = str(o, where, "source"); err != nil {
		return r, err
	}
	if r.ETag, err = optStr(o, where, "etag"); err != nil {
		return r, err
	}
	if r.CachedAt, err = optStr(o, where, "cached_at"); err != nil {
		return r, err
	}
	switch r.Source {
	case Fetched:
		if r.CachedAt != nil {
			return r, fmt.Errorf("%w: %s: a fetched request has no cached_at", ErrMalformed, where)
		}
	case Cache:
		if r.ETag == nil || *r.ETag == "" {
			return r, fmt.Errorf("%w: %s: a cache request names the ETag GitHub confirmed", ErrMalformed, where)
		}
		if r.CachedAt == nil {
			return r, fmt.Errorf("%w: %s: a cache request says when it was cached (cached_at)", ErrMalformed, where)
		}
		if _, err := time.Parse(timeFormat, *r.CachedAt); err != nil {
			return r, fmt.Errorf("%w: %s: cached_at %.40q is not YYYY-MM-DDTHH:MM:SSZ", ErrMalformed, where, *r.CachedAt)
		}
	default:
		return r, fmt.Errorf("%w: %s: source %.40q is not fetched or cache", ErrMalformed, where, r.Source)
	}
	return r, nil
}

// offlinePath is ".sdd/pr/<one file name>".
func offlinePath(p string) bool {
	name, ok := strings.CutPrefix(p, ".sdd/pr/")
	return ok && name != "" && manifest.CheckName(name) == nil && !strings.Contains(name, "/")
}

func only(o map[string]any, where string, names ...string) error {
	allowed := map[string]bool{}
	for _, n := range names {
		allowed[n] = true
		if _, ok := o[n]; !ok {
			return fmt.Errorf("%w: %s: %q is missing", ErrMalformed, where, n)
		}
	}
	for k := range o {
		if !allowed[k] {
			return fmt.Errorf("%w: %s: unknown member %.80q (v 1 has %s)", ErrMalformed, where, k, strings.Join(names, ", "))
		}
	}
	return nil
}

func str(o map[string]any, where, name string) (string, error) {
	s, ok := o[name].(string)
	if !ok {
		return "", fmt.Errorf("%w: %s: %q must be a string, got %s", ErrMalformed, where, name, strictjson.Kind(o[name]))
	}
	return s, nil
}

func optStr(o map[string]any, where, name string) (*string, error) {
	if o[name] == nil {
		return nil, nil
	}
	s, err := str(o, where, name)
	if err != nil {
		return nil, fmt.Errorf("%w (or null)", err)
	}
	return &s, nil
}
