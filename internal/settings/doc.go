// Package settings is the one list of git-bernstein's configuration: every `git config bernstein.*` key (and the
// keys of git's own that it reads), what each means and its default, in Keys. README's configuration table is
// checked against Keys by a test, and so is every bernstein.* name the code reads, so a key is listed once and
// documented where it is read.
//
// Precedence, for every setting a flag also sets: the flag, else the environment variable named beside the key
// (GITHUB_API_URL for bernstein.githubApiUrl; BERNSTEIN_LINEAGE_V2 for bernstein.yaml's lineage.version), else
// git's configuration as `git config` reads it (system, global, repository, worktree files with their includes,
// then `git -c`: package gitext, Config), else the default. bernstein.yaml is read from the project root (the
// worktree top, or bundle --workdir).
package settings
