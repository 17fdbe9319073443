// Package commitsjson is the format of a bundle's git/commits.json: the types that package discover writes and
// every reader reads (the verifier, which reads no git and also runs in the browser, `verify --repo`, `view`),
// and Parse, the strict reader. internal/discover/doc.go describes each field; commits.schema.json beside this
// file states the document in JSON Schema (draft 2020-12), and tests hold what we write to it.
package commitsjson

// Person is an author or committer as commits.json records it.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"` // RFC 3339 in the commit's own time zone
}

// CommitDetail is one tied commit and every reason it was tied.
type CommitDetail struct {
	SHA       string   `json:"sha"`
	Parents   []string `json:"parents"`
	Author    Person   `json:"author"`
	Committer Person   `json:"committer"`
	Subject   string   `json:"subject"`
	MatchedBy []string `json:"matched_by"`
	// PatchID is `git show <sha> | git patch-id --stable`, from our own diff; null for merges and empty commits.
	// Backports of one change share it.
	PatchID *string `json:"patch_id"`
	// CherryPickedFrom lists the commits named by `(cherry picked from commit X)` lines (git cherry-pick -x).
	CherryPickedFrom []string `json:"cherry_picked_from"`
	// LandedOn is where the commit is: branches whose tip contains it and the first tags that do. Bundles
	// made before these three fields existed lack them (nil here).
	LandedOn *LandedOn `json:"landed_on"`
}

// LandedOn is where a commit landed: the local and remote-tracking branches whose tip contains it, named as
// `git branch -a --contains` prints them (main, remotes/origin/stable/2025.1; no symbolic refs such as
// remotes/origin/HEAD), and the first tags that contain it: a containing tag counts only when no other
// containing tag is its ancestor, so a fix on master and two stable lines has one tag a line, the first release
// of each that shipped it. Both sorted by ref name, as git lists them.
//
// FirstTagsByBranch answers the same per branch: for each of Branches, the first of the tags that contain the
// commit and are on that branch's history (the tag's commit is an ancestor of the branch's tip), as
// `git tag --merged <branch> --contains <commit>` less every tag another of them (at another commit) is in. A
// release tag on a side commit (a version bump tagged off the release branch, as Kafka's rc tags are) is on no
// branch's history. Bundles made before it existed lack it (nil; null reads the same): a reader then knows only
// Tags, for all branches at once, and must not present them as one branch's.
type LandedOn struct {
	Branches          []string            `json:"branches"`
	Tags              []string            `json:"tags"`
	FirstTagsByBranch map[string][]string `json:"first_tags_by_branch"`
}

// Commits is the answer to "which commits are tied to this ticket", and the document written as
// git/commits.json. Its first three keys are upstream's, so readers of upstream bundles keep working.
type Commits struct {
	Tracker  string         `json:"tracker"`
	TicketID string         `json:"ticket_id"`
	Commits  []string       `json:"commits"`
	Details  []CommitDetail `json:"details"`
	// Discovery records how the commits were found (rules, settings, the refs walked), so that `verify --repo`
	// can find them again in a clone. Bundles made before it existed, and upstream's, lack it (nil here).
	Discovery *Discovery `json:"discovery,omitempty"`
	// Warnings are things the user should know (a skipped source, a shallow boundary); not part of the JSON.
	Warnings []string `json:"-"`
}

// Discovery is what the answer depended on besides the commits themselves: the matching rules' version, the
// settings, and the repository's state (every tip the walk started from). A commit a clone ties to the ticket
// below these tips was reachable when the bundle was made.
type Discovery struct {
	// Rules is the version of the matching rules that found the commits (discover.RulesVersion): a reader with
	// other rules cannot hold the answer against its own.
	Rules   int      `json:"rules"`
	Sources []string `json:"sources"`
	// TrailerKeys are the keys whose trailers name tickets; TrailerSeparators and TrailerConfigured are git's
	// trailer.separators and trailer.<name>.key, which decide what a trailer is.
	TrailerKeys       []string `json:"trailer_keys"`
	TrailerSeparators string   `json:"trailer_separators"`
	TrailerConfigured []string `json:"trailer_configured"`
	// GitHubRepo is the "owner/name" whose owner/repo#N references count for a GitHub number; "" when unknown
	// (every repository's count).
	GitHubRepo string     `json:"github_repo"`
	BaseBranch BaseBranch `json:"base_branch"`
	// DiffSettings are the settings patch ids were made under (diff.renames, diff.renameLimit, core.abbrev).
	DiffSettings string `json:"diff_settings"`
	// Tips are the refs whose history was walked (HEAD, branches, remote-tracking branches, tags peeled to
	// commits): ref name → commit.
	Tips map[string]string `json:"tips"`
	// Shallow lists the shallow boundary commits of the repository, sorted; [] when it was a full clone.
	Shallow []string `json:"shallow"`
}

// BaseBranch is the branch ticket branches were compared with: bernstein.baseBranch as configured, and the ref
// and commit it resolved to ("" when there was none, and the branch source was skipped).
type BaseBranch struct {
	Configured string `json:"configured"`
	Ref        string `json:"ref"`
	SHA        string `json:"sha"`
}
