package discover

import (
	"sort"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/commitsjson"
)

// RulesVersion is the version of the matching rules (the four sources, the token rule of package ticket, what a
// trailer and a ticket branch are), recorded in commits.json's discovery.rules. Raise it with any change that
// ties other commits to some ticket: `verify --repo` finds a bundle's commits again with this program's rules,
// and holds a difference against the bundle only when the bundle was found with the same ones.
//
// Version 2: a ticket branch ties what it adds over where it forked from the base in every copy (local and
// remote-tracking, before a merge of it, a local copy's reflog for a fast-forward), and #N needs no letter,
// digit or '_' before the '#' (PKCS#1 names no issue).
const RulesVersion = 2

// historyTips are the tips Find walks from: opts.Tips when given (a recorded state, for `verify --repo`), else
// the repository's history tips.
func historyTips(r *gitext.Repo, opts Options) ([]gitext.Tip, error) {
	if opts.Tips != nil {
		return opts.Tips, nil
	}
	return r.HistoryTips()
}

// baseBranch is the branch ticket branches are compared with: opts.Base when given (as recorded; an empty name
// means there was none), else bernstein.baseBranch or the default, resolved in r.
func baseBranch(r *gitext.Repo, opts Options) (gitext.RefName, gitext.Hash, bool) {
	if opts.Base != nil {
		return opts.Base.Name, opts.Base.Commit, opts.Base.Name != ""
	}
	return r.BaseBranch(opts.BaseBranch)
}

// discoveryOf is what Find records of how it found the commits: the rules' version, the settings, and the
// tips it walked, which are the repository's state that `verify --repo` rediscovers the ticket at.
func discoveryOf(r *gitext.Repo, opts Options, tips []gitext.Tip) *commitsjson.Discovery {
	d := &commitsjson.Discovery{
		Rules:             RulesVersion,
		Sources:           append([]string{}, opts.Sources...),
		TrailerKeys:       append([]string{}, opts.TrailerKeys...),
		TrailerSeparators: opts.Trailers.Separators,
		TrailerConfigured: append([]string{}, opts.Trailers.Configured...),
		GitHubRepo:        opts.Ticket.Repo(),
		BaseBranch:        commitsjson.BaseBranch{Configured: opts.BaseBranch},
		DiffSettings:      DiffSettings(r, opts.CoreAbbrev),
		Tips:              make(map[string]string, len(tips)),
		Shallow:           []string{},
	}
	if name, h, ok := baseBranch(r, opts); ok {
		d.BaseBranch.Ref, d.BaseBranch.SHA = name.String(), h.String()
	}
	for _, t := range tips {
		d.Tips[t.Name.String()] = t.Commit.String()
	}
	for _, h := range r.ShallowCommits() {
		d.Shallow = append(d.Shallow, h.String())
	}
	sort.Strings(d.Shallow)
	return d
}

// DiffSettings names what patch ids depend on beyond the commits themselves (diff.renames, diff.renameLimit,
// core.abbrev), as commits.json's discovery.diff_settings records it.
func DiffSettings(r *gitext.Repo, coreAbbrev string) string { return diffSettings(r, coreAbbrev) }

// postingsHold says whether every commit the index named for the ticket's words has each of them in its
// message. A posting list is only ever built from messages, so a commit without the word means the file was
// written by someone else than us (or damaged past its checksum): it is not trusted, and history is walked
// again. This cannot find a commit left out of a list (only a full walk can, which `verify --repo` makes).
func postingsHold(read []*gitext.WalkCommit, words []string) bool {
	for _, c := range read {
		has := make(map[string]bool, len(words))
		IndexWords(c.Message, func(w string) { has[w] = true })
		for _, w := range words {
			if !has[w] {
				return false
			}
		}
	}
	return true
}
