package verify

import (
	"bytes"
	"strings"
	"testing"
)

// The pr-sources check, on its own: what each pr/sources.json, held against the pr/ members present, makes of
// the line. The end-to-end tests (internal/cli, pr_sources_test.go) build real bundles.
func TestPRSourcesCheck(t *testing.T) {
	const fetched = `{"arcname":"pr/pr_7.json","source":"fetched","path":null,"requests":[{"url":"https://api.github.com/repos/acme/app/pulls/7","source":"fetched","etag":"\"x\"","cached_at":null}]}`
	const cached = `{"arcname":"pr/pr_7.reviews.json","source":"cache","path":null,"requests":[{"url":"https://api.github.com/repos/acme/app/pulls/7/reviews?per_page=100","source":"cache","etag":"\"r\"","cached_at":"2026-01-01T00:00:00Z"}]}`
	const offline = `{"arcname":"pr/pr_7.reviews.json","source":"offline","path":".sdd/pr/pr_7.reviews.json","requests":[]}`
	doc := func(ms ...string) string { return `{"v":1,"members":[` + strings.Join(ms, ",") + `]}` }
	both := map[string]member{"pr/pr_7.json": {}, "pr/pr_7.reviews.json": {}, "pr/sources.json": {}}
	for _, c := range []struct {
		name     string
		members  map[string]member
		sources  string // "" for none
		status   Status
		unusable bool
		want     string
	}{
		{"no pull requests", map[string]member{"git/commits.json": {}}, "", "", false, ""},
		{"not recorded", map[string]member{"pr/pr_7.json": {}}, "", Warn, false, "sources not recorded"},
		{"fetched and cache", both, doc(fetched, cached), Pass, false, "pr/pr_7.reviews.json: GitHub's answer from the ETag cache (304 Not Modified): https://api.github.com/repos/acme/app/pulls/7/reviews?per_page=100 (ETag \"r\", cached at 2026-01-01T00:00:00Z, 2 days before the bundle was made)"},
		{"offline", both, doc(fetched, offline), Warn, false, "pr/pr_7.reviews.json: offline copy from .sdd/pr/pr_7.reviews.json, not from GitHub"},
		{"a member not named", both, doc(fetched), Fail, false, `"pr/pr_7.reviews.json" is in the archive, but pr/sources.json does not say where it came from`},
		{"a name not present", map[string]member{"pr/pr_7.json": {}, "pr/sources.json": {}}, doc(fetched, offline), Fail, false, `"pr/pr_7.reviews.json" is named by pr/sources.json but is not in the archive`},
		{"duplicate key", both, strings.Replace(doc(fetched, offline), `"v":1`, `"v":1,"v":1`, 1), Fail, false, "duplicate member"},
		{"newer", both, `{"v":2}`, Fail, true, "newer than this program reads"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &prSourcesCollector{}
			if c.sources != "" {
				p.data = bytes.NewBufferString(c.sources)
			}
			chk, _ := p.check(c.members, "2026-01-03T00:00:00Z")
			if c.status == "" {
				if chk != nil {
					t.Fatalf("a line for a bundle without pr/: %+v", chk)
				}
				return
			}
			if chk == nil || chk.Status != c.status || chk.unusable != c.unusable {
				t.Fatalf("check %+v, want %s (unusable %v)", chk, c.status, c.unusable)
			}
			if text := chk.Detail + "\n" + strings.Join(chk.Problems, "\n"); !strings.Contains(text, c.want) {
				t.Errorf("the line says:\n%s\nwant %q", text, c.want)
			}
		})
	}
}
