package controls

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// The pr/ members the controls read, beside pr/pr_<N>.json and pr/pr_<N>.reviews.json. Package github fetches
// them and documents each (internal/github/doc.go, "Change-control evidence"); these names are the one spelling
// both sides use.

// CommitsName is GitHub's GET /repos/{o}/{r}/pulls/{n}/commits, every page joined into one array.
func CommitsName(n int) string { return fmt.Sprintf("pr/pr_%d.commits.json", n) }

// TimelineName is GET /repos/{o}/{r}/issues/{n}/timeline, every page joined into one array.
func TimelineName(n int) string { return fmt.Sprintf("pr/pr_%d.timeline.json", n) }

// CheckRunsName is GET /repos/{o}/{r}/commits/{sha}/check-runs for the pull request's head or merge commit.
func CheckRunsName(n int, sha string) string {
	return fmt.Sprintf("pr/pr_%d.check-runs.%s.json", n, sha)
}

// StatusName is GET /repos/{o}/{r}/commits/{sha}/status (the combined status) for the head or merge commit.
func StatusName(n int, sha string) string { return fmt.Sprintf("pr/pr_%d.status.%s.json", n, sha) }

// RulesName is GET /repos/{o}/{r}/rules/branches/{branch}: the active rules any reader can see. The branch is
// path-escaped (release/1.2 is rules_release%2F1.2.json), so a member is never in a folder of its own.
func RulesName(branch string) string { return "pr/rules_" + url.PathEscape(branch) + ".json" }

// ProtectionName is GET /repos/{o}/{r}/branches/{branch}/protection, or, when GitHub answered 403 or 404 (the
// token may not read it), the document {"not_readable":<status>,"message":<GitHub's message>}.
func ProtectionName(branch string) string { return "pr/protection_" + url.PathEscape(branch) + ".json" }

// IssueName is GET /repos/{o}/{r}/issues/{n} for the ticket itself (--tracker github).
func IssueName(n int) string { return fmt.Sprintf("pr/issue_%d.json", n) }

// IssueEventsName is GET /repos/{o}/{r}/issues/{n}/events for the ticket, every page joined into one array.
func IssueEventsName(n int) string { return fmt.Sprintf("pr/issue_%d.events.json", n) }

// The shapes GitHub documents, reduced to the fields the controls read.

type ghUser struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
	Type  string `json:"type"`
}

func (u *ghUser) name() string {
	if u == nil {
		return "(unknown user)"
	}
	return u.Login
}

type ghRef struct {
	SHA string `json:"sha"`
	Ref string `json:"ref"`
}

type ghPull struct {
	Number         int     `json:"number"`
	State          string  `json:"state"`
	User           *ghUser `json:"user"`
	Head           ghRef   `json:"head"`
	Base           ghRef   `json:"base"`
	CreatedAt      string  `json:"created_at"`
	MergedAt       *string `json:"merged_at"`
	MergedBy       *ghUser `json:"merged_by"`
	MergeCommitSHA *string `json:"merge_commit_sha"`
}

type ghReview struct {
	ID          int64   `json:"id"`
	User        *ghUser `json:"user"`
	State       string  `json:"state"`
	CommitID    string  `json:"commit_id"`
	SubmittedAt string  `json:"submitted_at"`
}

type ghGitPerson struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

type ghCommit struct {
	SHA    string `json:"sha"`
	Commit struct {
		Author    ghGitPerson `json:"author"`
		Committer ghGitPerson `json:"committer"`
		Message   string      `json:"message"`
		Tree      struct {
			SHA string `json:"sha"`
		} `json:"tree"`
	} `json:"commit"`
	Author    *ghUser `json:"author"`
	Committer *ghUser `json:"committer"`
	Parents   []struct {
		SHA string `json:"sha"`
	} `json:"parents"`
}

// ghEvent is one timeline (or issue) event. "committed" events carry sha, author and committer (git's people,
// no created_at); "reviewed" carries id, user, state, commit_id and submitted_at; the others actor and
// created_at.
type ghEvent struct {
	Event       string       `json:"event"`
	ID          int64        `json:"id"`
	Actor       *ghUser      `json:"actor"`
	User        *ghUser      `json:"user"`
	CreatedAt   string       `json:"created_at"`
	SubmittedAt string       `json:"submitted_at"`
	SHA         string       `json:"sha"`
	CommitID    string       `json:"commit_id"`
	State       string       `json:"state"`
	Author      *ghGitPerson `json:"author"`
	Committer   *ghGitPerson `json:"committer"`
	Tree        *struct {
		SHA string `json:"sha"`
	} `json:"tree"`
	DismissedReview *struct {
		ReviewID int64  `json:"review_id"`
		State    string `json:"state"`
	} `json:"dismissed_review"`
}

// when is the event's time: created_at, else submitted_at (reviewed), else the committer's date (committed).
func (e ghEvent) when() string {
	switch {
	case e.CreatedAt != "":
		return e.CreatedAt
	case e.SubmittedAt != "":
		return e.SubmittedAt
	case e.Committer != nil:
		return e.Committer.Date
	}
	return ""
}

type ghCheckRuns struct {
	TotalCount int `json:"total_count"`
	CheckRuns  []struct {
		Name        string  `json:"name"`
		Status      string  `json:"status"`
		Conclusion  *string `json:"conclusion"`
		CompletedAt *string `json:"completed_at"`
		HeadSHA     string  `json:"head_sha"`
	} `json:"check_runs"`
}

type ghStatus struct {
	State      string `json:"state"`
	TotalCount int    `json:"total_count"`
	Statuses   []struct {
		Context   string `json:"context"`
		State     string `json:"state"`
		UpdatedAt string `json:"updated_at"`
	} `json:"statuses"`
}

type ghRule struct {
	Type       string `json:"type"`
	Parameters struct {
		RequiredApprovingReviewCount *int `json:"required_approving_review_count"`
		RequireCodeOwnerReview       bool `json:"require_code_owner_review"`
		RequiredStatusChecks         []struct {
			Context string `json:"context"`
		} `json:"required_status_checks"`
	} `json:"parameters"`
}

type ghProtection struct {
	NotReadable          int    `json:"not_readable"`
	Message              string `json:"message"`
	RequiredStatusChecks *struct {
		Contexts []string `json:"contexts"`
		Checks   []struct {
			Context string `json:"context"`
		} `json:"checks"`
	} `json:"required_status_checks"`
	RequiredPullRequestReviews *struct {
		RequiredApprovingReviewCount int  `json:"required_approving_review_count"`
		RequireCodeOwnerReviews      bool `json:"require_code_owner_reviews"`
	} `json:"required_pull_request_reviews"`
}

type ghIssue struct {
	Number    int    `json:"number"`
	CreatedAt string `json:"created_at"`
	State     string `json:"state"`
	ClosedAt  string `json:"closed_at"`
}

// decode reads a member into v; the error names the member.
func decode(name string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s does not read as GitHub's answer: %v", name, err)
	}
	return nil
}

// trailers returns the values of the message's trailers whose key is key (case-insensitive), from its last
// paragraph, as git interpret-trailers reads them (key, colon, value).
func trailers(message, key string) []string {
	paras := strings.Split(strings.TrimSpace(strings.ReplaceAll(message, "\r\n", "\n")), "\n\n")
	if len(paras) < 2 {
		return nil
	}
	var out []string
	for _, line := range strings.Split(paras[len(paras)-1], "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// splitIdent splits "Name <email>" into its parts.
func splitIdent(s string) (name, email string) {
	if i := strings.LastIndex(s, "<"); i >= 0 && strings.HasSuffix(s, ">") {
		return strings.TrimSpace(s[:i]), strings.ToLower(strings.TrimSpace(s[i+1 : len(s)-1]))
	}
	return strings.TrimSpace(s), ""
}

// noreplyLogin reads GitHub's private address ID+login@users.noreply.github.com (or login@…), so that a commit
// made with it is tied to the account even when the payload's author is null.
func noreplyLogin(email string) (login string, id string) {
	local, ok := strings.CutSuffix(strings.ToLower(email), "@users.noreply.github.com")
	if !ok {
		return "", ""
	}
	if i := strings.IndexByte(local, '+'); i >= 0 {
		return local[i+1:], local[:i]
	}
	return local, ""
}
