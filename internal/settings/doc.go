// Package settings is the one list of git-bernstein's configuration and the one place it is read: every
// `git config bernstein.*` key (and the keys of git's own that it reads), what each means and its default, in
// Keys; and Load, which reads git's configuration (as package gitext reads it, `git config --null --list`:
// system, global, repository and worktree files with their includes, then `git -c`) and the run's environment
// once, and applies the command's flags over them, into one typed Settings.
// README's configuration table is checked against Keys by a test, and so is every bernstein.* name the code
// reads, so a key is listed once and documented where it is read.
//
// Precedence: a flag, else the environment variable, else git's configuration, else the default. Each setting
// (its Settings field), its sources in that order and its default:
//
//	Tracker       --tracker (1), bernstein.tracker                    github
//	Match         --match, bernstein.match                            trailer,branch,merge,message
//	Trailers      bernstein.trailer (all), then --trailer (added up)  none (2)
//	BaseBranch    bernstein.baseBranch                                origin/HEAD's target, main, master (3)
//	TicketPattern bernstein.ticketPattern                             [A-Z][A-Z0-9]+-[0-9]+ (3)
//	Projects      bernstein.projects (all)                            every key
//	Index         bernstein.index                                     true
//	BundleDir     --bundle-dir, bernstein.bundleDir (4)               <git common dir>/bernstein/bundles
//	MaxTickets    --max-tickets, bernstein.maxTickets                 100 (0: no cap)
//	HookBudget    bernstein.hookBudget (5)                            5s
//	Controls      --controls, bernstein.controls                      false
//	Attest        --attest, bernstein.attest                          false
//	GithubRepo    --github-repo, bernstein.githubRepo                 from the remote's URL
//	Remote        bernstein.remote (6)                                origin
//	GithubAPIURL  --github-api-url, GITHUB_API_URL, bernstein.githubApiUrl   https://api.github.com/
//	Stores        bernstein.store (all, in order)                     none
//	NoPR          --no-pr (7), bernstein.pullRequests (false: no PR)  false (pull requests are fetched)
//	Retention     bernstein.retention (8)                             the bucket's default retention
//	RetentionMode bernstein.retentionMode (8)                         COMPLIANCE
//	LegalHold     bernstein.legalHold                                 false
//
// (1) bundle's Bernstein form (`bundle TRACKER ID`) names the tracker as an argument, which wins over all.
// (2) after the default trailer keys (package discover, DefaultTrailerKeys).
// (3) "" in Settings: the package that uses it (discover, record) applies the default.
// (4) --bundle-dir is relative to the working folder, bernstein.bundleDir to the top of the worktree (like
// core.hooksPath); a leading ~/ is the home folder.
// (5) a Go duration (5s, 1m) or whole seconds; a value that is neither is reported and the default used.
// (6) push and fetch: bernstein.remote, else the current branch's upstream remote, else origin (package share).
// (7) --pr, --require-pr and --controls ask for pull requests, so any of them lets the flags decide.
// (8) as given: package store parses them (store.ParseRetention) for the commands that write to S3.
//
// Read elsewhere, each by the package that uses it: bernstein.notesRef (package notes, RefFrom),
// bernstein.signingKey, bernstein.signingKid, bernstein.sign, gpg.format, user.signingKey (package signing,
// after --sign-key and --sign-kid), gpg.ssh.allowedSignersFile (after --allowed-signers), the lineage v2 key
// file (--key-file, else BERNSTEIN_LINEAGE_V2_KEY_FILE: package lineage, ResolveKey), and whether lineage v2 is
// on (BERNSTEIN_LINEAGE_V2, else lineage.version in <project root>/bernstein.yaml, Settings.ProjectRoot:
// package lineage, Enabled), whose YAML reader the front (package front) does not link.
//
// A value that cannot be read (bernstein.maxTickets "many") does not stop Load: the default stands and
// Settings.Err gives the error for that key, which the commands that use the setting report; the others run as
// before.
package settings
