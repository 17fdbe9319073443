package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestPictures: the badge, the activity timeline and the diffstats of a signed bundle, as a reader sees them.
func TestPictures(t *testing.T) {
	t.Parallel()
	archive, sig, keys := testBundle(t, fullBundle(), nil)
	out, _ := render(t, archive, sig, keys)
	for _, want := range []string{
		// the badge: stays at the top, links to the check lines
		`<div class="badge" id="badge"><a class="v-VERIFIED" href="#verdict" title="The verdict: go to the check lines">VERIFIED <span class="counts">7 pass</span></a></div>`,
		`<svg id="timeline" class="timeline"`,
		`1 commit, 1 trace record, 1 audit record by 3 actors, 2026-01-01 01:00 to 2026-01-01 02:00 UTC`,
		`>Ada Agent</text>`, `>tracker</text>`, `>ENG-42-trace</text>`,
		`<title>2026-01-01 02:00:00Z — Ada Agent — 72d901313566 Add login handler</title>`,
		`<title>2026-01-01 01:00:00Z — tracker — ticket.opened (lineage/tracker_audit.jsonl)</title>`,
		`<h3 id="diffstat">Files changed by the ticket</h3>`,
		`<td class="mono">src/login.py</td><td class="n">2</td>`,
		`<rect class="bar-add" width="60" height="10"/><rect class="bar-del" x="60" width="60" height="10"/>`,
		`1 file changed, 1 insertion(&#43;), 1 deletion(-)`,
		`<summary>Per commit (1)</summary>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Index(out, `id="badge"`) > strings.Index(out, `<h1>`) {
		t.Error("the badge must come first, to stay in view from the top")
	}
}

// TestPicturesBounded: thousands of commits and files give pictures of a bounded size: the timeline merges what
// falls in one column, the diffstats stop at picMaxCommits commits of picMaxFiles files.
func TestPicturesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	const commits, files = 3000, 80
	var details []string
	var patch strings.Builder
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < commits; i++ {
		sha := fmt.Sprintf("%040x", i+1)
		details = append(details, fmt.Sprintf(`{"sha":%q,"parents":[],"author":{"name":"agent-%d","email":"a@x","date":%q},"committer":{"name":"c","email":"c@x","date":%q},"subject":"change %d","matched_by":["message"]}`,
			sha, i%40, start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), start.Format(time.RFC3339), i))
		fmt.Fprintf(&patch, "From %s Mon Sep 17 00:00:00 2001\nSubject: [PATCH %d/%d] change %d\n\n---\n", sha, i+1, commits, i)
		for f := 0; f < files; f++ {
			fmt.Fprintf(&patch, "diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1 +1 @@\n-a\n+b\n", f, f, f, f)
		}
		patch.WriteString("-- \ngit-bernstein test\n")
	}
	b := map[string]string{
		"git/commits.json": `{"tracker":"github","ticket_id":"ENG-42","commits":[],"details":[` + strings.Join(details, ",") + `]}`,
		"git/diff.patch":   patch.String(),
	}
	archive, sig, keys := testBundle(t, b, nil)
	out, _ := render(t, archive, sig, keys)
	svg := regexp.MustCompile(`(?s)<svg id="timeline".*?</svg>`).FindString(out)
	if svg == "" {
		t.Fatal("no timeline")
	}
	marks := strings.Count(svg, `<rect class="k-`)
	if max := picMaxLanes * (picWidth / picColumn); marks > max || marks == 0 {
		t.Errorf("%d marks, want 1 to %d", marks, max)
	}
	if lanes := strings.Count(svg, `<g class="lane">`); lanes != picMaxLanes {
		t.Errorf("%d lanes, want %d (40 authors, the last ones sharing one)", lanes, picMaxLanes)
	}
	if !strings.Contains(svg, ">others</text>") || !strings.Contains(svg, " events from ") {
		t.Error("no shared lane, or no merged mark")
	}
	pics := out[strings.Index(out, `<section id="pictures"`):]
	pics = pics[:strings.Index(pics, "</section>")]
	if len(pics) > 4<<20 {
		t.Errorf("the pictures are %d bytes", len(pics))
	}
	if !strings.Contains(pics, "git/diff.patch is cut short on this page") {
		t.Error("the diffstats do not say that the patch was cut short")
	}

	// The whole series, as diffstats reads it: at most picMaxCommits commits of picMaxFiles files, each said.
	total, per, note := diffstats(&Member{Name: "git/diff.patch", Head: []byte(patch.String())})
	if len(per) != picMaxCommits || note != "Only the first 200 commits are drawn." {
		t.Errorf("%d per-commit diffstats (%q), want %d", len(per), note, picMaxCommits)
	}
	if len(per[0].Files) != picMaxFiles || per[0].More != "… and 30 more files" {
		t.Errorf("a commit's diffstat: %d files, %q", len(per[0].Files), per[0].More)
	}
	if total.Summary != "80 files changed, 240000 insertions(+), 240000 deletions(-)" {
		t.Errorf("total: %s", total.Summary)
	}
}
