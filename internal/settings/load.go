package settings

import (
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/githubrepo"
)

// Config is git's configuration as package gitext reads it (gitext.Config): the last value of a key, all of
// them, and a boolean the way git spells one.
type Config interface {
	Get(key string) (string, bool)
	GetAll(key string) []string
	Bool(key string, def bool) (bool, error)
}

// Sources are where settings come from besides flags.
type Sources struct {
	Config      Config              // git's configuration; nil outside a repository (nothing is configured)
	Getenv      func(string) string // the run's environment; nil reads none
	ProjectRoot string              // the project's folder, of bernstein.yaml (the worktree top, or bundle --workdir); "": none
	WorkTree    string              // what a relative bernstein.bundleDir is relative to: the worktree top
	CommonDir   string              // the git common dir, which holds the default bundle folder
}

// Flags are the command line's values, each over every other source: a nil pointer (an empty string or
// slice) is a flag not given.
type Flags struct {
	Tracker      *string  // --tracker, or the Bernstein form of bundle's TRACKER argument
	Match        *string  // --match
	Trailers     []string // --trailer: added to the configured keys, not in place of them
	BundleDir    string   // --bundle-dir, relative to Wd
	Wd           string   // the folder the command runs in
	MaxTickets   *int     // --max-tickets
	Controls     *bool    // --controls
	Attest       *bool    // --attest
	GithubRepo   *string  // --github-repo
	GithubAPIURL *string  // --github-api-url
	// NoPR is --no-pr's value when any flag that decides on pull requests (--no-pr, --pr, --require-pr,
	// --controls) was given: the flags then decide, whatever bernstein.pullRequests says.
	NoPR *bool
}

// Defaults the package doc and README's table give.
const (
	DefaultTracker    = "github"
	DefaultMatch      = "trailer,branch,merge,message"
	DefaultRemote     = "origin"
	DefaultMaxTickets = 100 // one merge naming thousands of tickets held a merge up for minutes
	// DefaultHookBudget is how long the post-merge hook may take: a merge is something a person waits for.
	DefaultHookBudget = 5 * time.Second
)

// Settings are one run's settings, each from the first source that gives it (see the package doc). A value
// that cannot be read is kept as an error for its key (Err), for the commands that use it to report: the
// others run as before.
type Settings struct {
	Tracker          string   // bernstein.tracker
	TrackerDefaulted bool     // Tracker is the default only because neither flag nor git config chose one
	Match            string   // bernstein.match: the comma list as given (the caller checks the names)
	Trailers         []string // bernstein.trailer values, then --trailer's
	BaseBranch       string   // bernstein.baseBranch; "": the caller's default (origin/HEAD's target, main, master)
	TicketPattern    string   // bernstein.ticketPattern; "": record's default
	Projects         []string // bernstein.projects values, as configured (record.ParseProjects reads them)
	Index            bool     // bernstein.index
	BundleDir        string   // --bundle-dir, bernstein.bundleDir or the default, made absolute
	MaxTickets       int      // bernstein.maxTickets; 0: no cap
	HookBudget       time.Duration
	Controls         bool     // bernstein.controls
	Attest           bool     // bernstein.attest
	GithubRepo       string   // --github-repo or bernstein.githubRepo; "": from the remote's URL
	GithubRepoFrom   string   // "--github-repo" or "git config bernstein.githubRepo"
	Remote           string   // bernstein.remote, else DefaultRemote
	RemoteChosen     bool     // bernstein.remote named the remote
	GithubAPIURL     string   // --github-api-url, GITHUB_API_URL, bernstein.githubApiUrl; "": the public API
	GithubAPIURLFrom string   // which of those gave it
	Stores           []string // bernstein.store values, in order
	NoPR             bool     // --no-pr, else bernstein.pullRequests false
	Retention        string   // bernstein.retention as given (package store parses it); "": the bucket's default
	RetentionMode    string   // bernstein.retentionMode as given; "": COMPLIANCE
	LegalHold        bool     // bernstein.legalHold
	// ProjectRoot is Sources.ProjectRoot: where bernstein.yaml is, whose lineage.version package lineage reads
	// (lineage.Enabled) for the commands that write lineage v2.
	ProjectRoot string

	remoteURL string // git config remote.<Remote>.url, "" when there is no such remote (GithubSource)

	invalid map[string]error
}

// Err is the error reading key's value, nil when it was read (or defaulted). Keys are the names in Keys.
func (s *Settings) Err(key string) error { return s.invalid[key] }

// Load reads every setting from src with f over it: the one place a setting's precedence is decided.
func Load(src Sources, f Flags) *Settings {
	s := &Settings{invalid: map[string]error{}}
	get := func(key string) string {
		if src.Config == nil {
			return ""
		}
		v, _ := src.Config.Get(key)
		return v
	}
	getAll := func(key string) []string {
		if src.Config == nil {
			return nil
		}
		return src.Config.GetAll(key)
	}
	boolean := func(key string, def bool, flag *bool) bool {
		if flag != nil {
			return *flag
		}
		if src.Config == nil {
			return def
		}
		v, err := src.Config.Bool(key, def)
		if err != nil {
			s.invalid[key] = err
			return def
		}
		return v
	}
	getenv := func(key string) string {
		if src.Getenv == nil {
			return ""
		}
		return src.Getenv(key)
	}

	s.Tracker = first(f.Tracker, get("bernstein.tracker"), DefaultTracker)
	s.TrackerDefaulted = f.Tracker == nil && get("bernstein.tracker") == ""
	s.Match = first(f.Match, get("bernstein.match"), DefaultMatch)
	s.Trailers = append(getAll("bernstein.trailer"), f.Trailers...)
	s.BaseBranch = get("bernstein.baseBranch")
	s.TicketPattern = get("bernstein.ticketPattern")
	s.Projects = getAll("bernstein.projects")
	s.Index = boolean("bernstein.index", true, nil)
	s.BundleDir = bundleDir(f.BundleDir, f.Wd, get("bernstein.bundleDir"), src)
	s.MaxTickets = s.maxTickets(f.MaxTickets, get("bernstein.maxTickets"))
	s.HookBudget = s.hookBudget(get("bernstein.hookBudget"))
	s.Controls = boolean("bernstein.controls", false, f.Controls)
	s.Attest = boolean("bernstein.attest", false, f.Attest)
	switch {
	case f.GithubRepo != nil:
		s.GithubRepo, s.GithubRepoFrom = *f.GithubRepo, "--github-repo"
	case get("bernstein.githubRepo") != "":
		s.GithubRepo, s.GithubRepoFrom = get("bernstein.githubRepo"), "git config bernstein.githubRepo"
	}
	s.Remote, s.RemoteChosen = get("bernstein.remote"), get("bernstein.remote") != ""
	if s.Remote == "" {
		s.Remote = DefaultRemote
	}
	s.remoteURL = get("remote." + s.Remote + ".url")
	switch {
	case f.GithubAPIURL != nil && *f.GithubAPIURL != "":
		s.GithubAPIURL, s.GithubAPIURLFrom = *f.GithubAPIURL, "--github-api-url"
	case getenv("GITHUB_API_URL") != "":
		s.GithubAPIURL, s.GithubAPIURLFrom = getenv("GITHUB_API_URL"), "GITHUB_API_URL"
	default:
		s.GithubAPIURL, s.GithubAPIURLFrom = get("bernstein.githubApiUrl"), "git config bernstein.githubApiUrl"
	}
	s.Stores = getAll("bernstein.store")
	if f.NoPR != nil {
		s.NoPR = *f.NoPR
	} else {
		s.NoPR = !boolean("bernstein.pullRequests", true, nil)
	}
	s.Retention, s.RetentionMode = get("bernstein.retention"), get("bernstein.retentionMode")
	s.LegalHold = boolean("bernstein.legalHold", false, nil)
	s.ProjectRoot = src.ProjectRoot
	return s
}

// first is the flag when given, else the configured value when not empty, else def.
func first(flag *string, configured, def string) string {
	switch {
	case flag != nil:
		return *flag
	case configured != "":
		return configured
	}
	return def
}

// bundleDir is --bundle-dir (relative to the working folder), else bernstein.bundleDir (relative to the top of
// the worktree, like core.hooksPath), else <git common dir>/bernstein/bundles; "~/" is the home folder.
func bundleDir(flag, wd, configured string, src Sources) string {
	switch {
	case flag != "":
		return inDir(wd, expandHome(flag, src.Getenv))
	case configured != "":
		return inDir(src.WorkTree, expandHome(configured, src.Getenv))
	}
	return filepath.Join(src.CommonDir, "bernstein", "bundles")
}

func inDir(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// expandHome puts the run's $HOME (getenv's, not the process's) in place of a leading "~/"; with no HOME, p
// stays as it is.
func expandHome(p string, getenv func(string) string) string {
	if getenv == nil {
		return p // Sources without an environment read none
	}
	p, _ = gitext.ExpandHome(p, getenv)
	return p
}

// maxTickets is --max-tickets (0 or more), else bernstein.maxTickets, else DefaultMaxTickets.
func (s *Settings) maxTickets(flag *int, configured string) int {
	if flag != nil {
		if *flag < 0 {
			s.invalid["bernstein.maxTickets"] = fmt.Errorf("--max-tickets %d: give 0 (no cap) or more", *flag)
			return 0
		}
		return *flag
	}
	if configured == "" {
		return DefaultMaxTickets
	}
	n, err := strconv.Atoi(configured)
	if err != nil || n < 0 {
		s.invalid["bernstein.maxTickets"] = fmt.Errorf("git config bernstein.maxTickets %q is not a whole number "+
			"(0 is no cap); fix it with git config bernstein.maxTickets 100", configured)
		return 0
	}
	return n
}

// hookBudget is bernstein.hookBudget, a Go duration ("5s", "1m") or whole seconds ("5"); a value that is
// neither is an error for the hook to report, and the default is used, since the hook must not fail.
func (s *Settings) hookBudget(configured string) time.Duration {
	if configured == "" {
		return DefaultHookBudget
	}
	if n, err := strconv.Atoi(configured); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if d, err := time.ParseDuration(configured); err == nil && d > 0 {
		return d
	}
	s.invalid["bernstein.hookBudget"] = fmt.Errorf("git config bernstein.hookBudget %q is not a duration such as "+
		"5s or 1m: using %s", configured, DefaultHookBudget)
	return DefaultHookBudget
}

// GithubSource is what names the GitHub repository (githubrepo.Source): --github-repo or bernstein.githubRepo,
// else the URL of the remote (git config remote.<Remote>.url; none when there is no such remote).
func (s *Settings) GithubSource() githubrepo.Source {
	return githubrepo.Source{Repo: s.GithubRepo, RepoFrom: s.GithubRepoFrom, Remote: s.Remote,
		RemoteChosen: s.RemoteChosen, RemoteURL: s.remoteURL}
}
