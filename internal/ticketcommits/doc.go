// Package ticketcommits is the `commits` command's work, shared by the full CLI (package cli) and the front
// git runs first (package front): the options that find a ticket's commits as the settings choose them
// (Options, which bundle and record use too), and the listing a person reads (Write) or the commits.json
// document (--json).
//
// It links nothing the listing does not need (no HTTP client, no store, no signer), so that the front, which
// answers `git bernstein commits` on its own, starts in a fraction of the full CLI's time.
//
// # The listing
//
// One block per change (discover.Changes): its subject once, then an indented line per commit, the original
// first and its backports after it:
//
//	<subject>
//	  <short sha> <committer date> on <branches> [<first tags>] (<matched by>)[ <subject if it differs>]
//	      [ cherry-picked from <short sha>[, another patch]]
//
// Branches and tags are shortened for reading (package landing: the base branch and release lines first, the
// earliest release of each line, "and N more"); --json has them all. Every part taken from the repository
// goes through termtext.Clean. A ticket with no commits prints nothing on stdout and one line on stderr.
package ticketcommits
