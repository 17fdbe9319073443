package commitsjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// ErrMalformed: git/commits.json is not strict JSON (duplicate keys, bad UTF-8, trailing data), or has a
// missing, unknown or wrongly typed member.
var ErrMalformed = errors.New("git/commits.json is malformed")

// Parse reads git/commits.json as the verifier reads manifest.json: one JSON object of valid UTF-8, no
// duplicate member names at any depth, exact member names (encoding/json would take "SHA" or "Sha" for "sha",
// and the last of two "sha"s), every member with its type. Required: tracker, ticket_id and commits (all that
// upstream writes); details and discovery are optional, and so are a detail's patch_id, cherry_picked_from and
// landed_on (bundles made before them) and landed_on's first_tags_by_branch; null for details,
// cherry_picked_from or first_tags_by_branch is the same as absent. It does
// not judge the content (a sha twice, details that do not match
// commits): callers do, and say what is wrong.
func Parse(data []byte) (*Commits, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrMalformed)
	}
	v, err := strictjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: want a JSON object, got %s", ErrMalformed, strictjson.Kind(v))
	}
	o := fields{strictjson.Fields{M: top, Where: "git/commits.json", Err: ErrMalformed}}
	if err := o.only([]string{"tracker", "ticket_id", "commits"}, "details", "discovery"); err != nil {
		return nil, err
	}
	doc := &Commits{}
	if doc.Tracker, err = o.Str("tracker"); err != nil {
		return nil, err
	}
	if doc.TicketID, err = o.Str("ticket_id"); err != nil {
		return nil, err
	}
	if doc.Commits, err = o.StrList("commits"); err != nil {
		return nil, err
	}
	if v, ok := top["details"]; ok && v != nil { // null, as Go writes a nil list, is no details
		list, ok := top["details"].([]any)
		if !ok {
			return nil, fmt.Errorf("%w: git/commits.json: \"details\" must be a list, got %s", ErrMalformed, strictjson.Kind(top["details"]))
		}
		doc.Details = make([]CommitDetail, 0, len(list))
		for i, v := range list {
			d, err := detail(v, fmt.Sprintf("git/commits.json: details[%d]", i))
			if err != nil {
				return nil, err
			}
			doc.Details = append(doc.Details, d)
		}
	}
	if _, ok := top["discovery"]; ok {
		if doc.Discovery, err = discovery(top["discovery"]); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func detail(v any, where string) (CommitDetail, error) {
	var d CommitDetail
	obj, ok := v.(map[string]any)
	if !ok {
		return d, fmt.Errorf("%w: %s must be an object, got %s", ErrMalformed, where, strictjson.Kind(v))
	}
	o := fields{strictjson.Fields{M: obj, Where: where, Err: ErrMalformed}}
	if err := o.only([]string{"sha", "parents", "author", "committer", "subject", "matched_by"}, "patch_id", "cherry_picked_from", "landed_on"); err != nil {
		return d, err
	}
	var err error
	if d.SHA, err = o.Str("sha"); err != nil {
		return d, err
	}
	if d.Parents, err = o.StrList("parents"); err != nil {
		return d, err
	}
	if d.Author, err = o.person("author"); err != nil {
		return d, err
	}
	if d.Committer, err = o.person("committer"); err != nil {
		return d, err
	}
	if d.Subject, err = o.Str("subject"); err != nil {
		return d, err
	}
	if d.MatchedBy, err = o.StrList("matched_by"); err != nil {
		return d, err
	}
	if p, ok := obj["patch_id"]; ok && p != nil {
		s, err := o.Str("patch_id")
		if err != nil {
			return d, err
		}
		d.PatchID = &s
	}
	if v, ok := obj["cherry_picked_from"]; ok && v != nil {
		if d.CherryPickedFrom, err = o.StrList("cherry_picked_from"); err != nil {
			return d, err
		}
	}
	if l, ok := obj["landed_on"]; ok && l != nil {
		lo, ok := l.(map[string]any)
		if !ok {
			return d, fmt.Errorf("%w: %s: \"landed_on\" must be an object or null, got %s", ErrMalformed, where, strictjson.Kind(l))
		}
		lf := fields{strictjson.Fields{M: lo, Where: where + ": landed_on", Err: ErrMalformed}}
		if err := lf.only([]string{"branches", "tags"}, "first_tags_by_branch"); err != nil {
			return d, err
		}
		d.LandedOn = &LandedOn{}
		if d.LandedOn.Branches, err = lf.StrList("branches"); err != nil {
			return d, err
		}
		if d.LandedOn.Tags, err = lf.StrList("tags"); err != nil {
			return d, err
		}
		if v, ok := lo["first_tags_by_branch"]; ok && v != nil { // null, as Go writes a nil map, is absent
			byBranch, ok := v.(map[string]any)
			if !ok {
				return d, fmt.Errorf("%w: %s: landed_on: \"first_tags_by_branch\" must be an object or null, got %s", ErrMalformed, where, strictjson.Kind(v))
			}
			bf := fields{strictjson.Fields{M: byBranch, Where: where + ": landed_on: first_tags_by_branch", Err: ErrMalformed}}
			d.LandedOn.FirstTagsByBranch = make(map[string][]string, len(byBranch))
			for b := range byBranch {
				if d.LandedOn.FirstTagsByBranch[b], err = bf.StrList(b); err != nil {
					return d, err
				}
			}
		}
	}
	return d, nil
}

func discovery(v any) (*Discovery, error) {
	where := "git/commits.json: discovery"
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s must be an object, got %s", ErrMalformed, where, strictjson.Kind(v))
	}
	o := fields{strictjson.Fields{M: obj, Where: where, Err: ErrMalformed}}
	if err := o.only([]string{"rules", "sources", "trailer_keys", "trailer_separators", "trailer_configured", "github_repo",
		"base_branch", "diff_settings", "tips", "shallow"}); err != nil {
		return nil, err
	}
	d := &Discovery{}
	var err error
	if d.Rules, err = o.smallInt("rules"); err != nil {
		return nil, err
	}
	if d.Sources, err = o.StrList("sources"); err != nil {
		return nil, err
	}
	if d.TrailerKeys, err = o.StrList("trailer_keys"); err != nil {
		return nil, err
	}
	if d.TrailerSeparators, err = o.Str("trailer_separators"); err != nil {
		return nil, err
	}
	if d.TrailerConfigured, err = o.StrList("trailer_configured"); err != nil {
		return nil, err
	}
	if d.GitHubRepo, err = o.Str("github_repo"); err != nil {
		return nil, err
	}
	bo, ok := obj["base_branch"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s: \"base_branch\" must be an object, got %s", ErrMalformed, where, strictjson.Kind(obj["base_branch"]))
	}
	bf := fields{strictjson.Fields{M: bo, Where: where + ": base_branch", Err: ErrMalformed}}
	if err := bf.only([]string{"configured", "ref", "sha"}); err != nil {
		return nil, err
	}
	if d.BaseBranch.Configured, err = bf.Str("configured"); err != nil {
		return nil, err
	}
	if d.BaseBranch.Ref, err = bf.Str("ref"); err != nil {
		return nil, err
	}
	if d.BaseBranch.SHA, err = bf.Str("sha"); err != nil {
		return nil, err
	}
	if d.DiffSettings, err = o.Str("diff_settings"); err != nil {
		return nil, err
	}
	to, ok := obj["tips"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s: \"tips\" must be an object, got %s", ErrMalformed, where, strictjson.Kind(obj["tips"]))
	}
	d.Tips = make(map[string]string, len(to))
	tf := fields{strictjson.Fields{M: to, Where: where + ": tips", Err: ErrMalformed}}
	names := make([]string, 0, len(to))
	for name := range to {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if d.Tips[name], err = tf.Str(name); err != nil {
			return nil, err
		}
	}
	if d.Shallow, err = o.StrList("shallow"); err != nil {
		return nil, err
	}
	return d, nil
}

// fields reads the members of one object with exact types; where names it in errors.
type fields struct{ strictjson.Fields }

// only checks that every required member is there and no member is other than required or optional.
func (o fields) only(required []string, optional ...string) error {
	allowed := map[string]bool{}
	for _, n := range required {
		allowed[n] = true
		if _, ok := o.M[n]; !ok {
			return fmt.Errorf("%w: %s: %q is missing", ErrMalformed, o.Where, n)
		}
	}
	for _, n := range optional {
		allowed[n] = true
	}
	var unknown []string
	for k := range o.M {
		if !allowed[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("%w: %s: unknown member %.80q (it has %s)", ErrMalformed, o.Where, unknown[0], strings.Join(append(required, optional...), ", "))
	}
	return nil
}

func (o fields) person(name string) (Person, error) {
	var p Person
	obj, ok := o.M[name].(map[string]any)
	if !ok {
		return p, fmt.Errorf("%w: %s: %q must be an object, got %s", ErrMalformed, o.Where, name, strictjson.Kind(o.M[name]))
	}
	f := fields{strictjson.Fields{M: obj, Where: o.Where + ": " + name, Err: ErrMalformed}}
	if err := f.only([]string{"name", "email", "date"}); err != nil {
		return p, err
	}
	var err error
	if p.Name, err = f.Str("name"); err != nil {
		return p, err
	}
	if p.Email, err = f.Str("email"); err != nil {
		return p, err
	}
	p.Date, err = f.Str("date")
	return p, err
}

// smallInt reads a non-negative integer literal of at most six digits (no sign, fraction or exponent).
func (o fields) smallInt(name string) (int, error) {
	num, ok := o.M[name].(json.Number)
	if !ok || len(num) > 6 || strings.ContainsAny(string(num), "-+.eE") {
		return 0, fmt.Errorf("%w: %s: %q must be a small non-negative integer, got %.20v", ErrMalformed, o.Where, name, o.M[name])
	}
	n, err := strconv.Atoi(string(num))
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %q: %v", ErrMalformed, o.Where, name, err)
	}
	return n, nil
}
