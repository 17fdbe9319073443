package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/termtext"
)

// CheckPRSources is the check of where the bundle's pull request payloads came from (package prsource): it runs
// when the bundle has a pr/ member, last.
const CheckPRSources = "pr-sources"

// maxPRSources bounds pr/sources.json: a few hundred bytes a member.
const maxPRSources = 16 << 20

// prSourcesCollector keeps pr/sources.json's bytes from the one read of the archive.
type prSourcesCollector struct {
	data    *bytes.Buffer
	tooLong bool
}

func (p *prSourcesCollector) Member(name string, size int64) (io.Writer, error) {
	if name != prsource.Arcname {
		return nil, nil
	}
	if size > maxPRSources {
		p.tooLong = true
		return nil, nil
	}
	p.data = &bytes.Buffer{}
	return p.data, nil
}

// check holds pr/sources.json against the pr/ members the archive holds (members) and says where each came
// from; nil when the bundle has no pr/ member. An offline copy, or a bundle that does not say (made before
// pr/sources.json existed), is a warning: the signature covers the bytes, but GitHub never said them
// (package prsource, "What the verifier says").
func (p *prSourcesCollector) check(members map[string]member, createdAt string) (*Check, []prsource.Member) {
	var present []string
	for name := range members {
		if strings.HasPrefix(name, "pr/") && name != prsource.Arcname {
			present = append(present, name)
		}
	}
	sort.Strings(present)
	_, hasSources := members[prsource.Arcname]
	switch {
	case len(present) == 0 && !hasSources:
		return nil, nil
	case p.tooLong:
		return &Check{Check: CheckPRSources, Status: Fail, unusable: true,
			Detail: fmt.Sprintf("%s is larger than %s: not read", prsource.Arcname, FormatSize(maxPRSources))}, nil
	case p.data == nil:
		problems := make([]string, len(present))
		for i, name := range present {
			problems[i] = name + ": source not recorded"
		}
		return &Check{Check: CheckPRSources, Status: Warn, Problems: problems, Detail: fmt.Sprintf(
			"sources not recorded: the bundle has no %s (made before it existed, or by another writer), so nothing says whether its %s GitHub's answers or offline copies from .sdd/pr that GitHub never saw",
			prsource.Arcname, plural.Count(len(present), "pr/ member")+map[bool]string{true: " is", false: " are"}[len(present) == 1])}, nil
	}
	src, err := prsource.Parse(p.data.Bytes())
	if err != nil {
		return &Check{Check: CheckPRSources, Status: Fail, Detail: err.Error(), unusable: errors.Is(err, prsource.ErrUnsupported)}, nil
	}
	named := map[string]bool{}
	for _, m := range src.Members {
		named[m.Arcname] = true
	}
	var problems []string
	for _, name := range present {
		if !named[name] {
			problems = append(problems, fmt.Sprintf("%.200q is in the archive, but %s does not say where it came from", name, prsource.Arcname))
		}
	}
	missing := 0
	for _, m := range src.Members {
		if _, ok := members[m.Arcname]; !ok {
			missing++
			problems = append(problems, fmt.Sprintf("%.200q is named by %s but is not in the archive", m.Arcname, prsource.Arcname))
		}
	}
	if len(problems) > 0 {
		return &Check{Check: CheckPRSources, Status: Fail, Problems: problems, Detail: fmt.Sprintf(
			"%s does not name exactly the pr/ members the archive holds: %d not named, %d named but missing",
			prsource.Arcname, len(problems)-missing, missing)}, nil
	}

	count := map[string]int{}
	out := make([]prsource.Member, len(src.Members))
	for i, m := range src.Members {
		count[m.Source]++
		problems = append(problems, m.Arcname+": "+m.Describe(createdAt))
		out[i] = cleanSource(m)
	}
	if n := count[prsource.Offline]; n > 0 {
		return &Check{Check: CheckPRSources, Status: Warn, Problems: problems, Detail: fmt.Sprintf(
			"%d of %s %s from .sdd/pr, not from GitHub: an agent or a person wrote %s, and the signature vouches only that the bundler packed %s as found",
			n, plural.Count(len(src.Members), "pr/ member"), map[bool]string{true: "is an offline copy", false: "are offline copies"}[n == 1],
			map[bool]string{true: "it", false: "them"}[n == 1], map[bool]string{true: "it", false: "them"}[n == 1])}, out
	}
	return &Check{Check: CheckPRSources, Status: Pass, Problems: problems, Detail: fmt.Sprintf(
		"%s, each GitHub's answer: %d fetched when the bundle was made, %d from the ETag cache after GitHub answered 304 Not Modified",
		plural.Count(len(src.Members), "pr/ member"), count[prsource.Fetched], count[prsource.Cache])}, out
}

// cleanSource removes control characters from a member's strings, which came from the bundle.
func cleanSource(m prsource.Member) prsource.Member {
	c := func(p *string) *string {
		if p == nil {
			return nil
		}
		s := termtext.Clean(*p)
		return &s
	}
	out := prsource.Member{Arcname: termtext.Clean(m.Arcname), Source: m.Source, Path: c(m.Path), Requests: make([]prsource.Request, len(m.Requests))}
	for i, r := range m.Requests {
		out.Requests[i] = prsource.Request{URL: termtext.Clean(r.URL), Source: r.Source, ETag: c(r.ETag), CachedAt: c(r.CachedAt)}
	}
	return out
}
