package discover

import "github.com/git-bernstein/git-bernstein/internal/commitsjson"

// The commits.json types live in package commitsjson, which reads no git, so that the verifier (which also runs
// in the browser) reads the document with the very types that write it.
type (
	Person       = commitsjson.Person
	CommitDetail = commitsjson.CommitDetail
	LandedOn     = commitsjson.LandedOn
	Commits      = commitsjson.Commits
	Discovery    = commitsjson.Discovery
)
