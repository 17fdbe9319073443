// Package repocheck holds a bundle's git section against a repository, for `verify --repo`: every commit
// git/commits.json lists is in the repository with the details it records, and each part of git/diff.patch is
// what format-patch writes for its commit (mail header and message byte for byte) and, applied in memory, turns
// its commit's parent tree into the commit's tree (parts.go); the ticket, found again at the state commits.json
// records, ties no commit the bundle lacks (complete.go); and each git/patchids/pr_<N>.json that bundle
// --controls wrote (controls.PatchIDsDoc) is what git computes here: for every head, the fork point from the
// member's base and the patch id of fork point..head, by package prpatch's own computation (patchids.go). It is
// how an auditor who has the repository confirms the code section without trusting whoever made the bundle.
// Package verify, which reads no git, reports the answer as its repository check.
//
// The verdict model (verify.RepoResult): a difference between a member and the repository is a mismatch
// (FAILED); a listed commit, or the parent a part needs, that the repository lacks is Missing, and a part over
// the check's budget Unverifiable (UNVERIFIABLE unless something failed); what cannot be judged here but says
// nothing against the bundle is a notice (WARN). For git/patchids: a fork point or patch id the clone gives
// otherwise is a mismatch naming the member and the head; a head or base the clone lacks (a commit a force
// push replaced), or no common history (a shallow clone), is a notice, the head unknown, not Missing: audit
// already treats a head with no patch id as stale, so the bundle claims nothing the clone could hold against it
// there. A patch id that another diff.renames reproduces passes; one that differs where commits.json's
// discovery records another diff.renameLimit than this clone's is a notice.
package repocheck
