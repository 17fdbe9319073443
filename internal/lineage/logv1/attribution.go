package logv1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// FilesName is the bundle member that lists the files the ticket's commits wrote, beside the log slice.
const FilesName = "commit-files.json"

// CommitFiles is FilesName: for each tied non-merge commit, oldest first, each file it added or changed
// against its first parent (regular files and symlinks; deletions and submodules have no content to attribute),
// with the SHA-256 of the bytes it wrote and git's object id for them.
type CommitFiles struct {
	V       int      `json:"v"`
	Commits []Commit `json:"commits"`
}

// Commit is one commit's files.
type Commit struct {
	SHA   string `json:"sha"`
	Files []File `json:"files"`
}

// File is one file version a commit wrote.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"` // lower-case hex of the blob's bytes: what an entry's content_hash names
	Blob   string `json:"blob"`   // git's object id of the same bytes, for checking against the repository
}

// Marshal writes the document indented, with a final newline.
func (c *CommitFiles) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(c)
	return b.Bytes(), err
}

// ParseCommitFiles reads FilesName strictly: v 1, every file with a path and a 64-hex sha256.
func ParseCommitFiles(data []byte) (*CommitFiles, error) {
	var c CommitFiles
	if err := strictjson.UnmarshalKnown(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", FilesName, err)
	}
	if c.V != 1 {
		return nil, fmt.Errorf("%s: v is %d, want 1", FilesName, c.V)
	}
	for _, cm := range c.Commits {
		for _, f := range cm.Files {
			if f.Path == "" || !IsHash("sha256:"+f.SHA256) {
				return nil, fmt.Errorf("%s: commit %s: file %q needs a path and a sha256 of 64 lower-case hex digits", FilesName, cm.SHA, f.Path)
			}
		}
	}
	return &c, nil
}

// Select returns the entries a bundle carries for files: each entry whose artefact_path and content_hash are a
// file version's path and SHA-256, and every ancestor of it for the same artefact (through parent_hashes), in
// log order.
func Select(l *Log, files []File) []*Entry {
	want := map[[2]string]bool{}
	for _, f := range files {
		want[[2]string{f.Path, "sha256:" + f.SHA256}] = true
	}
	keep := map[*Entry]bool{}
	var walk func(e *Entry)
	walk = func(e *Entry) {
		if keep[e] {
			return
		}
		keep[e] = true
		for _, p := range e.ParentHashes {
			if pe := l.ByHash(p); pe != nil && pe.ArtefactPath == e.ArtefactPath {
				walk(pe)
			}
		}
	}
	for _, e := range l.Entries {
		if want[[2]string{e.ArtefactPath, e.ContentHash}] {
			walk(e)
		}
	}
	var out []*Entry
	for _, e := range l.Entries {
		if keep[e] {
			out = append(out, e)
		}
	}
	return out
}

// Attribution says who wrote one file version of one commit: every entry whose artefact_path and content_hash
// are that path and content, in log order; none when no entry matches (written by a person, or not recorded).
type Attribution struct {
	Commit    string   `json:"commit"`
	Path      string   `json:"path"`
	SHA256    string   `json:"sha256"`
	WrittenBy []Writer `json:"written_by"`
}

// Writer is one entry that wrote exactly that content.
type Writer struct {
	AgentID    string    `json:"agent_id"`
	Kid        string    `json:"kid"`
	ToolCallID string    `json:"tool_call_id"`
	TsNs       int64     `json:"ts_ns"`
	Time       string    `json:"time"` // ts_ns in RFC 3339, UTC
	Entry      string    `json:"entry"`
	Line       int       `json:"line"` // in the log it came from
	Signature  Signature `json:"signature"`
}

// Attribute joins the commits' files to the checked log.
func Attribute(r *Result, files *CommitFiles) []Attribution {
	by := map[[2]string][]*Entry{}
	for _, e := range r.Log.Entries {
		k := [2]string{e.ArtefactPath, e.ContentHash}
		by[k] = append(by[k], e)
	}
	var out []Attribution
	for _, c := range files.Commits {
		for _, f := range c.Files {
			a := Attribution{Commit: c.SHA, Path: f.Path, SHA256: f.SHA256, WrittenBy: []Writer{}}
			for _, e := range by[[2]string{f.Path, "sha256:" + f.SHA256}] {
				a.WrittenBy = append(a.WrittenBy, Writer{AgentID: e.AgentID, Kid: e.AgentCardKid, ToolCallID: e.ToolCallID,
					TsNs: e.TsNs, Time: FormatTime(e.TsNs), Entry: e.Hash, Line: e.Line, Signature: r.Signatures[e]})
			}
			out = append(out, a)
		}
	}
	return out
}

// FormatTime writes ts_ns as RFC 3339 in UTC, with the fraction only when there is one.
func FormatTime(tsNs int64) string {
	return time.Unix(0, tsNs).UTC().Format(time.RFC3339Nano)
}

// Summary is the one-line text of an attribution, as verify prints it.
func (a Attribution) Summary() string {
	short := a.Commit
	if len(short) > 12 {
		short = short[:12]
	}
	if len(a.WrittenBy) == 0 {
		return fmt.Sprintf("%s %s: no lineage entry matches this content (written by a person, or not recorded)", short, a.Path)
	}
	w := a.WrittenBy[0]
	s := fmt.Sprintf("%s %s: written by %s (kid %s, tool call %s, %s), signature %s", short, a.Path, w.AgentID, w.Kid, w.ToolCallID, w.Time, w.Signature)
	if n := len(a.WrittenBy) - 1; n > 0 {
		s += fmt.Sprintf("; %d more entr%s record the same content", n, map[bool]string{true: "y", false: "ies"}[n == 1])
	}
	return s
}
