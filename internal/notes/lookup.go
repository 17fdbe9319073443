package notes

import (
	"sort"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// MaxNote bounds one note's text when every note of a ref is read: a line is about 300 bytes, so thousands of
// bundles on one commit.
const MaxNote = 1 << 20

// On reads the entries noted on target in ref; other are the lines this version does not understand. ok is
// false when target has no note there.
func On(r *gitext.Repo, ref gitext.RefName, target gitext.Hash) (
	entries []Entry, other []string, ok bool, err error) {
	text, ok, err := objstore.Of(r).Note(ref, target)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	entries, other = Parse(text)
	return entries, other, true, nil
}

// Entries is every entry of ref's notes, note by note in the notes' order (by target), each note read bounded
// by MaxNote. Every note counts, not only notes on commits of this clone (Log's): a note on a commit not
// fetched still names an archive.
func Entries(r *gitext.Repo, ref gitext.RefName) ([]Entry, error) {
	all, err := objstore.Of(r).Notes(ref)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	for _, n := range all {
		text, err := objstore.Of(r).ReadBlobMax(n.Blob, MaxNote)
		if err != nil {
			return nil, err
		}
		noted, _ := Parse(text)
		entries = append(entries, noted...)
	}
	return entries, nil
}

// Distinct is every entry of ref's notes (Entries), each bundle digest once: the first entry that names it.
func Distinct(r *gitext.Repo, ref gitext.RefName) ([]Entry, error) {
	all, err := Entries(r, ref)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []Entry
	for _, e := range all {
		if !seen[e.BundleSHA256] {
			seen[e.BundleSHA256] = true
			out = append(out, e)
		}
	}
	return out, nil
}

// ForTicket is every entry of ref's notes (Entries) for ticket want (ticket.Same), each bundle digest once.
func ForTicket(r *gitext.Repo, ref gitext.RefName, want string) ([]Entry, error) {
	all, err := Entries(r, ref)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	seen := map[string]bool{}
	for _, e := range all {
		if ticket.Same(e.Ticket, want) && !seen[e.BundleSHA256] {
			seen[e.BundleSHA256] = true
			entries = append(entries, e)
		}
	}
	return entries, nil
}

// OnCommit is what ref notes on one commit.
type OnCommit struct {
	Commit  gitext.Hash
	When    int64 // committer time, seconds
	Entries []Entry
}

// OnHistory is every note of ref on tip or one of its ancestors, oldest commit first (committer time; notes on
// commits of the same second in the notes' order). One walk of tip's history answers "is it an ancestor" for
// every note, where a test per note walked the history once a note. Notes on objects that are not commits of
// that history, and notes that cannot be read, are left out.
func OnHistory(r *gitext.Repo, ref gitext.RefName, tip gitext.Hash) ([]OnCommit, error) {
	all, err := objstore.Of(r).Notes(ref)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	g, err := r.Walk([]gitext.Tip{{Commit: tip}}, nil)
	if err != nil {
		return nil, err
	}
	var out []OnCommit
	for _, n := range all {
		node, ok := g.Index(n.Target)
		if !ok {
			continue
		}
		text, err := objstore.Of(r).ReadNote(n)
		if err != nil {
			continue
		}
		entries, _ := Parse(text)
		out = append(out, OnCommit{Commit: n.Target, When: g.Node(node).When, Entries: entries})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].When < out[j].When })
	return out, nil
}
