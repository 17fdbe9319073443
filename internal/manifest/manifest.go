package manifest

import (
	"fmt"
	"strings"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/jsonout"
)

// SchemaVersion is the only manifest version this program writes or accepts.
const SchemaVersion = 1

// Name is the manifest's member name; it is always the archive's first member.
const Name = "manifest.json"

// TimeFormat is created_at's layout: ISO-8601 in UTC.
const TimeFormat = "2006-01-02T15:04:05Z"

// Sections: an entry's section is its arcname's first path component (doc.go, "Bundle layout"). Members are
// packed sorted by arcname, not in this order.
const (
	SectionTranscripts = "transcripts"
	SectionTraces      = "traces"
	SectionLineage     = "lineage"
	SectionAudit       = "audit"
	SectionGit         = "git"
	SectionPR          = "pr"
)

// Sections are the sections a bundle has, in the order the layout lists them (doc.go, "Bundle layout").
var Sections = []string{SectionGit, SectionPR, SectionTranscripts, SectionTraces, SectionLineage, SectionAudit}

// IsSection says whether s is one of Sections.
func IsSection(s string) bool {
	for _, x := range Sections {
		if s == x {
			return true
		}
	}
	return false
}

// TopFolder is the first part of a member name: the folder of its section ("" for a name with no folder).
func TopFolder(name string) string {
	top, _, ok := strings.Cut(name, "/")
	if !ok {
		return ""
	}
	return top
}

// Manifest lists every bundled file with its size and hash; the detached signature covers its JCS form, and so
// every file transitively.
type Manifest struct {
	SchemaVersion    int      `json:"schema_version"`
	CreatedAt        string   `json:"created_at"`
	BernsteinVersion string   `json:"bernstein_version"`
	Tracker          string   `json:"tracker"`
	TicketID         string   `json:"ticket_id"`
	Files            []Entry  `json:"files"`
	PRNumber         *int     `json:"pr_number"`
	Commits          []string `json:"commits"`
}

// Entry is one bundled file. manifest.json itself is never listed.
type Entry struct {
	Arcname   string `json:"arcname"`
	SizeBytes int64  `json:"size_bytes"`
	SHA256    string `json:"sha256"` // lower-case hex
	Section   string `json:"section"`
}

// FormatTime renders t as created_at.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// Marshal renders the manifest as it is stored in the archive: indented for people, no HTML escaping.
// Verifiers canonicalise it (JCS) before checking the signature, so the layout here is free.
func (m *Manifest) Marshal() ([]byte, error) {
	if m.Files == nil || m.Commits == nil {
		return nil, fmt.Errorf("manifest: files and commits must be lists, not null")
	}
	b, err := jsonout.Bytes(m)
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return b, nil
}
