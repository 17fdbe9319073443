package verify

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// CheckCommits holds git/commits.json against itself and the signed manifest: it runs after files, with no git,
// on every bundle that has the member (or whose manifest lists commits).
const CheckCommits = "commits"

// commitsCollector keeps git/commits.json from the one read of the archive.
type commitsCollector struct{ data *bytes.Buffer }

func (c *commitsCollector) Member(name string, size int64) (io.Writer, error) {
	if name != memberCommits {
		return nil, nil
	}
	c.data = &bytes.Buffer{}
	return c.data, nil
}

// checkCommits: git/commits.json read strictly (commitsjson.Parse: no duplicate keys, exact member names), each
// sha once in commits and once in details, details for exactly the listed commits, and the manifest's commits,
// tracker and ticket exactly the document's. A reader that takes one of two entries for a sha (view takes the
// first, a map the last) could show one and check the other; a manifest whose commits are not the document's
// signs a list nothing else in the bundle backs.
func checkCommits(m *manifest.Manifest, c *commitsCollector) *Check {
	chk := &Check{Check: CheckCommits}
	if c.data == nil {
		if len(m.Commits) == 0 {
			return nil // nothing to hold together
		}
		chk.Status = Fail
		chk.Detail = fmt.Sprintf("the manifest lists %s, but the bundle has no %s that describes them: make the bundle again with `git bernstein bundle`",
			plural.Count(len(m.Commits), "commit"), memberCommits)
		return chk
	}
	doc, err := commitsjson.Parse(c.data.Bytes())
	if err != nil {
		chk.Status = Fail
		chk.Detail = fmt.Sprintf("%v: readers could each see something else in it; make the bundle again with `git bernstein bundle`", err)
		return chk
	}
	var problems []string
	problem := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	if doc.Tracker != m.Tracker || doc.TicketID != m.TicketID {
		problem("%s is for tracker %.80q ticket %.80q, the manifest for tracker %.80q ticket %.80q", memberCommits, doc.Tracker, doc.TicketID, m.Tracker, m.TicketID)
	}
	listed := map[string]int{}
	for _, sha := range doc.Commits {
		listed[sha]++
		if listed[sha] == 2 {
			problem("%.80s is listed more than once in %s's commits", sha, memberCommits)
		}
	}
	if doc.Details != nil {
		detailed := map[string]int{}
		for _, d := range doc.Details {
			detailed[d.SHA]++
			switch {
			case detailed[d.SHA] == 2:
				problem("%.80s has more than one details entry in %s: readers take different ones (view shows the first, a check may hold the last)", d.SHA, memberCommits)
			case detailed[d.SHA] == 1 && listed[d.SHA] == 0:
				problem("%.80s has a details entry in %s, but its commits do not list it", d.SHA, memberCommits)
			}
		}
		for _, sha := range doc.Commits {
			if detailed[sha] == 0 && listed[sha] > 0 {
				listed[sha] = -1 // said once
				problem("%.80s is listed in %s's commits, but has no details entry", sha, memberCommits)
			}
		}
	}
	if !slices.Equal(m.Commits, doc.Commits) {
		inManifest := map[string]bool{}
		for _, sha := range m.Commits {
			inManifest[sha] = true
		}
		differs := false
		for _, sha := range m.Commits {
			if _, ok := listed[sha]; !ok {
				differs = true
				problem("%.80s is in the signed manifest's commits, but not in %s: nothing in the bundle describes it", sha, memberCommits)
			}
		}
		for _, sha := range doc.Commits {
			if !inManifest[sha] {
				differs = true
				inManifest[sha] = true // said once
				problem("%.80s is in %s's commits, but not in the signed manifest's", sha, memberCommits)
			}
		}
		if !differs {
			problem("the manifest's commits are %s's, but not in its order or with other repetitions", memberCommits)
		}
	}
	if len(problems) > 0 {
		chk.Status, chk.Problems = Fail, problems
		chk.Detail = fmt.Sprintf("%s does not agree with itself or with the signed manifest in %s (below): no bundle writer makes this; do not rely on its commit list, and make the bundle again with `git bernstein bundle`",
			memberCommits, plural.Count(len(problems), "place"))
		return chk
	}
	chk.Status = Pass
	chk.Detail = fmt.Sprintf("%s lists the manifest's %s in its order, each once", memberCommits, plural.Count(len(doc.Commits), "commit"))
	if doc.Details != nil {
		chk.Detail += ", with one details entry each"
	}
	return chk
}
