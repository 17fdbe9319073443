package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/plural"
	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// The pictures of the page, for what people would rather look at than read: a verdict badge that stays in view,
// an activity timeline (who did what when, one lane per actor), and diffstats (files changed with proportional
// +/- bars, as `git diff --stat` draws them), for the whole ticket and per commit. All are inline SVG with
// presentation attributes and classes styled by the page's one hashed style sheet: the page's CSP (no script,
// nothing loaded, no inline style attribute) holds as before. Every picture is bounded whatever the bundle
// holds, so the page stays within its budget: the timeline aggregates the events of one lane that fall in the
// same column into one mark (its tooltip says how many), and the diffstats list at most picMaxCommits commits
// and picMaxFiles files each.

const (
	picWidth      = 960 // the timeline's drawing width in CSS pixels
	picLabelWidth = 180 // the lane names, left of the axis
	picLaneHeight = 22
	picColumn     = 3  // pixels per aggregated column: at most picWidth/picColumn marks a lane
	picMaxLanes   = 24 // further actors share one last lane
	picMaxCommits = 200
	picMaxFiles   = 50
	picBarWidth   = 120 // the widest +/- bar, for the file with the most changed lines
	picMaxName    = 160 // characters of a file name shown
)

// pictures is what the picture templates show.
type pictures struct {
	Verdict, Summary string // the badge: the verdict word and the check counts
	Timeline         *picTimeline
	Total            *picDiffstat   // the whole ticket
	Commits          []*picDiffstat // one per commit, in series order
	CommitsNote      string         // commits left out
}

type picTimeline struct {
	Width, Height, AxisX, AxisWidth int
	Lanes                           []picLane
	Ticks                           []picTick
	Events                          string   // "12 commits, 3 trace records by 4 actors, …"
	Kinds                           []string // the kinds present, for the legend
}

type picLane struct {
	Name, Kind string // Kind: commit, transcript, trace, lineage or audit (the colour)
	Y, TextY   int
	Marks      []picMark
}

type picMark struct {
	X, W  int
	Kind  string
	Title string
}

type picTick struct {
	X             int
	Label, Anchor string
}

type picDiffstat struct {
	SHA, Subject string
	Files        []picFile
	More         string // files left out
	Summary      string // "3 files changed, 12 insertions(+), 4 deletions(-)"
}

type picFile struct {
	Name               string
	Adds, Dels         int
	Binary             bool
	AddWidth, DelWidth int
	DelX               int
}

// buildPictures makes the pictures from the report and the members the page shows.
func buildPictures(b *Bundle) *pictures {
	r := b.Report
	pics := &pictures{Verdict: r.Verdict, Summary: checkSummary(r)}
	if b.ManifestJSON == nil {
		return pics
	}
	var evs []picEvent
	for _, mb := range b.Members {
		switch {
		case mb.Name == "git/commits.json":
			evs = append(evs, commitEvents(mb)...)
		case mb.Name == "git/diff.patch":
			pics.Total, pics.Commits, pics.CommitsNote = diffstats(mb)
		case strings.HasPrefix(mb.Name, "transcripts/"), strings.HasPrefix(mb.Name, "traces/"),
			strings.HasPrefix(mb.Name, "lineage/"), strings.HasPrefix(mb.Name, "audit/"):
			evs = append(evs, recordEvents(mb)...)
		}
	}
	pics.Timeline = layoutTimeline(evs)
	return pics
}

// checkSummary counts the check lines by status: "5 pass · 1 warn".
func checkSummary(r *verify.Report) string {
	n := map[string]int{}
	var order []string
	for _, c := range r.Checks {
		t := strings.ToLower(c.Tag())
		if n[t] == 0 {
			order = append(order, t)
		}
		n[t]++
	}
	sort.SliceStable(order, func(i, j int) bool { return tagRank(order[i]) < tagRank(order[j]) })
	var parts []string
	for _, t := range order {
		parts = append(parts, fmt.Sprintf("%d %s", n[t], t))
	}
	return strings.Join(parts, " · ")
}

func tagRank(t string) int {
	return map[string]int{"fail": 0, "unusable": 1, "warn": 2, "pass": 3}[t]
}

// picEvent is one thing that happened: when, who, what kind, and a line for the tooltip.
type picEvent struct {
	When        time.Time
	Actor, Kind string
	What        string
}

// commitEvents reads the commits' authors and dates from git/commits.json, one detail at a time, so a file the
// page shows only the head of still gives the commits in that head.
func commitEvents(mb *Member) []picEvent {
	var out []picEvent
	d := json.NewDecoder(bytes.NewReader(mb.Head))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return out
		}
		if key != "details" {
			var skip json.RawMessage
			if d.Decode(&skip) != nil {
				return out
			}
			continue
		}
		if tok, err := d.Token(); err != nil || tok != json.Delim('[') {
			return out
		}
		for d.More() {
			var c discover.CommitDetail
			if d.Decode(&c) != nil {
				return out
			}
			t, err := time.Parse(time.RFC3339, c.Author.Date)
			if err != nil {
				continue
			}
			out = append(out, picEvent{When: t, Actor: c.Author.Name, Kind: "commit", What: shortSHA(c.SHA) + " " + c.Subject})
		}
		return out
	}
	return out
}

// actorKeys name who wrote a record; without one, the file's name (a transcript per session) is the actor.
var actorKeys = []string{"agent", "agent_id", "actor", "session", "session_id", "user", "author"}

func recordEvents(mb *Member) []picEvent {
	kind := strings.SplitN(mb.Name, "/", 2)[0]
	stem := strings.TrimSuffix(path.Base(mb.Name), path.Ext(mb.Name))
	switch {
	case kind == "transcripts":
		kind = "transcript"
	case kind == "traces":
		kind = "trace"
	case kind == "audit" || strings.Contains(stem, "audit"):
		// The tracker's audit log (tracker_audit.jsonl sits under lineage/): opened, closed, … by the tracker.
		kind, stem = "audit", "tracker"
	}
	var out []picEvent
	for _, r := range records(mb) {
		if r.Obj == nil {
			continue
		}
		t, ok := recordTime(r.Obj)
		if !ok {
			continue
		}
		actor, _ := firstString(r.Obj, actorKeys...)
		if actor == "" {
			actor = stem
		}
		what, _ := firstString(r.Obj, nameKeys...)
		if what == "" {
			what, _ = firstString(r.Obj, "role")
		}
		out = append(out, picEvent{When: t, Actor: actor, Kind: kind, What: strings.TrimSpace(what + " (" + mb.Name + ")")})
	}
	return out
}

// recordTime reads a record's time: an RFC 3339 string, or a number of seconds (or milliseconds) since 1970.
func recordTime(o map[string]any) (time.Time, bool) {
	for _, k := range timeKeys {
		switch v := o[k].(type) {
		case string:
			if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
				return t, true
			}
		case json.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil || f <= 0 {
				continue
			}
			if f > 1e11 { // milliseconds
				f /= 1000
			}
			return time.Unix(int64(f), 0).UTC(), true
		}
	}
	return time.Time{}, false
}

// layoutTimeline places the events: a lane per actor (commits' authors first, then agents, each by first
// appearance in time), x by time, events of one lane in one column merged into one mark.
func layoutTimeline(evs []picEvent) *picTimeline {
	if len(evs) == 0 {
		return nil
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].When.Before(evs[j].When) })
	lo, hi := evs[0].When, evs[len(evs)-1].When
	if !hi.After(lo) {
		lo, hi = lo.Add(-time.Hour), hi.Add(time.Hour)
	}
	tl := &picTimeline{AxisX: picLabelWidth, AxisWidth: picWidth - picLabelWidth - 10, Width: picWidth}
	index := map[string]int{}
	var lanes []*picLane
	counts := map[string]int{}
	for _, e := range evs {
		name := e.Actor
		if _, ok := index[name]; !ok {
			if len(lanes) >= picMaxLanes-1 {
				name = "others"
			}
			if _, ok := index[name]; !ok {
				index[name] = len(lanes)
				lanes = append(lanes, &picLane{Name: name, Kind: e.Kind})
			}
		}
		index[e.Actor] = index[name]
	}
	span := hi.Sub(lo)
	type agg struct {
		first, last time.Time
		n           int
		kind, what  string
	}
	cols := make([]map[int]*agg, len(lanes))
	var order [][2]int // lane, column, in time order
	for _, e := range evs {
		li := index[e.Actor]
		if cols[li] == nil {
			cols[li] = map[int]*agg{}
		}
		x := int(float64(e.When.Sub(lo)) / float64(span) * float64(tl.AxisWidth-picColumn))
		col := x / picColumn
		counts[e.Kind]++
		if a := cols[li][col]; a != nil {
			a.n, a.last = a.n+1, e.When
			continue
		}
		cols[li][col] = &agg{first: e.When, last: e.When, n: 1, kind: e.Kind, what: e.What}
		order = append(order, [2]int{li, col})
	}
	for _, o := range order {
		a, l := cols[o[0]][o[1]], lanes[o[0]]
		title := fmt.Sprintf("%s — %s — %s", a.first.UTC().Format("2006-01-02 15:04:05Z"), l.Name, clip(a.what, 200))
		if a.n > 1 {
			title = fmt.Sprintf("%s — %s from %s to %s", l.Name, plural.Count(a.n, "event"),
				a.first.UTC().Format("2006-01-02 15:04:05Z"), a.last.UTC().Format("2006-01-02 15:04:05Z"))
		}
		l.Marks = append(l.Marks, picMark{X: tl.AxisX + o[1]*picColumn, W: picColumn, Kind: a.kind, Title: title})
	}
	for i, l := range lanes {
		l.Y = 28 + i*picLaneHeight
		l.TextY = l.Y + picLaneHeight/2 + 4
		l.Name = clip(l.Name, 28)
		tl.Lanes = append(tl.Lanes, *l)
	}
	tl.Height = 28 + len(lanes)*picLaneHeight + 6
	for i := 0; i <= 4; i++ {
		at := lo.Add(time.Duration(float64(span) * float64(i) / 4))
		anchor := map[int]string{0: "start", 4: "end"}[i]
		if anchor == "" {
			anchor = "middle"
		}
		tl.Ticks = append(tl.Ticks, picTick{X: tl.AxisX + int(float64(tl.AxisWidth-picColumn)*float64(i)/4), Label: at.UTC().Format("Jan 2 15:04"), Anchor: anchor})
	}
	var kinds []string
	for _, k := range []string{"commit", "transcript", "trace", "lineage", "audit"} {
		if counts[k] > 0 {
			tl.Kinds = append(tl.Kinds, k)
			kinds = append(kinds, plural.Count(counts[k], map[string]string{"commit": "commit", "transcript": "transcript record",
				"trace": "trace record", "lineage": "lineage record", "audit": "audit record"}[k]))
		}
	}
	tl.Events = fmt.Sprintf("%s by %s, %s to %s UTC", strings.Join(kinds, ", "), plural.Count(len(lanes), "actor"),
		evs[0].When.UTC().Format("2006-01-02 15:04"), evs[len(evs)-1].When.UTC().Format("2006-01-02 15:04"))
	return tl
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// diffstats counts each file's added and deleted lines in each commit's patch, and for all of them.
func diffstats(mb *Member) (*picDiffstat, []*picDiffstat, string) {
	total := &picDiffstat{}
	byName := map[string]int{}
	var per []*picDiffstat
	note := ""
	for _, pv := range patches(mb) {
		if pv.SHA == "" {
			continue
		}
		d := &picDiffstat{SHA: shortSHA(pv.SHA), Subject: strings.TrimSpace(strings.TrimPrefix(pv.Subject, "[PATCH]"))}
		if i := strings.Index(d.Subject, "] "); strings.HasPrefix(d.Subject, "[PATCH ") && i > 0 {
			d.Subject = d.Subject[i+2:]
		}
		var cur *picFile
		for _, l := range pv.Lines {
			switch {
			case l.Class == "file" && strings.HasPrefix(l.Text, "diff --git "):
				d.Files = append(d.Files, picFile{Name: diffName(l.Text)})
				cur = &d.Files[len(d.Files)-1]
			case cur == nil:
			case l.Class == "add":
				cur.Adds++
			case l.Class == "del":
				cur.Dels++
			case l.Text == "GIT binary patch" || strings.HasPrefix(l.Text, "Binary files "):
				cur.Binary = true
			}
		}
		for _, f := range d.Files {
			i, ok := byName[f.Name]
			if !ok {
				i = len(total.Files)
				byName[f.Name] = i
				total.Files = append(total.Files, picFile{Name: f.Name})
			}
			t := &total.Files[i]
			t.Adds, t.Dels, t.Binary = t.Adds+f.Adds, t.Dels+f.Dels, t.Binary || f.Binary
		}
		if len(per) < picMaxCommits {
			per = append(per, d)
		} else {
			note = "Only the first " + plural.Count(picMaxCommits, "commit") + " are drawn."
		}
	}
	if len(total.Files) == 0 {
		return nil, nil, ""
	}
	if mb.Truncated {
		note = strings.TrimSpace(note + " git/diff.patch is cut short on this page, so the counts are of the part shown.")
	}
	finishStat(total)
	for _, d := range per {
		finishStat(d)
	}
	return total, per, note
}

// finishStat sorts nothing (files stay in patch order, as git prints them), caps the list, scales the bars
// and writes git's summary line.
func finishStat(d *picDiffstat) {
	adds, dels, most := 0, 0, 0
	for _, f := range d.Files {
		adds, dels = adds+f.Adds, dels+f.Dels
		if f.Adds+f.Dels > most {
			most = f.Adds + f.Dels
		}
	}
	d.Summary = plural.Count(len(d.Files), "file") + " changed"
	if adds > 0 || dels == 0 {
		d.Summary += ", " + plural.Count(adds, "insertion") + "(+)"
	}
	if dels > 0 {
		d.Summary += ", " + plural.Count(dels, "deletion") + "(-)"
	}
	if len(d.Files) > picMaxFiles {
		d.More = "… and " + plural.Count(len(d.Files)-picMaxFiles, "more file")
		d.Files = d.Files[:picMaxFiles]
	}
	for i := range d.Files {
		f := &d.Files[i]
		f.Name = clip(f.Name, picMaxName)
		if most > 0 {
			f.AddWidth = (f.Adds*picBarWidth + most - 1) / most
			f.DelWidth = (f.Dels*picBarWidth + most - 1) / most
		}
		f.DelX = f.AddWidth
	}
}
