package notes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// DefaultRef is where git-bernstein keeps its notes unless `git config bernstein.notesRef` says otherwise.
const DefaultRef gitext.RefName = "refs/notes/bernstein"

// ExpandRef turns a notes ref as users write it into a full ref name, as git's expand_notes_ref does:
// "bernstein" and "notes/bernstein" both mean refs/notes/bernstein.
func ExpandRef(name string) gitext.RefName {
	switch {
	case name == "":
		return DefaultRef
	case strings.HasPrefix(name, "refs/"):
		return gitext.RefName(name)
	case strings.HasPrefix(name, "notes/"):
		return gitext.RefName("refs/" + name)
	}
	return gitext.RefName("refs/notes/" + name)
}

// RefFrom reads bernstein.notesRef from cfg (nil means none), defaulting to DefaultRef.
func RefFrom(cfg *gitext.Config) gitext.RefName {
	if cfg != nil {
		if v, ok := cfg.Get("bernstein.notesRef"); ok && strings.TrimSpace(v) != "" {
			return ExpandRef(strings.TrimSpace(v))
		}
	}
	return DefaultRef
}

// Entry is one bundle recorded on a commit: one line of a git-bernstein note. Fields are declared in key
// order so that encoding/json writes the keys sorted, as the format requires: two machines noting the same
// bundle write the same bytes, and `git notes merge -s cat_sort_uniq` then keeps one copy.
type Entry struct {
	Bundle       string `json:"bundle"` // the archive's file name
	BundleSHA256 string `json:"bundle_sha256"`
	Commits      int    `json:"commits"`
	CreatedAt    string `json:"created_at"`
	Files        int    `json:"files"`
	Kid          string `json:"kid"` // "" when unsigned
	// LineageV2Checkpoint is the sha256 of the lineage v2 checkpoint the bundle carries, when it carries one
	// (doc.go, "Note line"); omitted otherwise, so lines without it are byte for byte what older versions wrote.
	LineageV2Checkpoint string `json:"lineage_v2_checkpoint_sha256,omitempty"`
	ManifestSHA256      string `json:"manifest_sha256"`
	Signed              bool   `json:"signed"`
	Ticket              string `json:"ticket"`
	Tracker             string `json:"tracker"`
	V                   int    `json:"v"`
}

// EntryVersion is the only "v" this program writes; lines with another v are kept but not interpreted.
const EntryVersion = 1

// Line renders the entry as its note line, without the newline.
func (e Entry) Line() (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return "", fmt.Errorf("encode note entry: %w", err)
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// Parse reads a note's lines. Lines that are not entries of a version we know come back in other, so
// callers can warn about them; they are never dropped from the note by MergeLines.
func Parse(text []byte) (entries []Entry, other []string) {
	for _, line := range strings.Split(string(text), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var e Entry
		// One strict reading (exact names, none twice, nothing after the object): a line a case-insensitive
		// reader would read another way is kept as another line, never interpreted.
		if err := strictjson.Unmarshal([]byte(line), &e); err != nil || e.V != EntryVersion {
			other = append(other, line)
			continue
		}
		entries = append(entries, e)
	}
	return entries, other
}

// MergeLines is the note text holding every line of old and of add, sorted and without duplicates or
// blank lines, each ending in a newline: exactly what `git notes merge -s cat_sort_uniq` makes of two notes,
// so merging our notes with git's strategy and writing them here agree. replace, when not nil, drops old lines
// it returns true for (a rebuilt bundle replaces the line of the file it overwrote).
func MergeLines(old []byte, add []string, replace func(line string) bool) []byte {
	seen := map[string]bool{}
	var lines []string
	keep := func(l string) {
		if strings.TrimSpace(l) == "" || seen[l] {
			return
		}
		seen[l] = true
		lines = append(lines, l)
	}
	for _, l := range strings.Split(string(old), "\n") {
		if replace != nil && replace(l) {
			continue
		}
		keep(l)
	}
	for _, l := range add {
		keep(l)
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// Add adds entries to target's note on ref, replacing any line for the same tracker, ticket and
// bundle file name (that file has just been rewritten, so the old digest no longer describes it).
func Add(r *gitext.Repo, ref gitext.RefName, target gitext.Hash, sig gitext.Signature, entries ...Entry) (bool, error) {
	var add []string
	type key struct{ tracker, ticket, bundle string }
	replaced := map[key]bool{}
	for _, e := range entries {
		l, err := e.Line()
		if err != nil {
			return false, err
		}
		add = append(add, l)
		replaced[key{e.Tracker, e.Ticket, e.Bundle}] = true
	}
	replace := func(line string) bool {
		es, _ := Parse([]byte(line))
		return len(es) == 1 && replaced[key{es[0].Tracker, es[0].Ticket, es[0].Bundle}]
	}
	return objstore.Of(r).EditNote(ref, target, sig, "Notes added by 'git bernstein'\n", func(old []byte, _ bool) ([]byte, error) {
		return MergeLines(old, add, replace), nil
	})
}
