package report

import (
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// backportsJSON is commits.json for a fix on main, a clean backport to stable/2 (same patch id) and a
// conflict-fixed one to stable/1 (another patch id, linked by its cherry-pick line).
const backportsJSON = `{"tracker":"github","ticket_id":"ENG-42",
"commits":["1111111111111111111111111111111111111111","2222222222222222222222222222222222222222","3333333333333333333333333333333333333333"],
"details":[
{"sha":"1111111111111111111111111111111111111111","parents":[],"author":{"name":"Ada","email":"ada@example.com","date":"2026-01-01T02:00:00Z"},
 "committer":{"name":"Ada","email":"ada@example.com","date":"2026-01-01T02:00:00Z"},"subject":"Fix the overflow","matched_by":["trailer:Refs"],
 "patch_id":"aaaa","cherry_picked_from":[],"landed_on":{"branches":["main","remotes/origin/main"],"tags":["v3.0"]}},
{"sha":"2222222222222222222222222222222222222222","parents":[],"author":{"name":"Ada","email":"ada@example.com","date":"2026-01-02T02:00:00Z"},
 "committer":{"name":"Ada","email":"ada@example.com","date":"2026-01-02T02:00:00Z"},"subject":"Fix the overflow","matched_by":["trailer:Refs"],
 "patch_id":"bbbb","cherry_picked_from":["1111111111111111111111111111111111111111"],"landed_on":{"branches":["stable/1"],"tags":["v1.0.1"]}},
{"sha":"3333333333333333333333333333333333333333","parents":[],"author":{"name":"Ada","email":"ada@example.com","date":"2026-01-03T02:00:00Z"},
 "committer":{"name":"Ada","email":"ada@example.com","date":"2026-01-03T02:00:00Z"},"subject":"Fix the overflow","matched_by":["trailer:Refs"],
 "patch_id":"aaaa","cherry_picked_from":["1111111111111111111111111111111111111111"],"landed_on":{"branches":["stable/2"],"tags":["v2.0.1"]}}]}`

// TestWhereChangesLanded renders a bundle whose commits.json has patch ids, cherry-pick links and landed_on:
// the change × branch grid with the first tag in each cell, and the commit table with the backports indented
// under the original. verify passes it like a bundle without those fields (TestEverySection).
func TestWhereChangesLanded(t *testing.T) {
	t.Parallel()
	files := fullBundle()
	files["git/commits.json"] = backportsJSON
	archive, sig, keys := testBundle(t, files, nil)
	out, b := render(t, archive, sig, keys)
	if b.Report.Verdict != verify.Verified {
		t.Fatalf("verdict %s\n%s", b.Report.Verdict, b.Report.Text())
	}
	for _, want := range []string{
		`<h3 id="landed">Where each change landed</h3>`,
		`<tr><th>Change</th><th class="mono">main</th><th class="mono">stable/1</th><th class="mono">stable/2</th><th class="mono">remotes/origin/main</th></tr>`,
		`<tr><td><span class="mono">111111111111</span> Fix the overflow</td><td class="landed">✓ v3.0</td><td class="landed">✓ v1.0.1</td><td class="landed">✓ v2.0.1</td><td class="landed">✓ v3.0</td></tr>`,
		`<tr><td class="mono">111111111111</td><td>Ada &lt;ada@example.com&gt;</td><td class="mono">2026-01-01T02:00:00Z</td><td class="subject">Fix the overflow</td><td class="mono">main</td><td class="mono">v3.0</td>`,
		`<tr class="backport"><td class="mono">222222222222</td>`, `<td class="subject">↳ Fix the overflow</td><td class="mono">stable/1</td><td class="mono">v1.0.1</td>`,
		`<tr class="backport"><td class="mono">333333333333</td>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Count(out, `<td class="landed">`) != 4 || strings.Contains(out, `<td class="absent">`) {
		t.Errorf("grid cells: want 4 landed and no absent ones")
	}
}

// TestNoGridForOlderBundles: a commits.json without landed_on (made before it existed) shows the table as before
// and no grid.
func TestNoGridForOlderBundles(t *testing.T) {
	t.Parallel()
	archive, sig, keys := testBundle(t, fullBundle(), nil)
	out, _ := render(t, archive, sig, keys)
	if strings.Contains(out, `id="landed"`) {
		t.Error("a grid for a bundle without landed_on")
	}
}
