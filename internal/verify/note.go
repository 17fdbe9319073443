package verify

import (
	"fmt"
	"strings"

	ticketpkg "github.com/git-bernstein/git-bernstein/internal/ticket"
)

// CheckNote is the optional sixth check, after trust: the archive is the one whose digest git-bernstein noted
// on a commit (`verify --rev REV`).
const CheckNote = "note"

// NoteCheck is what the caller read from git for the note check: the archive file's sha256 and the bundles
// noted on the commit. The verifier reads no git itself; the CLI fills this in.
type NoteCheck struct {
	Rev           string // as the user gave it, for the report
	ArchiveSHA256 string // lower-case hex of the whole archive file
	Noted         []NotedBundle
	// Err is set when the note could not be read (no repository, REV unknown, no note): the check is then
	// unusable (exit 2), not failed.
	Err error
}

// NotedBundle is one line of the commit's note.
type NotedBundle struct {
	Tracker, Ticket, Bundle, SHA256 string
}

// checkNote holds the archive's digest against the digests noted on the commit for the manifest's ticket.
// A differing digest is FAILED: this is not the bundle that was recorded. A note with no line for the ticket
// cannot say anything about it: unusable.
func checkNote(n NoteCheck, tracker, ticket string) Check {
	if n.Err != nil {
		return Check{Check: CheckNote, Status: Fail, Detail: n.Err.Error(), unusable: true}
	}
	var mine []NotedBundle
	var others []string
	for _, b := range n.Noted {
		if b.Tracker == tracker && ticketpkg.Same(b.Ticket, ticket) {
			mine = append(mine, b)
		} else {
			others = append(others, b.Tracker+" "+b.Ticket)
		}
	}
	if len(mine) == 0 {
		detail := fmt.Sprintf("the note on %s names no bundle of %s %s", n.Rev, tracker, ticket)
		if len(others) > 0 {
			detail += " (it names " + strings.Join(others, ", ") + ")"
		}
		return Check{Check: CheckNote, Status: Fail, Detail: detail + "; give the commit the bundle was recorded on", unusable: true}
	}
	var noted []string
	for _, b := range mine {
		if b.SHA256 == n.ArchiveSHA256 {
			return Check{Check: CheckNote, Status: Pass, Detail: fmt.Sprintf("archive sha256 %s is the digest noted on %s for %s %s (%s)",
				short(n.ArchiveSHA256), n.Rev, tracker, ticket, b.Bundle)}
		}
		noted = append(noted, fmt.Sprintf("%s (%s)", b.SHA256, b.Bundle))
	}
	return Check{Check: CheckNote, Status: Fail, Detail: fmt.Sprintf("archive sha256 %s differs from every digest noted on %s for %s %s: "+
		"this is not the bundle that was recorded there", n.ArchiveSHA256, n.Rev, tracker, ticket), Problems: noted}
}

func short(hex string) string {
	if len(hex) > 16 {
		return hex[:16] + "…"
	}
	return hex
}
