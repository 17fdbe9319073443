package settings

import (
	"fmt"
	"strings"
)

// Key is one configuration key: its name as `git config` spells it, what it does, and its default as README
// says it.
type Key struct {
	Name    string
	Meaning string
	Default string
}

// Keys are every configuration key git-bernstein reads, in README's order. A row of README's table may name
// two keys that go together ("bernstein.signingKey, bernstein.signingKid"); here each is a Key of its own with
// the row's text.
var Keys = []Key{
	{"bernstein.tracker", "tracker of ticket ids", "`github`"},
	{"bernstein.match", "comma list of sources", "`trailer,branch,merge,message`"},
	{"bernstein.trailer", "extra trailer keys (multi-valued: `git config --add`)", "none"},
	{"bernstein.baseBranch", "branch that ticket branches are compared with", "`origin/HEAD`'s target, `main`, `master`"},
	{"bernstein.ticketPattern", "regular expression `record` finds ticket ids with", "`[A-Z][A-Z0-9]+-[0-9]+`"},
	{"bernstein.projects", "project keys whose ids `record`, the hook and completion take (`\"KAFKA ENG\"`; spaces or commas between keys, multi-valued with `git config --add`)", "every key"},
	{"bernstein.bundleDir", "where `record` writes bundles (relative: to the worktree top)", "`<git common dir>/bernstein/bundles`"},
	{"bernstein.notesRef", "notes ref for bundle digests", "`refs/notes/bernstein`"},
	{"bernstein.signingKey", signingMeaning, signingDefault},
	{"bernstein.signingKid", signingMeaning, signingDefault},
	{"gpg.format", gitSSHMeaning, ""},
	{"user.signingKey", gitSSHMeaning, ""},
	{"bernstein.sign", "`false`: no signing from configuration (only `--sign-key`)", "`true`"},
	{"bernstein.attest", "also write `<archive>.intoto.jsonl` and `<archive>.sigstore.json` (bundle, record, hook)", "`false`"},
	{"gpg.ssh.allowedSignersFile", "git's: the allowed signers `verify`, `extract` and `view` trust when no `--allowed-signers` is given", "none"},
	{"bernstein.githubRepo", "`OWNER/NAME` of the pull requests", "parsed from the remote's URL"},
	{"bernstein.remote", "remote whose URL names the GitHub repository; the remote `push` and `fetch` use",
		"`origin` (`push`/`fetch`: the current branch's upstream remote, else `origin`)"},
	{"bernstein.githubApiUrl", "GitHub API URL (after `GITHUB_API_URL`)", "`https://api.github.com/`"},
	{"bernstein.index", "keep and use the ticket index", "`true`"},
	{"bernstein.pullRequests", "`false`: `bundle`, `record` and the post-merge hook ask GitHub for no pull request (as `--no-pr`; a flag that asks for them wins)", "`true`"},
	{"bernstein.controls", "`bundle`, `record` and the post-merge hook also capture each pull request's change-control evidence for `audit` (as `--controls`)", "`false`"},
	{"bernstein.maxTickets", "most tickets `record` and the hook bundle from one range; the others are named with the command that records them (`0`: no cap)", "`100`"},
	{"bernstein.store", "a store `push` and the hook upload archives and sidecars to and `get` reads from: `oci://HOST[:PORT]/REPOSITORY`, an OCI registry (credentials from `docker login`), or `s3://BUCKET[/PREFIX]`, an S3 bucket with Object Lock (credentials from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`); multi-valued: `git config --add`", "none"},
	{"bernstein.retention", "how long S3 stores lock each object, counted from the bundle's `created_at`: days (`2555d`), years (`7y`) or a Go duration (`720h`)", "the bucket's default retention"},
	{"bernstein.retentionMode", "Object Lock mode of that retention: `COMPLIANCE` (nobody can shorten or delete) or `GOVERNANCE` (users with s3:BypassGovernanceRetention can)", "`COMPLIANCE`"},
	{"bernstein.legalHold", "`true`: S3 stores also put a legal hold on each object (it stays until lifted, whatever the retention)", "`false`"},
	{"bernstein.hookBudget", "time the post-merge hook may take (a duration such as `5s`, or whole seconds); what does not fit is left with the command that finishes it", "`5s`"},
}

const (
	signingMeaning = "key (PKCS#8 PEM, OpenSSH Ed25519 file, `.pub` or `key::…` in ssh-agent) and kid that " +
		"`bundle`, `record`, the hook and `lineage v2 checkpoint` sign with (package signing)"
	signingDefault = "git's SSH key below, else unsigned; kid: an SSH key's fingerprint"
	gitSSHMeaning  = "git's: with `ssh`, the key that signs when `bernstein.signingKey` is unset"
)

// Lookup finds a key by name, ignoring the case of the section and variable as git does.
func Lookup(name string) (Key, bool) {
	for _, k := range Keys {
		if strings.EqualFold(k.Name, name) {
			return k, true
		}
	}
	return Key{}, false
}

// Table is README's configuration table made from Keys: keys that share a meaning and a default share a row.
func Table() string {
	var b strings.Builder
	b.WriteString("| key | meaning | default |\n|---|---|---|\n")
	for i := 0; i < len(Keys); {
		j := i + 1
		for j < len(Keys) && Keys[j].Meaning == Keys[i].Meaning && Keys[j].Default == Keys[i].Default {
			j++
		}
		var names []string
		for _, k := range Keys[i:j] {
			names = append(names, "`"+k.Name+"`")
		}
		row := fmt.Sprintf("| %s | %s | %s |", strings.Join(names, ", "), Keys[i].Meaning, Keys[i].Default)
		b.WriteString(strings.ReplaceAll(row, "|  |", "| |") + "\n")
		i = j
	}
	return b.String()
}
