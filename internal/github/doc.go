// Package github finds a ticket's pull requests on GitHub (or GitHub Enterprise) through the REST API and
// returns their payloads exactly as the API sent them, for the bundle's pr/ section. It never prints: problems
// that must not stop a bundle come back as warning lines that say which pull request, what happened and what
// to do.
//
// What it guarantees against a broken or hostile server (or anyone who can answer for an http:// API URL):
//
//   - The token goes only to the API URL's own scheme and host, in the Authorization header, decided on every
//     hop of a redirect. A redirect to another host is followed without it; a redirect on the same host
//     (GitHub's 301 for a renamed repository) keeps it. It is never printed, logged, cached or packed.
//   - One Fetch reads at most 32 MiB of answers in all, counted after decompression (a small gzip answer that
//     inflates without bound, or an answer that never ends, stops there), and every request of one Fetch shares
//     one deadline (Config.Timeout, 20 s by default), which also stops a body being inflated. Lists are read one
//     element at a time into the two fields we need, at most 100 elements a page.
//   - An answer that holds the token's bytes is not used (so never packed): a warning says so, without the token.
//   - Problems are classified for a person: unreachable, timeout, bad token, a one-time password asked for (a
//     401 with X-GitHub-OTP: required means a password was given where a token belongs), rate limits, 404, 5xx.
//
// # ETag cache
//
// With Config.CacheDir (the CLI uses <git common dir>/bernstein/github-cache), each 200 answer to a GET that
// carries an ETag is kept, and the next request for the same URL sends If-None-Match; GitHub's 304 (which does
// not count against its rate limit) is then answered from the cache. An entry is one file,
// <lower-case hex sha256 of the full request URL>.entry: one line of JSON, members in this order,
// {"v":2,"url":…,"etag":…,"sha256":…,"cached_at":…,"link":…,"content_type":…} (link and content_type omitted
// when empty; they are the Link and Content-Type headers, which a 304 may leave out; sha256 is the body's
// SHA-256 in lower-case hex, cached_at when it was received, "YYYY-MM-DDTHH:MM:SSZ" UTC), a newline, then the
// body exactly as received, stored only once it was read to its end. Entries are written atomically (mode
// 0600, folder 0700), hold at most 8 MiB of body, and after each write the folder's *.entry files are trimmed
// to 64 MiB, oldest modification time first. An entry whose header does not parse, whose "v" is not 2 (version
// 1 entries had no digest), whose "url" differs, whose "etag" is empty or whose cached_at does not read is
// ignored: the cache only saves requests, it never decides an answer. No entry holds the token: URLs never
// carry it, only the ETag, Link and Content-Type headers are kept, and a body containing it is not stored.
//
// A 304 says GitHub's answer has not changed since the ETag; it says nothing of the bytes on disk. So an entry
// whose body no longer has its sha256 (edited, or damaged) is removed, with a warning naming it, and the
// request is sent again without If-None-Match: the bundle gets GitHub's bytes, never an edited body GitHub
// seemed to confirm. (The digest catches an edited body, not someone who rewrites the digest too: whoever can
// write the cache can write any file of the repository.)
//
// Every payload says where it came from (PR.PayloadFrom, PR.ReviewsFrom; package prsource): fetched (a 200 of
// this run, with its ETag), cache (a 304 for the cached ETag, with cached_at) or offline. Each request is named
// by the URL that answered, after any redirect and without user information. The bundle packs this as
// pr/sources.json.
//
// # Change-control evidence
//
// With Query.Controls (bundle --controls), each pull request fetched from the API also brings the members
// `git bernstein audit` evaluates (package controls), through the same client: the token bound to the API
// host, the one 32 MiB answer budget and deadline of the Fetch, the ETag cache, and every member recorded in
// pr/sources.json like the others. Each is GitHub's answer byte for byte; a paged list is its pages' elements,
// each byte for byte, joined into one JSON array (at most 100 pages of 100). Names (package controls spells them):
//
//	pr/pr_<N>.commits.json            GET /repos/{o}/{r}/pulls/{N}/commits: sha, parents, git author and committer,
//	                                  message (for Co-authored-by and Assisted-by), and their GitHub users
//	pr/pr_<N>.timeline.json           GET /repos/{o}/{r}/issues/{N}/timeline: committed, head_ref_force_pushed,
//	                                  reviewed, review_dismissed, merged, ready_for_review, base_ref_changed, …
//	pr/pr_<N>.check-runs.<sha>.json   GET /repos/{o}/{r}/commits/{sha}/check-runs: {"total_count","check_runs"}
//	pr/pr_<N>.status.<sha>.json       GET /repos/{o}/{r}/commits/{sha}/status (the combined status, "statuses")
//	                                  both for the head and, when it differs, merge_commit_sha; every page (the
//	                                  Link header, as for lists, within the same caps): one page is kept byte for
//	                                  byte, several are one object, the first page's members with the array
//	                                  replaced by every page's elements, each byte for byte (members sorted)
//	pr/rules_<base>.json              GET /repos/{o}/{r}/rules/branches/{base}: the active rules any reader sees
//	pr/protection_<base>.json         GET /repos/{o}/{r}/branches/{base}/protection; when GitHub answers 403 or 404
//	                                  (it needs administration read access) the member is our own
//	                                  {"not_readable":<status>,"message":<GitHub's message>}, and its source the
//	                                  URL that refused: "not readable" is evidence, not an error
//	pr/issue_<T>.json                 GET /repos/{o}/{r}/issues/{T} for a numeric GitHub ticket (--tracker github)
//	pr/issue_<T>.events.json          GET /repos/{o}/{r}/issues/{T}/events (created, closed, reopened, …)
//	pr/team_<org>_<slug>.json         GET /orgs/{org}/teams/{slug}/members for each team the captured CODEOWNERS
//	                                  files name (at most 20), after them; 403 or 404 (the token may not read the
//	                                  organisation's teams) is {"not_readable":…} as for protection
//
// <base> is the base branch path-escaped (release/1.2 is release%2F1.2), so no member sits in a folder of
// its own. A failure is one warning naming the member ("the controls that need it will say unknown"); a
// failure every later request would share (rate limit, timeout) stops the fetch as for the payloads. The
// CODEOWNERS file at each base.sha, and the reviewed heads' patch ids, are read from git, not from here
// (git/codeowners/<sha>.json, git/patchids/pr_<N>.json; packages controls and prpatch).
//
// # Offline copies
//
// ReadOffline reads .sdd/pr/*.json through package nofollow: no symlink is followed at .sdd, pr or a file, and
// each payload is read from the descriptor that was checked, at most 32 MiB.
package github
