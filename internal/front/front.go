package front

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/progress"
	"github.com/git-bernstein/git-bernstein/internal/settings"
	"github.com/git-bernstein/git-bernstein/internal/ticketcommits"
)

// Env is what a run takes from its process: the environment, the working folder, and the garbage collector's
// pace for a small and a long heap (package gcpace; nil: unchanged).
type Env struct {
	Getenv              func(string) string
	Getwd               func() (string, error)
	SmallHeap, LongHeap func()
}

// request is a `commits` command line the front knows.
type request struct {
	ticket   string
	json     bool
	tracker  *string
	match    *string
	trailers []string
}

// Run answers args (the whole command line, program name first) when it is a `commits` line the front knows
// and the run succeeds, and returns its exit code. handled is false, with nothing written, for every other
// line and for any error before the output: the caller then hands args over (Handover).
func Run(env Env, args []string, stdout, stderr io.Writer) (code int, handled bool) {
	req, ok := parse(args)
	if !ok {
		return 0, false
	}
	listed := false
	err := run(env, req, stdout, stderr, func() { listed = true })
	switch {
	case err == nil:
		return 0, true
	case !listed:
		return 0, false
	}
	// What was written stays written; say why the rest is missing, as git-bernstein-full does.
	fmt.Fprintf(stderr, "git-bernstein: %s\n", strings.TrimSpace(err.Error()))
	return 1, true
}

// parse reads args as `commits [flags] TICKET`; ok is false for anything else (see the package doc).
func parse(args []string) (req request, ok bool) {
	if len(args) < 3 || args[1] != "commits" {
		return req, false
	}
	words := args[2:]
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			if req.ticket != "" || w == "" {
				return req, false
			}
			req.ticket = w
			continue
		}
		if req.ticket != "" { // a flag after the ticket: the full CLI's rules decide
			return req, false
		}
		name, value, inline := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		if !strings.HasPrefix(w, "--") {
			return req, false
		}
		if name == "json" {
			if inline || req.json {
				return req, false
			}
			req.json = true
			continue
		}
		if !inline {
			if i+1 >= len(words) {
				return req, false
			}
			i++
			value = words[i]
		}
		switch name {
		case "tracker":
			if req.tracker != nil {
				return req, false
			}
			req.tracker = &value
		case "match":
			if req.match != nil {
				return req, false
			}
			req.match = &value
		case "trailer":
			if strings.Contains(value, ",") {
				return req, false
			}
			req.trailers = append(req.trailers, value)
		default:
			return req, false
		}
	}
	return req, req.ticket != ""
}

// run opens the repository around the working folder, lists the ticket's commits and writes them, as the
// full CLI's `commits` does (cli.runCommits): the same settings, options and listing (ticketcommits.Run, which
// calls listed before it writes).
func run(env Env, req request, stdout, stderr io.Writer, listed func()) error {
	getwd := env.Getwd
	if getwd == nil {
		getwd = os.Getwd
	}
	wd, err := getwd()
	if err != nil {
		return err
	}
	// The pace for a run the index answers, before the refs and the index are read: their allocations would
	// otherwise meet Go's first collection at 4 MB.
	call(env.SmallHeap)
	var meter *progress.Meter
	repo, err := gitext.Discover(wd, env.Getenv,
		gitext.WithNotice(func(msg string) { fmt.Fprintf(stderr, "notice: %s\n", msg) }),
		gitext.WithProgress(func(commits int) {
			if meter != nil {
				meter.Set(commits)
			}
		}),
		gitext.WithConfigCache(cachedKey))
	if err != nil {
		return err
	}
	// The configuration comes from its cache (cachedKey), else from a git config child (gitext.Repo.Config) for
	// about a millisecond and a half: the refs are listed, the ticket index read and the default base branch
	// resolved meanwhile, which need no configuration, and handed to the listing (Options.Tips, Index and Base
	// are what it would read itself).
	config := make(chan error, 1)
	preloaded := make(chan *discover.Preloaded, 1)
	go func() {
		_, err := repo.Configuration()
		config <- err
		preloaded <- discover.Preload(repo)
	}()
	tips, tipsErr := repo.HistoryTips()
	// The default base branch (origin/HEAD's target, else main, else master) needs no configuration either;
	// it is taken when bernstein.baseBranch turns out unset, as Find would resolve it then.
	baseName, baseCommit, baseOK := repo.BaseBranch("")
	err = <-config
	defer repo.WaitConfigCache() // before the process exits or hands over
	if err != nil {
		return err
	}
	index := <-preloaded
	cfg, err := repo.Configuration()
	if err != nil {
		return err
	}
	set := settings.Load(settings.Sources{Config: cfg, Getenv: env.Getenv, ProjectRoot: repo.Top(),
		WorkTree: repo.Top(), CommonDir: repo.CommonDir}, settings.Flags{Tracker: req.tracker, Match: req.match,
		Trailers: req.trailers, Wd: wd})
	opts, err := ticketcommits.Options(set, cfg, "", req.ticket)
	if err != nil {
		return err
	}
	opts.FullWalk = env.LongHeap
	if tipsErr == nil {
		opts.Tips = tips
	}
	opts.Index = index
	if opts.BaseBranch == "" {
		opts.Base = &gitext.Tip{}
		if baseOK {
			opts.Base = &gitext.Tip{Name: baseName, Commit: baseCommit}
		}
	}
	meter = progress.New(stderr, "Reading history", "commits")
	return ticketcommits.Run(repo, opts, req.json, stdout, stderr, func() {
		if meter != nil {
			meter.Done()
		}
		listed()
	})
}

// cachedKey says which configuration keys a run reads, all that the configuration cache keeps for it: the
// settings' (bernstein.*, the remote's URL), discovery's (trailer.*, core.abbrev) and the patch ids' (diff.*,
// core.attributesFile). A run asked for another hands over (gitext.Repo.Unreadable says so to
// ticketcommits.Run, before the output).
func cachedKey(key string) bool {
	section, rest, _ := strings.Cut(key, ".")
	switch section {
	case "bernstein", "trailer", "diff":
		return true
	case "core":
		return rest == "abbrev" || rest == "attributesfile"
	case "remote":
		return strings.HasSuffix(rest, ".url")
	}
	return false
}

// call calls f when it is not nil.
func call(f func()) {
	if f != nil {
		f()
	}
}
