package report

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
	"github.com/git-bernstein/git-bernstein/internal/controls"
	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// page is everything the template shows, already reduced to strings; html/template escapes each one.
type page struct {
	Title    string
	Verdict  string // VERIFIED, FAILED or UNVERIFIABLE
	ExitCode int
	Lines    []line // the verifier's report, line by line as `verify` prints it
	Means    string
	NotMeans string
	Shown    bool // members are shown (the archive check passed)

	Manifest    *manifest.Manifest
	ManifestErr string
	Files       []fileRow
	PRs         []prView
	Commits     []commitRow
	CommitsNote string
	Changes     *changeGrid      // which change reached which branch, and the first tag there
	Attribution []attributionRow // who wrote each file of the commits (lineage v1), with the lineage check only
	Patches     []patchView
	Transcripts []transcriptView
	Traces      []traceView
	Tables      []tableView      // lineage and audit
	Controls    *controls.Result // the change controls, as audit gives them; nil when not evaluated
	ControlsWhy string           // why they were not evaluated
	Others      []memberView
	// Omitted says how many members, and how many file-table rows, the page budget left out.
	Omitted     int
	RowsOmitted int

	Version  string
	PerLimit string
	AllLimit string
}

// line is one line of the text report; Class is pass, warn, fail, problem or verdict.
type line struct {
	Class, Text string
}

type fileRow struct {
	Name, Section, Size, SHA256, Status, Class string
}

type memberView struct {
	Name, Size, Text string
	Truncated        bool
}

// build turns a bundle into the page model.
func build(b *Bundle, version string) *page {
	r := b.Report
	p := &page{
		Verdict: r.Verdict, ExitCode: r.ExitCode, Means: r.Means, NotMeans: r.NotMeans,
		Shown: b.ManifestJSON != nil, Version: version,
		PerLimit: verify.FormatSize(MaxMemberShown), AllLimit: verify.FormatSize(MaxTotalShown),
	}
	p.Title = "Ticket bundle"
	if r.TicketID != "" {
		p.Title = fmt.Sprintf("%s %s", r.Tracker, r.TicketID)
	}
	for _, l := range strings.Split(strings.TrimSuffix(r.Text(), "\n"), "\n") {
		cls := "problem"
		switch {
		case strings.HasPrefix(l, "[PASS]"):
			cls = "pass"
		case strings.HasPrefix(l, "[WARN]"), strings.HasPrefix(l, "[UNUSABLE]"): // could not be checked: not a FAIL
			cls = "warn"
		case strings.HasPrefix(l, "[FAIL]"):
			cls = "fail"
		case strings.HasPrefix(l, r.Verdict+": "):
			cls = "verdict"
		}
		p.Lines = append(p.Lines, line{cls, l})
	}
	if !p.Shown {
		return p
	}
	m, err := manifest.Parse(b.ManifestJSON)
	if err != nil {
		p.ManifestErr = err.Error()
	} else {
		p.Manifest = m
	}
	p.Files, p.RowsOmitted = fileRows(m, b.Members, b.Omitted > 0)
	p.Omitted = b.Omitted

	createdAt := ""
	if m != nil {
		createdAt = m.CreatedAt
	}
	byName := map[string]*Member{}
	for _, mb := range b.Members {
		byName[mb.Name] = mb
	}
	if c := byName["git/commits.json"]; c != nil {
		p.Commits, p.CommitsNote = commitRows(c)
		_, p.Changes = changesFrom(c)
	}
	p.Attribution = attributionRows(r)
	if d := byName["git/diff.patch"]; d != nil {
		p.Patches = patches(d)
	}
	for _, mb := range b.Members {
		section, _, _ := strings.Cut(mb.Name, "/")
		switch {
		case mb.Name == "git/commits.json" || mb.Name == "git/diff.patch":
		case mb.Name == prsource.Arcname:
			p.Others = append(p.Others, rawView(mb)) // each pull request shows its part of it
		case prPayloadName().MatchString(mb.Name):
			reviews := strings.TrimSuffix(mb.Name, ".json") + ".reviews.json"
			pr := prFrom(mb, byName[reviews])
			pr.Source, pr.SourceWarn = sourceOf(r, mb.Name, createdAt)
			if pr.HasReviews = byName[reviews] != nil; pr.HasReviews {
				pr.ReviewsSource, pr.ReviewsSourceWarn = sourceOf(r, reviews, createdAt)
			}
			p.PRs = append(p.PRs, pr)
		case section == manifest.SectionPR && strings.HasSuffix(mb.Name, ".reviews.json"):
			if byName[strings.TrimSuffix(mb.Name, ".reviews.json")+".json"] == nil {
				p.Others = append(p.Others, rawView(mb))
			}
		case section == manifest.SectionTranscripts:
			p.Transcripts = append(p.Transcripts, transcript(mb))
		case section == manifest.SectionTraces:
			p.Traces = append(p.Traces, timeline(mb))
		case section == manifest.SectionLineage || section == manifest.SectionAudit:
			if tv, ok := table(mb); ok {
				p.Tables = append(p.Tables, tv)
			} else {
				p.Others = append(p.Others, rawView(mb))
			}
		default:
			p.Others = append(p.Others, rawView(mb))
		}
	}
	p.Controls, p.ControlsWhy = controlsOf(b)
	return p
}

// fileRows is the manifest's file list beside what the archive held: each listed file with its status, then any
// member the manifest does not list. Rows stop once their names pass MaxTableNamesShown; the count of rows left
// out is returned. someOmitted says the page budget left members out, so a member not shown may still be there.
func fileRows(m *manifest.Manifest, members []*Member, someOmitted bool) ([]fileRow, int) {
	got := map[string]*Member{}
	for _, mb := range members {
		got[mb.Name] = mb
	}
	var rows []fileRow
	omitted, names := 0, 0
	fits := func(name string) bool {
		if names+len(name) > MaxTableNamesShown {
			omitted++
			return false
		}
		names += len(name)
		return true
	}
	listed := map[string]bool{}
	if m != nil {
		for _, e := range m.Files {
			listed[e.Arcname] = true
			if !fits(e.Arcname) {
				continue
			}
			row := fileRow{Name: e.Arcname, Section: e.Section, Size: sizeText(e.SizeBytes), SHA256: e.SHA256}
			switch mb := got[e.Arcname]; {
			case mb == nil && someOmitted:
				row.Status, row.Class = "not shown: past the page's limit (verify says whether it matches)", "warn"
			case mb == nil:
				row.Status, row.Class = "missing from the archive", "fail"
			case mb.Size != e.SizeBytes || hex.EncodeToString(mb.SHA256[:]) != e.SHA256:
				row.Status, row.Class = fmt.Sprintf("differs: the archive holds %s, sha256 %x", sizeText(mb.Size), mb.SHA256), "fail"
			default:
				row.Status, row.Class = "matches", "pass"
			}
			rows = append(rows, row)
		}
	}
	for _, mb := range members {
		if !listed[mb.Name] && fits(mb.Name) {
			rows = append(rows, fileRow{Name: mb.Name, Size: sizeText(mb.Size), SHA256: hex.EncodeToString(mb.SHA256[:]),
				Status: "not in the manifest", Class: "fail"})
		}
	}
	return rows, omitted
}

func sizeText(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%s (%d B)", verify.FormatSize(n), n)
}

func rawView(mb *Member) memberView {
	return memberView{Name: mb.Name, Size: sizeText(mb.Size), Text: mb.Text(), Truncated: mb.Truncated}
}

// commitRow is one line of the commits table.
type commitRow struct {
	SHA, Author, Date, Subject, MatchedBy string
	// Branches and Tags are where it landed (landed_on); Backport indents it under its change's original.
	Branches, Tags string
	Backport       bool
}

// commitRows reads git/commits.json: ours carries per-commit details; upstream's only the SHA list.
func commitRows(mb *Member) ([]commitRow, string) {
	if mb.Truncated {
		return nil, fmt.Sprintf("git/commits.json is %s, more than is shown; see it in the archive", sizeText(mb.Size))
	}
	// Read as the verifier reads it (strict: no duplicate keys, exact names), so the page shows what was checked.
	doc, err := commitsjson.Parse(mb.Head)
	if err != nil {
		return nil, fmt.Sprintf("git/commits.json is not the commits document (%v)", err)
	}
	var rows []commitRow
	if grouped, _ := changesFrom(mb); grouped != nil {
		return grouped, ""
	}
	if len(doc.Details) > 0 {
		for _, d := range doc.Details {
			author := d.Author.Name
			if d.Author.Email != "" {
				author += " <" + d.Author.Email + ">"
			}
			rows = append(rows, commitRow{SHA: d.SHA, Author: author, Date: d.Author.Date, Subject: d.Subject,
				MatchedBy: strings.Join(d.MatchedBy, ", ")})
		}
		return rows, ""
	}
	for _, s := range doc.Commits {
		rows = append(rows, commitRow{SHA: s})
	}
	return rows, "git/commits.json lists commits without details (an upstream bundle)"
}
