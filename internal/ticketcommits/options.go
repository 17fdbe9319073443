package ticketcommits

import (
	"fmt"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
	"github.com/git-bernstein/git-bernstein/internal/unusable"
)

// Options are the options that find ticket id's commits, as set (the settings, flags over configuration) and
// cfg (git's configuration) choose them. tracker, when not empty, comes from an argument and wins over --tracker
// and git config. A tracker, id or source list that cannot be used is an *unusable.Error.
func Options(set *settings.Settings, cfg *gitext.Config, tracker, id string) (discover.Options, error) {
	defaulted := tracker == "" && set.TrackerDefaulted // github only because no tracker was chosen
	if tracker == "" {
		tracker = set.Tracker
	}
	if tracker == "" {
		return discover.Options{}, unusable.New("--tracker is empty")
	}
	tk, err := ticket.Parse(tracker, id)
	if err != nil {
		return discover.Options{}, unusable.Wrap(err)
	}
	if tk.Numeric() {
		// owner/repo#N counts only for this repository, when it is known (remote or bernstein.githubRepo).
		if choice, err := set.GithubSource().Choose(); err == nil && choice.Unavailable == nil {
			tk = tk.InRepo(choice.Repo.String())
		}
	}
	sources, err := parseSources(set.Match)
	if err != nil {
		return discover.Options{}, err
	}
	if err := set.Err("bernstein.index"); err != nil {
		return discover.Options{}, err
	}
	coreAbbrev, _ := cfg.Get("core.abbrev")
	return discover.Options{
		CoreAbbrev:       coreAbbrev,
		Ticket:           tk,
		Sources:          sources,
		TrailerKeys:      TrailerKeys(set),
		Trailers:         cfg.TrailerOptions(),
		BaseBranch:       set.BaseBranch,
		UseIndex:         set.Index,
		TrackerDefaulted: defaulted,
	}, nil
}

// TrailerKeys are the keys whose trailers name tickets: the defaults, git config bernstein.trailer, --trailer.
func TrailerKeys(set *settings.Settings) []string {
	return append(append([]string{}, discover.DefaultTrailerKeys...), set.Trailers...)
}

// parseSources reads --match (or bernstein.match): a comma list of discover.AllSources.
func parseSources(list string) ([]string, error) {
	valid := map[string]bool{}
	for _, s := range discover.AllSources {
		valid[s] = true
	}
	var out []string
	for _, s := range strings.Split(list, ",") {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" {
			continue
		}
		if !valid[s] {
			return nil, unusable.Wrap(fmt.Errorf("--match: unknown source %q (choose from %s)", s,
				strings.Join(discover.AllSources, ",")))
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, unusable.Wrap(fmt.Errorf("--match names no source (choose from %s)",
			strings.Join(discover.AllSources, ",")))
	}
	return out, nil
}
