package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.html from the rendered pages")

// releasesCommitsJSON is KAFKA-10199's commits.json on the Kafka-shaped gittest.Releases (rc tags on side
// commits off the release branches), as `commits --json` writes it, and the repository.
func releasesCommitsJSON(t *testing.T) (*gittest.Releases, []byte) {
	t.Helper()
	x := gittest.NewReleases(t)
	repo, err := gitext.Discover(x.Dir, x.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := ticket.Parse("jira", "KAFKA-10199")
	res, err := discover.Find(repo, discover.Options{Ticket: tk, Sources: discover.AllSources, TrailerKeys: discover.DefaultTrailerKeys})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return x, data
}

// gridSection is the page's "Where each change landed" section, from its heading to the end of its table.
func gridSection(t *testing.T, page string) string {
	t.Helper()
	start := strings.Index(page, `<h3 id="landed">`)
	if start < 0 {
		t.Fatal("the page has no grid")
	}
	end := strings.Index(page[start:], "</table>")
	return page[start:start+end+len("</table>")] + "\n"
}

func goldenHTML(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal([]byte(got), want) {
		t.Errorf("%s differs from the golden file:\n%s", name, got)
	}
}

// TestGridTagsPerBranch: issue 26 item 3. Each cell of "Where each change landed" names the first tags that
// contain the change and are on that branch's history, as git tag --merged <branch> --contains <commit> (less the
// tags another of them is in) says, never the commit's first tags on all branches: Kafka's rc tags sit on side
// commits, so KAFKA-10199's trunk cell showed 3.3.0 though no tag of trunk's history but trunk-nightly has it.
func TestGridTagsPerBranch(t *testing.T) {
	t.Parallel()
	x, data := releasesCommitsJSON(t)
	var doc discover.Commits
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	g := grid(doc.Details, discover.Changes(doc.Details))
	if g == nil || g.TagsNote != "" {
		t.Fatalf("grid %+v: want one, with per-branch tags", g)
	}
	bySHA := map[string]discover.CommitDetail{}
	for _, d := range doc.Details {
		bySHA[d.SHA] = d
	}
	for _, ch := range discover.Changes(doc.Details) {
		row := g.Rows[0]
		for _, r := range g.Rows {
			if r.SHA == doc.Details[ch.Commits[0]].SHA {
				row = r
			}
		}
		for col, b := range g.Branches {
			// The change's oldest commit on b, and what git says of it there.
			var on string
			for _, i := range ch.Commits {
				if slices.Contains(doc.Details[i].LandedOn.Branches, b) {
					on = doc.Details[i].SHA
					break
				}
			}
			cell := row.Cells[col]
			if on == "" {
				if cell.Landed {
					t.Errorf("%s on %s: landed, but no commit of it is", row.Subject, b)
				}
				continue
			}
			want := strings.Join(firstTagsOnBranch(t, x.Repo, on, b), ", ")
			if !cell.Landed || cell.Tags != want {
				t.Errorf("%s (%s) on %s: cell %+v, git tag --merged %s --contains (first): %q", row.Subject, on[:7], b, cell, b, want)
			}
		}
	}

	files := fullBundle()
	files["git/commits.json"] = string(data)
	archive, sig, keys := testBundle(t, files, nil)
	page, _ := render(t, archive, sig, keys)
	goldenHTML(t, "grid.golden.html", gridSection(t, page))
}

// TestGridWithoutTagsByBranch: a bundle made before first_tags_by_branch shows each commit's first tags as it
// always did, under a note that they are not per branch: old data, said to be what it is, never a wrong claim.
func TestGridWithoutTagsByBranch(t *testing.T) {
	t.Parallel()
	_, data := releasesCommitsJSON(t)
	var doc map[string]any // as an older git-bernstein wrote it: landed_on without the key
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, d := range doc["details"].([]any) {
		delete(d.(map[string]any)["landed_on"].(map[string]any), "first_tags_by_branch")
	}
	old, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(old, []byte("first_tags_by_branch")) {
		t.Fatal("the older bundle still has first_tags_by_branch")
	}
	files := fullBundle()
	files["git/commits.json"] = string(old)
	archive, sig, keys := testBundle(t, files, nil)
	page, _ := render(t, archive, sig, keys)
	section := gridSection(t, page)
	if !strings.Contains(section, "not recorded") {
		t.Errorf("no note that the per-branch tags were not recorded:\n%s", section)
	}
	goldenHTML(t, "grid-unrecorded.golden.html", section)
}

// firstTagsOnBranch is `git tag --merged branch --contains sha` less every tag another of them (at another
// commit) is in, sorted by name.
func firstTagsOnBranch(t *testing.T, r *gittest.Repo, sha, branch string) []string {
	t.Helper()
	tags := strings.Fields(r.Git("tag", "--merged", branch, "--contains", sha))
	var out []string
	for _, a := range tags {
		first := true
		for _, b := range tags {
			if r.Rev(a+"^{commit}") == r.Rev(b+"^{commit}") {
				continue
			}
			if _, err := r.GitErr("merge-base", "--is-ancestor", b, a); err == nil {
				first = false
				break
			}
		}
		if first {
			out = append(out, a)
		}
	}
	return out
}
