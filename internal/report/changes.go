package report

import (
	"github.com/git-bernstein/git-bernstein/internal/landing"
	"slices"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// maxGridBranches caps the change × branch grid's columns: a repository with hundreds of review branches would
// otherwise make a grid nobody reads (and a page past its budget). The rest are counted in a note.
const maxGridBranches = 24

// changeGrid answers "is the fix on every supported branch, and which release shipped it?": a row per change
// (commits with one patch id, or linked by cherry-pick lines), a column per branch that holds any tied commit,
// and in each cell whether the change reached the branch and the first tags that contain it there: of the tags
// on that branch's history (landed_on.first_tags_by_branch), never the commit's tags on other branches.
type changeGrid struct {
	Branches []string
	Rows     []gridRow
	Note     string // columns left out
	// TagsNote says that the cells' tags are each commit's first tags on any branch: the bundle was made before
	// commits.json recorded them per branch (landed_on.first_tags_by_branch).
	TagsNote string
}

type gridRow struct {
	SHA, Subject string
	Cells        []gridCell
}

type gridCell struct {
	Landed bool
	Tags   string
}

// changesFrom reads git/commits.json's details (our bundles; nil for upstream's, which have none) and returns the
// commit rows grouped by change, backports under their original, and the grid; the grid is nil for bundles made
// before landed_on existed.
func changesFrom(mb *Member) ([]commitRow, *changeGrid) {
	if mb == nil || mb.Truncated {
		return nil, nil
	}
	doc, err := commitsjson.Parse(mb.Head)
	if err != nil || len(doc.Details) == 0 {
		return nil, nil
	}
	changes := discover.Changes(doc.Details)
	base := ""
	if doc.Discovery != nil {
		base = doc.Discovery.BaseBranch.Ref
	}
	var rows []commitRow
	for _, ch := range changes {
		for k, i := range ch.Commits {
			d := doc.Details[i]
			author := d.Author.Name
			if d.Author.Email != "" {
				author += " <" + d.Author.Email + ">"
			}
			row := commitRow{SHA: d.SHA, Author: author, Date: d.Author.Date, Subject: d.Subject,
				MatchedBy: strings.Join(d.MatchedBy, ", "), Backport: k > 0}
			if d.LandedOn != nil {
				// Shortened as `commits` shortens them (package landing); the file table has them all.
				row.Branches = landing.Branches(d.LandedOn.Branches, base).String()
				row.Tags = landing.Tags(d.LandedOn.Tags).String()
			}
			rows = append(rows, row)
		}
	}
	return rows, grid(doc.Details, changes)
}

func grid(details []discover.CommitDetail, changes []discover.Change) *changeGrid {
	seen := map[string]bool{}
	var branches []string
	for _, d := range details {
		if d.LandedOn == nil {
			continue
		}
		for _, b := range d.LandedOn.Branches {
			if !seen[b] {
				seen[b] = true
				branches = append(branches, b)
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	// Local branches first, then remote-tracking ones (as git branch -a lists them), each by name.
	sort.Slice(branches, func(a, b int) bool {
		ra, rb := strings.HasPrefix(branches[a], "remotes/"), strings.HasPrefix(branches[b], "remotes/")
		if ra != rb {
			return rb
		}
		return branches[a] < branches[b]
	})
	g := &changeGrid{Branches: branches}
	if len(branches) > maxGridBranches {
		g.Branches = branches[:maxGridBranches]
		g.Note = plural.Count(len(branches)-maxGridBranches, "more branch") + " not shown: each commit's branches are in the table below"
	}
	for _, ch := range changes {
		first := details[ch.Commits[0]]
		row := gridRow{SHA: first.SHA, Subject: first.Subject, Cells: make([]gridCell, len(g.Branches))}
		for col, b := range g.Branches {
			// The change's oldest commit on the branch: the original where it is there, else its backport.
			for _, i := range ch.Commits {
				d := details[i]
				if d.LandedOn != nil && slices.Contains(d.LandedOn.Branches, b) {
					tags, ok := d.LandedOn.FirstTagsByBranch[b]
					if !ok {
						// Which tags are on which branch was not recorded: the commit's first tags on all
						// branches, said to be that, rather than presented as this branch's.
						tags = d.LandedOn.Tags
						g.TagsNote = unrecordedTags
					}
					row.Cells[col] = gridCell{Landed: true, Tags: strings.Join(tags, ", ")}
					break
				}
			}
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// unrecordedTags is the grid's note for bundles without landed_on.first_tags_by_branch.
const unrecordedTags = "This bundle's commits.json does not say which tags are on which branch (first_tags_by_branch " +
	"was not recorded; it was made by an older git-bernstein): each cell lists the commit's first tags on any branch, " +
	"which may include tags that are not on that branch's history."
