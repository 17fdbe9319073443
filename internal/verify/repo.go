package verify

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/plural"
)

// CheckRepository is the check of the bundle's git section against a clone (`verify --repo`): it runs when the
// caller asks for it, after the note check.
const CheckRepository = "repository"

const (
	memberCommits  = "git/commits.json"
	memberPatch    = "git/diff.patch"
	folderPatchIDs = "git/patchids/"
)

// RepoCheck is what the caller gives for the repository check. The verifier reads no git itself (it also runs
// in the browser): Check, filled in by the CLI, holds the bundle's git members (RepoMembers), as this
// verification read them, against the repository.
type RepoCheck struct {
	Dir string // the repository, as the report names it
	// Err is set when the repository could not be opened: the check is then unusable (exit 2), not failed.
	Err error
	// Check compares the members with the repository.
	Check func(RepoMembers) RepoResult
}

// RepoMembers are the members of the git section the repository check holds against the repository.
type RepoMembers struct {
	Commits []byte // git/commits.json
	Patch   []byte // git/diff.patch; nil when the bundle has none
	// PatchIDs are the git/patchids/ members (bundle --controls), by name; over-budget ones are not here
	// (RepoResult.Unverifiable says so).
	PatchIDs map[string][]byte
}

// RepoResult is what Check found.
type RepoResult struct {
	Commits int // commits of commits.json found in the repository and compared
	Parts   int // parts of diff.patch applied to their parent's tree
	// Mismatches are differences between the bundle and the repository: each makes the check FAIL.
	Mismatches []string
	// Missing are commits (or parents a part needs) the repository does not have: nothing can be said of
	// them, so the check is unusable (UNVERIFIABLE, exit 2) unless something else failed.
	Missing []string
	// Unverifiable are parts (or the whole git/diff.patch) over a budget of the check: not judged, so, like
	// Missing, they make the check unusable unless something else failed.
	Unverifiable []string
	// Inexact are parts that differ in bytes from what format-patch writes for their commit in this
	// repository (other diff settings where the bundle was made: diff.renames, diff drivers) and were held to
	// the stricter shape and applied instead; the check says how many.
	Inexact []string
	// Err is set when the repository could not be read (a corrupt object, a partial clone offline).
	Err error
	// Notices are what the completeness check could not judge, and commits tied to the ticket only since the
	// bundle was made: they make the check WARN (exit 3 under --strict) unless it failed.
	Notices []string
	// Complete, when not empty, says what completeness was proven (package repocheck, checkComplete).
	Complete string
	// PatchIDHeads counts the heads of git/patchids/ members whose fork point and patch id were computed again
	// in the repository and found equal, in PatchIDMembers members.
	PatchIDHeads, PatchIDMembers int
}

// MaxRepoPatchSize is the budget of git/diff.patch for the repository check: a larger one is not read into
// memory, and the check is unusable (UNVERIFIABLE) with the reason, not failed.
const MaxRepoPatchSize = 256 << 20

// MaxRepoPatchIDsSize is the budget of all git/patchids/ members together (bundle --controls writes some
// 250 bytes a head, at most 50 heads a pull request): members past it are not read, and the check is unusable.
const MaxRepoPatchIDsSize = 16 << 20

// repoCollector keeps, from the one read of the archive, the members the repository check needs.
type repoCollector struct {
	commits, patch *bytes.Buffer
	patchSize      int64 // git/diff.patch's size when it is over MaxRepoPatchSize (and not kept)
	patchIDs       map[string]*bytes.Buffer
	patchIDsSize   int64    // the bytes of the git/patchids/ members kept
	patchIDsOver   []string // git/patchids/ members past MaxRepoPatchIDsSize (not kept)
}

func (c *repoCollector) Member(name string, size int64) (io.Writer, error) {
	switch name {
	case memberCommits:
		c.commits = &bytes.Buffer{}
		return c.commits, nil
	case memberPatch:
		if size > MaxRepoPatchSize {
			c.patchSize = size
			return io.Discard, nil
		}
		// The size is the member's, checked by the archive reader: one allocation, not a buffer's doublings.
		c.patch = bytes.NewBuffer(make([]byte, 0, max(size, 0)))
		return c.patch, nil
	}
	if strings.HasPrefix(name, folderPatchIDs) {
		if size < 0 || c.patchIDsSize+size > MaxRepoPatchIDsSize {
			c.patchIDsOver = append(c.patchIDsOver, fmt.Sprintf(
				"%s: %d bytes, past the repository check's budget of %d for the git/patchids/ members together: not read",
				name, size, MaxRepoPatchIDsSize))
			return io.Discard, nil
		}
		if c.patchIDs == nil {
			c.patchIDs = map[string]*bytes.Buffer{}
		}
		c.patchIDsSize += size
		c.patchIDs[name] = bytes.NewBuffer(make([]byte, 0, size))
		return c.patchIDs[name], nil
	}
	return nil, nil
}

func checkRepository(rc RepoCheck, c *repoCollector) Check {
	chk := Check{Check: CheckRepository}
	switch {
	case rc.Err != nil:
		chk.Status, chk.Detail, chk.unusable = Fail, rc.Err.Error(), true
		return chk
	case c.commits == nil:
		chk.Status, chk.Detail, chk.unusable = Fail, "the bundle has no git/commits.json to hold against "+rc.Dir, true
		return chk
	}
	m := RepoMembers{Commits: c.commits.Bytes()}
	if c.patch != nil {
		m.Patch = c.patch.Bytes()
	}
	if c.patchIDs != nil {
		m.PatchIDs = make(map[string][]byte, len(c.patchIDs))
		for name, b := range c.patchIDs {
			m.PatchIDs[name] = b.Bytes()
		}
	}
	var res RepoResult
	if c.patchSize > 0 {
		res.Unverifiable = []string{fmt.Sprintf("git/diff.patch: %d bytes, more than the repository check's budget of %d: not read", c.patchSize, MaxRepoPatchSize)}
	} else {
		res = rc.Check(m)
		res.Unverifiable = append(res.Unverifiable, c.patchIDsOver...)
	}
	found := fmt.Sprintf("%s of git/commits.json found in %s", plural.Count(res.Commits, "commit"), rc.Dir)
	switch {
	case len(res.Mismatches) > 0:
		chk.Status, chk.Problems = Fail, append(append(res.Mismatches, res.Missing...), res.Notices...)
		chk.Detail = fmt.Sprintf("the git section disagrees with %s in %s (below): it is not what the repository holds; %s, %s not",
			rc.Dir, plural.Count(len(res.Mismatches), "place"), found, plural.Count(len(res.Missing), "commit"))
	case res.Err != nil:
		chk.Status, chk.Detail, chk.unusable = Fail, fmt.Sprintf("could not read %s: %v", rc.Dir, res.Err), true
	case len(res.Unverifiable) > 0:
		chk.Status, chk.Problems, chk.unusable = Fail, append(append(res.Unverifiable, res.Missing...), res.Notices...), true
		chk.Detail = fmt.Sprintf("over the check's budget (below), so the git section could not be checked in full; what is there matches (%s, %s applied)",
			found, plural.Count(res.Parts, "part"))
	case len(res.Missing) > 0:
		chk.Status, chk.Problems, chk.unusable = Fail, append(res.Missing, res.Notices...), true
		chk.Detail = fmt.Sprintf("%s not in %s (below), so the git section could not be checked in full; what is there matches (%s, %s applied). Fetch them, or give a clone that has them",
			plural.Count(len(res.Missing), "commit"), rc.Dir, found, plural.Count(res.Parts, "part"))
	default:
		chk.Status = Pass
		chk.Detail = fmt.Sprintf("%s, each with the parents, author, committer and subject it lists; %s of git/diff.patch applied in memory: each turns its parent's tree into its commit's tree",
			found, plural.Count(res.Parts, "part"))
		if len(res.Inexact) > 0 {
			chk.Detail += fmt.Sprintf(", and each is what format-patch writes for it but for %s whose diff this repository's settings write otherwise (held to format-patch's shape and applied)", plural.Count(len(res.Inexact), "part"))
		} else if res.Parts > 0 {
			chk.Detail += ", and each is what format-patch writes for it"
		}
		if res.Complete != "" {
			chk.Detail += "; " + res.Complete
		}
		if res.PatchIDMembers > 0 {
			chk.Detail += fmt.Sprintf("; git/patchids: %s of %s computed again here, each with the fork point and patch id the bundle records",
				plural.Count(res.PatchIDHeads, "head"), plural.Count(res.PatchIDMembers, "pull request"))
		}
		if len(res.Notices) > 0 {
			chk.Status, chk.Problems = Warn, res.Notices
			chk.Detail += fmt.Sprintf("; %s (below): what could not be checked, or was tied only since", plural.Count(len(res.Notices), "notice"))
		}
	}
	return chk
}
