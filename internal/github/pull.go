package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/git-bernstein/git-bernstein/internal/prsource"
)

// errNotPullRequest is an answer that is not the pull request asked for: an HTML page from a proxy, or a GitHub
// Enterprise URL without /api/v3 that served the web UI.
type errNotPullRequest struct {
	number int
	why    string
}

func (e *errNotPullRequest) Error() string {
	return fmt.Sprintf("the answer for #%d is not that pull request's JSON (%s)", e.number, e.why)
}

// pull returns the pull request's payload as the API returned it, and where it came from.
func (c *Client) pull(ctx context.Context, number int) ([]byte, prsource.Member, error) {
	body, resp, err := c.getRaw(ctx, fmt.Sprintf("%s/pulls/%d", c.repoPath(), number))
	if err != nil {
		return nil, prsource.Member{}, err
	}
	if err := checkPayload(body, number); err != nil {
		return nil, prsource.Member{}, err
	}
	return body, prsource.FromRequests("", []prsource.Request{c.sourceOf(resp)}), nil
}

// checkPayload makes sure body is a JSON object whose "number" is number: we store what GitHub said, but only
// when it is what we asked for.
func checkPayload(body []byte, number int) error {
	var head struct {
		Number *int `json:"number"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		why := "not a JSON object"
		if len(bytes.TrimSpace(body)) == 0 {
			why = "empty"
		}
		return &errNotPullRequest{number, why}
	}
	if head.Number == nil || *head.Number != number {
		return &errNotPullRequest{number, "its \"number\" differs"}
	}
	return nil
}

// reviews returns every review of the pull request as one JSON array. GitHub pages reviews (at most 100 a
// page); we follow the Link headers and join the pages' elements, each kept byte for byte as the API sent it,
// into one array, so that pr_<n>.reviews.json is one document a reader can load, not a stream of pages. It
// also says where each page came from.
func (c *Client) reviews(ctx context.Context, number int) ([]byte, prsource.Member, error) {
	return c.list(ctx, fmt.Sprintf("%s/pulls/%d/reviews", c.repoPath(), number), fmt.Sprintf("the reviews of #%d", number))
}
