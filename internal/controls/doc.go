// Package controls answers the change-management question an auditor asks of a VERIFIED bundle (SOX ITGC
// change management, SOC 2 CC8.1, SLSA's source track): was each change reviewed by someone other than its
// author, on what shipped, with its checks green, before it merged, while the ticket was open? It evaluates
// over signed members only (git/commits.json, the pr/ members package github captures, the lineage v1
// attribution the verifier computed) and the auditor's policy (package policy). It reads no git, makes no
// request and never prints, so the same code runs in `git bernstein audit`, in `view` and in the in-browser
// page (GOOS=js).
//
// A member that pr/sources.json records as an offline copy (written by an agent or a person, never GitHub's
// answer) is not evidence: what rests on it is unknown.
//
// # Results
//
// Each control gives, per merged pull request (or per tied commit that reached a protected branch without one),
// "pass", "exception" (with evidence: the member and a JSON pointer into it, who, which commit, when) or
// "unknown" (the data was not captured or not readable, and why). The controls, by id:
//
//   - reached-by-pr: a tied commit on a protected branch (policy protected_branches, else the pull requests'
//     base branches and the ticket's base branch, as git/commits.json's landed_on names them) is a merged pull
//     request's merge_commit_sha (merge, squash, merge queue), one of its commits (merge), or matches one of them
//     by patch id, else by author, author date and subject (rebase merge). Anything else is a direct push:
//     exception.
//   - independent-approval: at least the required count (policy, else the captured rules and protection, else
//     1) of approvals, before merged_at, by users of type "User" who are not the pull request's author, not an
//     author or committer of any of its commits (GitHub user id or login, else the noreply address; GitHub's
//     web-flow committer aside), not named in a Co-authored-by trailer, not a force-pusher in the timeline, and
//     not the merger. A reviewer's latest APPROVED, CHANGES_REQUESTED or DISMISSED review counts (a later
//     CHANGES_REQUESTED or a dismissal cancels an approval); a CHANGES_REQUESTED still standing at the merge is
//     an exception of its own.
//   - approved-final-head: the counted approvals were on the final head: commit_id is head.sha and no
//     "committed" or "head_ref_force_pushed" event follows the review in the timeline (GitHub moves commit_id
//     forward on some updates, so the timeline decides). An approval followed by a push is stale, unless what
//     changed leaves the pull request as approved: the head's tree is the approved commit's (an empty commit, a
//     reworded message: the tree ids GitHub gives for the pull request's commits and committed events), or the
//     head's diff against the base is the approved commit's (a rebase onto a newer base, the base merged in):
//     the same patch id in git/patchids/pr_<N>.json (below). A later re-approval counts.
//   - checks-passed: every required check (policy, else the rules and protection) has a check run (or a status
//     context) on the head, or on the merge commit after a merge queue, that concluded success, neutral or
//     skipped and completed before merged_at. A required check missing from a member that holds fewer runs (or
//     statuses) than its total_count says is unknown: it may be on a page that was not captured.
//   - agent-work-reviewed: a pull request that carries agent work (a file the lineage v1 attribution says an
//     agent wrote; a commit whose author is a bot or an agent, or whose Assisted-by or Co-authored-by trailer
//     names one) has a counted human approval by someone other than the agent's initiator (below: whoever the
//     bundle's records name, and always the pull request's author and the people who authored or committed
//     the agent's commits); with require_codeowners, by an
//     owner of each agent-written path (the attributed files and the agent commits' files in git/diff.patch)
//     per CODEOWNERS at base.sha (git/codeowners/<sha>.json; the last matching rule wins). A team owner
//     (@org/slug) approved when an approver is among its members as bundle --controls captured them
//     (pr/team_<org>_<slug>.json, package github); a team whose members were not captured, or not readable
//     (GitHub answers 403 or 404 without a token that may read the organisation's teams, recorded as
//     {"not_readable":…}), leaves the path unknown. An e-mail owner is the GitHub account its address belongs
//     to as far as the bundle tells (GitHub's noreply address, or the account GitHub tied to the pull
//     requests' commits made with it; reviews carry no address); an address tied to no account is unknown.
//     Membership is as of the bundle, not the merge: GitHub keeps no history of it.
//   - ticket-open: each commit's author date and the merge fall while the ticket was open: the GitHub issue's
//     created_at and closed and reopened events (bundle --controls, --tracker github), else the tracker records
//     the bundle carries under audit/ or in lineage/*.jsonl ({"event":"ticket.opened"|"ticket.closed"|
//     "ticket.reopened","ticket_id":…,"ts":…}; .sdd files, not the tracker's answer, and the outcome says so);
//     else unknown.
//
// Unknown is not an exception (audit --strict makes it one).
//
// # The agent's initiator
//
// Who started an agent's run is read from the bundle's records, JSON lines in audit/, lineage/*.jsonl and the
// lineage v2 child bodies (lineage/v2/children/*.jsonl, in the body's payload): the first of the members
// "initiator", "initiated_by", "requested_by" and "started_by", whose value is a GitHub login ("carol",
// "@carol"), an address ("Carol <carol@example.com>", "carol@example.com") or an object {"login", "id",
// "email", "name"}. A record whose "ticket_id" names another ticket is not read; at most 100 initiators are
// kept. An address is tied to a GitHub account when it is GitHub's noreply address or one the pull request's
// commits were made with by a known account; an initiator tied to no account makes the control unknown when
// someone else approved (whether the approver is the initiator cannot be told). These are .sdd files an agent
// or a person wrote, signed by the bundler, not GitHub's answer, and the outcome says which member they came
// from. Lineage v1 entries name only the agent (agent_id) and Bernstein's transcripts name no person, so with
// no such record the initiator is taken to be the pull request's author and whoever authored or committed
// the agent's commits, and the outcome says so. Either way, those people never count as independent approvers.
//
// Limits of the patch-id comparison: it is only as good as the bundler's clone. An approved commit a force
// push replaced is often in no clone but its pusher's; then it has no patch id and the approval stays
// stale (the outcome says which commit was missing). The ids are of whole diffs, so a rebase that had to
// resolve a conflict, or whose base changed the diff's context lines, gives a new id: reported, never
// passed. Patch ids ignore whitespace and line numbers, as git's do: a whitespace-only change after the
// approval is not seen. The member is what the bundler computed and signed; audit itself holds no clone, but
// verify --repo (and audit --repo) compute every head's fork point and patch id again from the auditor's clone
// and fail the bundle on a difference (package repocheck).
//
// # git/codeowners/<base sha>.json
//
// bundle --controls reads the CODEOWNERS file at each pull request's base.sha from git (not the API: the
// repository's own object, which verify --repo can hold against a clone), trying .github/CODEOWNERS,
// CODEOWNERS and docs/CODEOWNERS in GitHub's order, and packs one JSON object in the git section:
//
//	v        1
//	commit   the base commit
//	path     where the file was found, or null when the commit has none
//	content  the file's text, or null
//
// A base commit the clone lacks gives no member (a warning), and require_codeowners is then unknown.
//
// # git/patchids/pr_<N>.json
//
// bundle --controls computes from git, for each pull request, the commits it was reviewed on (the reviews'
// commit_id) and its final head (head.sha), at most 50, and packs one JSON object in the git section
// (PatchIDsDoc):
//
//	v      1
//	pr     the pull request's number
//	base   the payload's base.sha
//	heads  [{"commit", "fork_point": git merge-base of commit and base, "patch_id": `git patch-id --stable` of
//	       `git diff <fork_point> <commit>` (a binary file's index line with full ids), or null with "why"}]
//
// An entry that does not read (not hex, another pull request's number, a base other than the payload's
// base.sha) is ignored, and the approval is judged as if the member were missing.
//
// audit.schema.json beside this file is `audit --json`'s document (verify's report, these results, the exit
// code) in JSON Schema (draft 2020-12); the audit transcripts hold their output to it.
package controls
