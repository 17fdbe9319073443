package github

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	gh "github.com/google/go-github/v62/github"
)

// minTokenLen: a token shorter than this is not looked for in answers and warnings (it would match by chance).
const minTokenLen = 4

// errTokenEchoed is an answer that holds the token's bytes: it is not used, so it is never packed.
var errTokenEchoed = errors.New("GitHub's answer repeats the token")

// failure is what went wrong with a request, said for a person.
type failure struct {
	// stop: every later request would fail the same way (offline, timeout, bad token, rate limit), so make none.
	stop bool
	what string // what happened
	todo string // what to do about it
}

// endpoint says what was asked, because a 404 means different things: no such pull request, or no such
// repository (or a private one we may not see).
type endpoint int

const (
	endpointPull endpoint = iota
	endpointReviews
	endpointList
)

func statusOf(err error) int {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}

// classify turns an error from a request into a failure. The token never appears: go-github's errors carry the
// method, the URL (which has no token) and GitHub's message, and Fetch scrubs every warning once more.
func (c *Client) classify(err error, ep endpoint, number int) failure {
	var rl *gh.RateLimitError
	var abuse *gh.AbuseRateLimitError
	var er *gh.ErrorResponse
	var bad *errNotPullRequest
	var notList *errNotList
	var tooMuch *errTooMuch
	var otp *gh.TwoFactorAuthError
	switch {
	case errors.As(err, &tooMuch):
		return failure{stop: true, what: tooMuch.Error() + ": an answer that does not end, or a compressed answer that inflates without bound",
			todo: "check that the API URL (--github-api-url, GITHUB_API_URL) is GitHub's API, or pass --no-pr"}
	case errors.Is(err, context.DeadlineExceeded):
		return failure{stop: true, what: fmt.Sprintf("GitHub at %s gave no answer within %s", c.apiURL, c.timeout),
			todo: "check the network or the API URL (--github-api-url, GITHUB_API_URL), or pass --no-pr"}
	case errors.As(err, &rl):
		return failure{stop: true, what: "GitHub's API rate limit is used up (" + c.resetText(rl.Rate.Limit, rl.Rate.Reset.Time) + ")",
			todo: c.rateTodo()}
	case errors.As(err, &abuse):
		wait := "GitHub gave no time"
		if abuse.RetryAfter != nil {
			wait = "retry after " + abuse.RetryAfter.Round(time.Second).String()
		}
		return failure{stop: true, what: "GitHub's secondary rate limit was hit (" + wait + ")",
			todo: "wait and run bundle again, or pass --no-pr"}
	case errors.As(err, &bad):
		return failure{what: bad.Error(),
			todo: "check that the API URL is the API (https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise)"}
	case errors.As(err, &notList):
		return failure{what: notList.Error(),
			todo: "check that the API URL is the API (https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise)"}
	case errors.Is(err, errTokenEchoed):
		return failure{what: "GitHub's answer repeats the token, so it was not used or packed",
			todo: "check the API URL and any proxy on the way, and revoke the token if that server is not GitHub"}
	case errors.As(err, &otp):
		// go-github gives this its own type, which the status cases below would not see: it read as "cannot
		// reach GitHub" with go-github's raw error text.
		return failure{stop: true, what: "GitHub asks for a one-time password (401, X-GitHub-OTP: required): the credentials are an account's password, not a token",
			todo: "set GITHUB_TOKEN (or GH_TOKEN) to a personal access token that can read " + c.repo.String() + "; tokens need no one-time password"}
	case errors.As(err, &er) && er.Response != nil:
		return c.classifyStatus(er, ep, number)
	}
	return failure{stop: true, what: fmt.Sprintf("cannot reach GitHub at %s (%s)", c.apiURL, networkCause(err)),
		todo: "check the network or the API URL (--github-api-url, GITHUB_API_URL), or pass --no-pr"}
}

func (c *Client) classifyStatus(er *gh.ErrorResponse, ep endpoint, number int) failure {
	code := er.Response.StatusCode
	said := strconv.Itoa(code)
	if msg := strings.TrimSpace(er.Message); msg != "" {
		said += " " + msg
	}
	readable := "a token that can read " + c.repo.String()
	switch {
	case code == http.StatusUnauthorized:
		if c.token == "" {
			return failure{stop: true, what: "GitHub asks for credentials (" + said + ")", todo: "set GITHUB_TOKEN to " + readable}
		}
		return failure{stop: true, what: "GitHub refused the token (" + said + ")",
			todo: "set GITHUB_TOKEN (or GH_TOKEN) to a valid token that can read " + c.repo.String()}
	case code == http.StatusTooManyRequests:
		limit, _ := strconv.Atoi(er.Response.Header.Get("X-RateLimit-Limit"))
		var reset time.Time
		if d := retryAfter(er.Response.Header); d > 0 {
			reset = c.now().Add(d)
		}
		if v, err := strconv.ParseInt(er.Response.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil && v > 0 {
			reset = time.Unix(v, 0)
		}
		return failure{stop: true, what: "GitHub's API rate limit is used up (" + c.resetText(limit, reset) + ")", todo: c.rateTodo()}
	case code == http.StatusForbidden:
		return failure{stop: true, what: "GitHub denied access to " + c.repo.String() + " (" + said + ")",
			todo: "set GITHUB_TOKEN to " + readable + " (authorised for the organisation's SSO if it uses one)"}
	case code == http.StatusNotFound && ep == endpointPull:
		todo := "check the number and the repository (--github-repo, git config bernstein.githubRepo)"
		if c.token == "" {
			todo += "; if " + c.repo.String() + " is private, set GITHUB_TOKEN"
		}
		return failure{what: fmt.Sprintf("%s has no pull request #%d (%s)", c.repo, number, said), todo: todo}
	case code == http.StatusNotFound && ep == endpointReviews:
		return failure{what: fmt.Sprintf("GitHub has no reviews list for #%d (%s)", number, said), todo: "run bundle again later"}
	case code == http.StatusNotFound:
		todo := "check the repository (--github-repo, git config bernstein.githubRepo, the origin remote)"
		if c.token == "" {
			todo += "; if it is private, set GITHUB_TOKEN"
		}
		return failure{stop: true, what: "GitHub does not know the repository " + c.repo.String() + " (" + said + ")", todo: todo}
	case code >= 500:
		return failure{what: "GitHub failed twice (" + said + ")", todo: "run bundle again later, or pass --no-pr"}
	}
	return failure{what: "GitHub refused the request (" + said + ")", todo: "check --github-repo and --github-api-url"}
}

// resetText says when a rate limit resets, in UTC and from now.
func (c *Client) resetText(limit int, reset time.Time) string {
	var parts []string
	if limit > 0 {
		parts = append(parts, fmt.Sprintf("%d requests an hour", limit))
	}
	if reset.IsZero() {
		parts = append(parts, "GitHub did not say when it resets")
	} else {
		in := reset.Sub(c.now()).Round(time.Second)
		if in < 0 {
			in = 0
		}
		parts = append(parts, fmt.Sprintf("it resets at %s, in %s", reset.UTC().Format("2006-01-02 15:04:05 UTC"), in))
	}
	return strings.Join(parts, "; ")
}

func (c *Client) rateTodo() string {
	if c.token == "" {
		return "set GITHUB_TOKEN for a higher limit, or run bundle again after the reset"
	}
	return "run bundle again after the reset, or pass --no-pr"
}

func retryAfter(h http.Header) time.Duration {
	if s, err := strconv.Atoi(h.Get("Retry-After")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

// networkCause names why a connection failed in a few words.
func networkCause(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dns):
		return "host " + dns.Name + " not found"
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return "network unreachable"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out"
	}
	return err.Error()
}
