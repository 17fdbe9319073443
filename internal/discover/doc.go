// Package discover finds every commit tied to a ticket, and writes the answer as a bundle's git/commits.json.
// It reads git only through gitext.
//
// # Sources
//
// A commit is tied to a ticket by any of (Options.Sources, reported in this order in matched_by):
//   - trailer:KEY  a trailer of its message (git's rules, gitext.ParseTrailers) whose key is one of
//     Options.TrailerKeys (case-insensitive; DefaultTrailerKeys unless configured) names the ticket;
//   - branch:NAME  it is on a local or remote-tracking branch whose name names the ticket, and the branch adds it
//     over where it forked from the base branch (bernstein.baseBranch, else origin/HEAD's target, else main, else
//     master), in every copy: the local branch and each remote's branch of that name (forkStops). A copy that
//     holds the ticket branch through a merge is taken as it was before that merge (its first-parent line down
//     to the first commit without the branch); a local copy with the branch on its first-parent line is taken
//     as its reflog's first "merge <branch>: …" entry whose work the branch has says it was before (else the
//     branch was made there and adds nothing), and a copy without a reflog is left out unless all are;
//   - merge:NAME   a merge whose subject merges such a branch, and every commit that merge brought in;
//   - message      its message names the ticket anywhere.
//
// "Names the ticket" is package ticket's rule: the id as a whole token (not next to a letter, digit or '_'),
// case-insensitively; GitHub numbers as #N (with no letter, digit or '_' before the '#', as GitHub links them:
// PKCS#1 names nothing), owner/repo#N or a URL ending in /N.
//
// # commits.json
//
// One JSON object: upstream's three keys first, so readers of upstream bundles keep working, then the details.
//
//	{"tracker": "github", "ticket_id": "ENG-42",
//	 "commits": ["<sha>", …],                      // parents before children
//	 "details": [{"sha": "<sha>", "parents": ["<sha>", …],
//	              "author": {"name": …, "email": …, "date": "<RFC 3339 in the commit's zone>"},
//	              "committer": {…}, "subject": "<first paragraph on one line, as git's %s>",
//	              "matched_by": ["trailer:Refs", "branch:feature/ENG-42", …],
//	              "patch_id": "<40 hex>" | null, "cherry_picked_from": ["<sha>", …],
//	              "landed_on": {"branches": ["main", "remotes/origin/stable/1", …], "tags": ["v1.0.1", …],
//	                            "first_tags_by_branch": {"main": [], "remotes/origin/stable/1": ["v1.0.1"], …}}}, …],
//	 "discovery": {"rules": 2, "sources": ["trailer", …], "trailer_keys": ["Ticket", …],
//	               "trailer_separators": "", "trailer_configured": [], "github_repo": "owner/name" | "",
//	               "base_branch": {"configured": "", "ref": "refs/heads/main" | "", "sha": "<sha>" | ""},
//	               "diff_settings": "diff.renames=… diff.renameLimit=… core.abbrev=…\n",
//	               "tips": {"HEAD": "<sha>", "refs/heads/main": "<sha>", …}, "shallow": ["<sha>", …]}}
//
// The types are package commitsjson's (aliased here), and commitsjson.Parse reads the document strictly: no
// duplicate keys at any depth, exact member names, each with its type; tracker, ticket_id and commits required
// (all upstream writes), details, discovery and a detail's last three fields optional (older bundles).
//
// A detail's last three fields say where the change landed (bundles made before them lack them; readers take both):
//   - patch_id: `git show <sha> | git patch-id --stable` (builtin/patch-id.c of git 2.39: whitespace removed, index
//     lines and hunk headers not hashed, a binary file hashed by the ids of its index line as git show shortens
//     them, one hash per file summed so file order does not matter), over our own diff against the first parent
//     (gitext/patch: renames and copies per diff.renames, drivers per attributes); null for merges, for commits
//     that change nothing (git prints no id) and at a shallow boundary. Clean backports and rebases share it.
//   - cherry_picked_from: the shas of "(cherry picked from commit X)" lines (git cherry-pick -x), in order, each
//     once; [] when none. A backport that needed a conflict fix has another patch id but still names its original.
//   - landed_on: the local branches (short names) and remote-tracking branches ("remotes/origin/main") whose tip
//     contains the commit, as `git branch -a --contains` lists them minus symbolic refs; and the first tags that
//     contain it: a containing tag counts only when no other containing tag at another commit is its ancestor.
//     Each sorted by ref name. landed_on.first_tags_by_branch has, for each of those branches, the first of the
//     containing tags that are on that branch's history (the tag's commit is an ancestor of the branch's tip),
//     as `git tag --merged B --contains C` less every tag another of them is in; [] when none. Tags holds all
//     branches at once: a release candidate tagged on a side commit of 3.3 contains trunk's fix but is on no
//     branch. Bundles made before it lack it (nil): readers must not show Tags as one branch's.
//     gitext.Graph.ContainedBy answers this for all tied commits and all refs in one pass in topological order,
//     skipping commits whose generation number is below the lowest tied commit's; one more pass finds which
//     branches hold each containing tag.
//
// discovery records what the answer depended on besides the commits, for `verify --repo` (package repocheck) to
// find the ticket again in a clone at the same state and show what the bundle lacks:
//   - rules: RulesVersion of the writer; a reader with other rules holds no difference against the bundle;
//   - sources, trailer_keys, trailer_separators and trailer_configured (git's trailer.separators and
//     trailer.<name>.key), github_repo (whose owner/repo#N count for a GitHub number; "" when unknown);
//   - base_branch: bernstein.baseBranch as configured, and the ref and commit it resolved to ("" when none: the
//     branch source tied nothing);
//   - diff_settings: what patch ids depend on beyond the commits;
//   - tips: every tip the walk started from (HEAD, branches, remote-tracking branches, tags peeled to commits),
//     ref name to commit: the repository's state. A commit tied below them was reachable when the bundle was made;
//   - shallow: the shallow boundary commits, sorted ([] in a full clone): history beyond them was not searched.
//
// Options.Tips and Options.Base make Find walk a recorded state instead of the repository's refs;
// Options.NoCaches reads and writes neither the ticket index nor the patch id cache (verify --repo);
// Options.RecomputePatchIDs takes no id from the cache and replaces a cached one that differs, with a warning
// (bundle and record: what is signed must not come from a file anyone who can write .git can fill).
//
// Options.PatchIDsToGroup (what `commits` prints without --json) makes only the ids that can group: those of
// commits that change the same paths as another tied commit (equal patch ids imply equal changed paths,
// whitespace aside, since the "diff --git" lines are hashed); the others are null unless cached.
//
// Changes groups details into changes (same patch id, or linked by cherry_picked_from), for `commits` and the
// report.
//
// # Ticket index
//
// <git common dir>/bernstein/index caches the commit graph and, for every word of a commit message made of digits
// only (a maximal run of letters, digits and '_' with no letter or '_', at most 32 bytes: "42" in ENG-42 and #42,
// never "abc123"), the commits whose message has it, so that a query reads only the commits of its ticket's
// numbers (and applies the exact rules to them: the index narrows the search, it never decides a match). A ticket
// id without such a word is answered by a full walk. A word of digits right after a word without digits and one
// '-' also gives a pair word, folded ("land-7" of LAND-7; IndexWords): a ticket's pairs narrow it further where
// its number alone is common. Layout, integers as unsigned (u) or zig-zag signed (s) varints:
//
//	magic    "git-bernstein ticket index 4\n" (version 3 ended with a CRC-32C, version 2 had no pair words,
//	         version 1 also kept words mixing letters and digits; such a file is rebuilt)
//	u        n, the number of commits
//	n ×      20-byte hash, s committer time, u flags (parent count << 1 | shallow), u distance back to each parent
//	         (commits in topological order, parents first)
//	n × 4    little-endian commit numbers sorted by hash
//	u        number of tips, then each tip's 20-byte hash
//	u        number of words, then for each, sorted: u length, the word, u posting count, u byte length, the
//	         postings as ascending commit numbers, delta-encoded varints
//	4        CRC-32 (IEEE) of everything before it, little-endian: it finds a torn or damaged file;
//	         it is no defence against a deliberate writer, and needs none, since no match is taken from the index
//
// A file that does not check out (magic, checksum, bounds, order) is rebuilt; so is one whose tips are no longer
// in history (a rewrite), and one that names, for a word of the ticket, a commit whose message lacks it (not a
// file we wrote). A posting list with a commit left out cannot be told from a true one without reading every
// message: a rewritten index drops that commit from `commits` and from a bundle, which only a full walk finds
// (`verify --repo` makes one, from the recorded tips). Whoever can write .git can do that; delete the file, or set
// bernstein.index false, where .git is not yours alone. It is written atomically; failing to write it is a warning, never an error.
package discover
