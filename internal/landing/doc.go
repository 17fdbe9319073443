// Package landing says at a glance where a commit landed, for people: `commits` lines and `view`'s tables.
// A commit of a long-lived project is on dozens of branches and its "first tags" (landed_on.tags) include every
// release candidate tagged on a side commit, so listing them all made Kafka's lines 3 KB long. The summary keeps
// what a reader looks for and counts the rest ("and 57 more"); --json and commits.json keep the whole sets.
//
// Branches: a remote-tracking branch whose local twin is listed too (remotes/origin/main beside main) is the same
// line and is not shown twice; the base branch comes first, then release lines in version order (3.2 before
// 3.10), then the rest in name order; at most MaxBranches are shown.
//
// Tags: a tag that reads as a version (an optional prefix such as "v" or "release-", then MAJOR.MINOR[.PATCH],
// then an optional pre-release such as -rc1, .beta2, -alpha) belongs to the line PREFIX+MAJOR.MINOR; each line
// shows its earliest release, a final release before any pre-release (3.2.0 over 3.2.0-rc3: the release people
// install), else its earliest pre-release. Lines are in version order, then other tags in name order; at most
// MaxTags are shown.
package landing
