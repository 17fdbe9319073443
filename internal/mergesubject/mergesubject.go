// Package mergesubject reads what a merge commit's subject says it merged, as git, GitHub, GitLab and
// Bitbucket write it: the branch names (a ticket named in a merged branch ties the merge) and GitHub's pull
// request number. It reads text only, no repository.
//
// It is not in internal/github, where a pull request number might be looked for: that package builds on
// internal/discover (NumbersFromCommits reads discover.Commits), and discover needs these to tie merges.
package mergesubject

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// git's own messages: Merge branch 'x' [of URL] [into y]; Merge branches 'a' and 'b'; Merge remote-tracking
	// branch 'origin/x'. GitLab writes Merge branch 'x' into 'main'.
	gitMergeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Merge (?:remote-tracking )?branch(?:es)? (.*)$`) })
	quotedRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'([^']+)'`) })
	// GitHub: Merge pull request #17 from acme/ENG-42-x
	githubMergeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Merge pull request #(\d+) from (\S+)`) })
	// Bitbucket: Merged in feature/ENG-42 (pull request #5)
	bitbucketMergeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Merged in (\S+)`) })
)

// Branches returns the names of the branches a merge commit's subject says it merged; never the branch
// merged into. A GitHub "from owner/branch" name is returned as written (owner/branch).
func Branches(subject string) []string {
	subject = strings.TrimSpace(subject)
	if m := githubMergeRe().FindStringSubmatch(subject); m != nil {
		return []string{m[2]}
	}
	if m := bitbucketMergeRe().FindStringSubmatch(subject); m != nil {
		return []string{m[1]}
	}
	m := gitMergeRe().FindStringSubmatch(subject)
	if m == nil {
		return nil
	}
	rest := m[1]
	if i := strings.Index(rest, " into "); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.Index(rest, " of "); i >= 0 {
		rest = rest[:i]
	}
	var names []string
	for _, q := range quotedRe().FindAllStringSubmatch(rest, -1) {
		names = append(names, q[1])
	}
	if len(names) == 0 && rest != "" && !strings.ContainsAny(rest, " '") {
		names = append(names, rest) // unquoted form some tools write: Merge branch feature/x
	}
	return names
}

// PullRequestNumber returns N from GitHub's "Merge pull request #N from …", or "".
func PullRequestNumber(subject string) string {
	if m := githubMergeRe().FindStringSubmatch(strings.TrimSpace(subject)); m != nil {
		return m[1]
	}
	return ""
}
