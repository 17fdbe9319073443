package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"sync"

	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/mergesubject"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// maxListPages bounds the search of the repository's pull requests by head branch: the 300 most recently
// updated ones. Older pull requests are still found through merge commits, squash subjects and --pr.
const maxListPages = 3

// squashRe is the "(#N)" GitHub appends to the subject of a squash or rebase merge.
var squashRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(#([0-9]+)\)\s*$`) })

// NumbersFromCommits returns the pull request numbers the tied commits name, in commit order: GitHub merge
// commits ("Merge pull request #N from …") and squash subjects ending in "(#N)".
func NumbersFromCommits(commits *discover.Commits) []int {
	if commits == nil {
		return nil
	}
	var out []int
	for _, d := range commits.Details {
		if len(d.Parents) > 1 {
			if n, err := strconv.Atoi(mergesubject.PullRequestNumber(d.Subject)); err == nil && n > 0 {
				out = append(out, n)
			}
			continue
		}
		if m := squashRe().FindStringSubmatch(d.Subject); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

// numbersForCommit asks GitHub which pull requests contain sha. GitHub answers 422 for a commit it does not
// have (not pushed yet): that is no pull request, not a failure.
func (c *Client) numbersForCommit(ctx context.Context, sha string) ([]int, error) {
	q := url.Values{"per_page": {strconv.Itoa(maxPerPage)}}
	body, _, err := c.getRaw(ctx, c.repoPath()+"/commits/"+url.PathEscape(sha)+"/pulls?"+q.Encode())
	if statusOf(err) == 422 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []int
	err = eachPull(body, "the pull requests of commit "+sha, func(p pullHead) {
		if p.Number > 0 {
			out = append(out, p.Number)
		}
	})
	return out, err
}

// numbersByHead lists the repository's pull requests, open and closed, most recently updated first, and returns
// those whose head branch names the ticket (as a token, so ENG-42 does not pick up ENG-420-x).
func (c *Client) numbersByHead(ctx context.Context, tk ticket.Ticket) ([]int, error) {
	var out []int
	q := url.Values{"state": {"all"}, "sort": {"updated"}, "direction": {"desc"}, "per_page": {strconv.Itoa(maxPerPage)}}
	for page := 0; page < maxListPages; page++ {
		body, resp, err := c.getRaw(ctx, c.repoPath()+"/pulls?"+q.Encode())
		if err != nil {
			return out, err
		}
		err = eachPull(body, "the list of pull requests", func(p pullHead) {
			if tk.NamedInRef(p.Head.Ref) && p.Number > 0 {
				out = append(out, p.Number)
			}
		})
		if err != nil {
			return out, err
		}
		if resp.NextPage == 0 {
			break
		}
		q.Set("page", strconv.Itoa(resp.NextPage))
	}
	return out, nil
}

// pullHead is what the lists are read for. Decoding into it, one element at a time, keeps memory flat: go-github's
// typed lists decode every element into a full PullRequest, so a small answer of "[{},{},…]" took gigabytes.
type pullHead struct {
	Number int `json:"number"`
	Head   struct {
		Ref string `json:"ref"`
	} `json:"head"`
}

func eachPull(body []byte, what string, fn func(pullHead)) error {
	return eachElement(body, what, func(raw json.RawMessage) error {
		var p pullHead
		if json.Unmarshal(raw, &p) != nil {
			return &errNotList{what: what, why: "an element is not a pull request object"}
		}
		fn(p)
		return nil
	})
}

// eachElement calls fn with each element of the JSON array body, at most maxPerPage of them.
func eachElement(body []byte, what string, fn func(json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return &errNotList{what: what, why: "not a JSON array"}
	}
	for n := 0; dec.More(); n++ {
		if n == maxPerPage {
			return &errNotList{what: what, why: fmt.Sprintf("more than the %d items a page holds", maxPerPage)}
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return &errNotList{what: what, why: "not a JSON array"}
		}
		if err := fn(raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &errNotList{what: what, why: "not a JSON array"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &errNotList{what: what, why: "data after the array"}
	}
	return nil
}

// errNotList is an answer that is not the list asked for.
type errNotList struct{ what, why string }

func (e *errNotList) Error() string {
	return fmt.Sprintf("GitHub's answer for %s is not usable (%s)", e.what, e.why)
}
