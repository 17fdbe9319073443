package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// realReposEnv names a folder of fresh clones of real projects (issue 26): one subfolder per project of
// realProjects, each made with `git clone --no-local` (so that git packs it as a server would, with no
// commit-graph). Unset, the real-repository rows are skipped with a message.
const realReposEnv = "BERNSTEIN_BENCH_REPOS"

// realProject is a real repository measured by `make bench`, and the ticket looked up in it.
type realProject struct {
	name   string   // its subfolder of $BERNSTEIN_BENCH_REPOS
	ticket string   // TICKET for git-bernstein commits, and --grep for git log
	flags  []string // the tracker (and trailer key) the project's ids need
	// hook: the ticket is a Jira-style key (bernstein.ticketPattern's default finds it), so the post-merge hook
	// is measured too (measureHooks).
	hook bool
}

// realProjects: a Jira project with a large pack (Kafka: 218 MiB, 20,873 commits), a Launchpad one with a larger
// history (Nova: 330 MiB, 70,940 commits, bugs in Closes-Bug trailers), a GitHub one (go-git) and a smaller Jira
// one (commons-lang). The tickets are ones each history names several times.
var realProjects = []realProject{
	{"kafka", "KAFKA-10199", []string{"--tracker", "jira"}, true},
	{"nova", "1927677", []string{"--tracker", "launchpad", "--trailer", "Closes-Bug"}, false},
	{"go-git", "2081", []string{"--tracker", "github"}, false},
	{"commons-lang", "LANG-1568", []string{"--tracker", "jira"}, true},
}

// realRow is one project's first runs (without and with a commit-graph) and warm run against git log --grep,
// with CPU time and peak RSS, ours and git's run alternately.
type realRow struct {
	what               string
	oursT, theirsT     time.Duration
	oursCPU, theirsCPU time.Duration
	oursKB, theirsKB   int64
	target             float64
}

// measureRealRepos measures every project of realProjects that $BERNSTEIN_BENCH_REPOS holds; the returned text
// is the report's section (or the message saying why there is none).
func measureRealRepos(cache, bin string, runs int) (string, error) {
	root := os.Getenv(realReposEnv)
	if root == "" {
		msg := fmt.Sprintf("real repositories skipped: set %s to a folder of fresh `git clone --no-local` clones named %s", realReposEnv, realNames())
		step("%s", msg)
		return "\n## Real repositories\n\nNot measured in this run: " + msg + ".\n", nil
	}
	var rows []realRow
	var hooks []hookRow
	var inputs []string
	for _, p := range realProjects {
		src := filepath.Join(root, p.name)
		if _, err := os.Stat(filepath.Join(src, ".git")); err != nil {
			step("real repository %s skipped: no clone at %s", p.name, src)
			continue
		}
		r, h, in, err := measureProject(cache, bin, src, p, runs)
		if err != nil {
			return "", err
		}
		rows, hooks, inputs = append(rows, r...), append(hooks, h...), append(inputs, in)
	}
	var b strings.Builder
	b.WriteString("\n## Real repositories\n\n")
	if len(rows) == 0 {
		fmt.Fprintf(&b, "Not measured in this run: %s holds none of %s.\n", root, realNames())
		return b.String(), nil
	}
	fmt.Fprintf(&b, "Fresh `git clone --no-local` clones (%s), each linked into the cache; `commits TICKET` against `git log --all\n", realReposEnv)
	b.WriteString("--format=%H --grep=TICKET`, run alternately, medians. A first run deletes `.git/bernstein` (the ticket index,\n")
	b.WriteString("patch-id and configuration caches) before each run. Warm runs start once the clone's `.git/config` is older\n")
	b.WriteString("than the configuration cache's two-second racy window, as any configuration not changed seconds ago is; the\n")
	b.WriteString("row after them is a warm run whose configuration cache is missing (the first after a change: it asks git\n")
	b.WriteString("config, and writes the cache), for comparison. Targets (issue 26): first runs ≤ 1.0× git's wall time and ≤ 2×\n")
	fmt.Fprintf(&b, "its peak RSS, warm ≤ 0.1×. Load average at the end: %s.\n", loadAverage())
	b.WriteString(timingNote)
	for _, in := range inputs {
		fmt.Fprintf(&b, "- %s\n", in)
	}
	writeRealTable(&b, rows)
	writeHookTable(&b, hooks)
	return b.String(), nil
}

// measureProject links the clone at src into the cache and measures p's first and warm runs against git log
// --grep, then (p.hook) the post-merge hook; in describes the repository.
func measureProject(cache, bin, src string, p realProject, runs int) (rows []realRow, hooks []hookRow, in string, err error) {
	// A local clone shares the source's pack files (hard links), so the measured pack is the fresh clone's
	// own, while the commit-graph, ticket index and patch-id cache written here never touch the source.
	work := filepath.Join(cache, "real-"+p.name)
	os.RemoveAll(work)
	step("%s: linking %s", p.name, src)
	if err := runIn(cache, "git", "clone", "-q", "--local", "--no-checkout", src, work); err != nil {
		return nil, nil, "", err
	}
	// Every ref of the source, as its clone has them (remote-tracking branches and tags), not just the
	// branch a local clone of it would make.
	if err := runIn(work, "git", "fetch", "-q", "--no-tags", src, "+refs/remotes/*:refs/remotes/*", "+refs/tags/*:refs/tags/*"); err != nil {
		return nil, nil, "", err
	}
	os.RemoveAll(filepath.Join(work, ".git", "objects", "info", "commit-graph"))
	os.RemoveAll(filepath.Join(work, ".git", "objects", "info", "commit-graphs"))
	head, _ := exec.Command("git", "-C", work, "rev-parse", "--short=12", "HEAD").Output()
	count, _ := exec.Command("git", "-C", work, "rev-list", "--all", "--count").Output()
	refs, _ := exec.Command("git", "-C", work, "for-each-ref", "--format=x").Output()
	packs, _ := filepath.Glob(filepath.Join(work, ".git", "objects", "pack", "*.pack"))
	var packBytes int64
	for _, f := range packs {
		if st, err := os.Stat(f); err == nil {
			packBytes += st.Size()
		}
	}
	in = fmt.Sprintf("%s at %s: %s commits, %d refs, %d pack(s) of %.0f MiB in all; ticket %s",
		p.name, strings.TrimSpace(string(head)), strings.TrimSpace(string(count)), strings.Count(string(refs), "\n"),
		len(packs), float64(packBytes)/(1<<20), p.ticket)
	bernstein := filepath.Join(work, ".git", "bernstein")
	ours := fmt.Sprintf("'%s' commits %s %s", bin, strings.Join(p.flags, " "), p.ticket)
	first := fmt.Sprintf("rm -rf '%s' && %s", bernstein, ours)
	gitLog := "git log --all --format=%H --grep=" + p.ticket
	for _, m := range []struct {
		what, ours string
		target     float64
		graph      bool
	}{
		{"first run, no commit-graph", first, 1.0, false},
		{"first run, with commit-graph", first, 1.0, true},
		{"warm", ours, 0.1, true},
		{"warm, configuration cache missing", fmt.Sprintf("rm -f '%s' && %s",
			filepath.Join(bernstein, "config-cache"), ours), 0, false},
	} {
		if m.graph {
			if err := runIn(work, "git", "commit-graph", "write", "--reachable"); err != nil {
				return nil, nil, "", err
			}
		}
		if m.what == "warm" {
			settle(filepath.Join(work, ".git", "config"))
		}
		step("%s: %s", p.name, m.what)
		a, b, err := runAlternating(work, m.ours, gitLog, runs)
		if err != nil {
			return nil, nil, "", err
		}
		rows = append(rows, realRow{what: p.name + ", " + m.what, oursT: a.wall, theirsT: b.wall, oursCPU: a.cpu,
			theirsCPU: b.cpu, oursKB: a.rssKB, theirsKB: b.rssKB, target: m.target})
	}
	if p.hook {
		if hooks, err = measureHooks(work, bin, p, runs); err != nil {
			return nil, nil, "", err
		}
	}
	return rows, hooks, in, nil
}

// configRacyWindow is gitext's: a configuration file changed this recently is not cached.
const configRacyWindow = 2 * time.Second

// settle waits until path was last changed more than configRacyWindow ago.
func settle(path string) {
	if st, err := os.Stat(path); err == nil {
		time.Sleep(time.Until(st.ModTime().Add(configRacyWindow + 100*time.Millisecond)))
	}
}

func writeRealTable(b *strings.Builder, rows []realRow) {
	b.WriteString("\n| comparison | ours | git | ratio | target | CPU ours / git | peak RSS ours / git |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		ratio := float64(r.oursT) / float64(r.theirsT)
		target := fmt.Sprintf("≤ %.1f×: met", r.target)
		switch {
		case r.target == 0:
			target = "— (for comparison)"
		case ratio > r.target:
			target = fmt.Sprintf("≤ %.1f×: **missed by %.0f%%**", r.target, (ratio/r.target-1)*100)
		}
		rss := float64(r.oursKB) / float64(r.theirsKB)
		fmt.Fprintf(b, "| %s | %.3f s | %.3f s | %.2f× | %s | %.3f s / %.3f s (%.2f×) | %d / %d MiB (%.1f×) |\n",
			r.what, r.oursT.Seconds(), r.theirsT.Seconds(), ratio, target, r.oursCPU.Seconds(),
			r.theirsCPU.Seconds(), float64(r.oursCPU)/float64(r.theirsCPU), r.oursKB/1024, r.theirsKB/1024, rss)
	}
}

func realNames() string {
	var names []string
	for _, p := range realProjects {
		names = append(names, p.name)
	}
	return strings.Join(names, ", ")
}

// runAlternating runs ours and theirs one after the other, runs times, so that both see the same load, and
// returns each one's median wall time, median CPU time and median peak RSS.
func runAlternating(dir, ours, theirs string, runs int) (result, result, error) {
	var a, b []result
	for k := 0; k < runs; k++ {
		x, err := runTimed(dir, ours, benchGitEnv(), 1)
		if err != nil {
			return result{}, result{}, err
		}
		y, err := runTimed(dir, theirs, benchGitEnv(), 1)
		if err != nil {
			return result{}, result{}, err
		}
		a, b = append(a, x), append(b, y)
	}
	return medianResult(a), medianResult(b), nil
}

// medianResult is the median of each measure on its own.
func medianResult(rs []result) result {
	walls, cpus, kbs := make([]int64, len(rs)), make([]int64, len(rs)), make([]int64, len(rs))
	for i, r := range rs {
		walls[i], cpus[i], kbs[i] = int64(r.wall), int64(r.cpu), r.rssKB
	}
	med := func(s []int64) int64 {
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	return result{wall: time.Duration(med(walls)), cpu: time.Duration(med(cpus)), rssKB: med(kbs)}
}

// measureMonorepo measures a generated repository of $BERNSTEIN_BENCH_MONOREPO commits (genMono, cached under
// cache) as the real ones are; the returned text is its section, or the message saying why there is none.
func measureMonorepo(cache, bin string, runs int) (string, error) {
	v := os.Getenv(monoEnv)
	if v == "" {
		msg := fmt.Sprintf("monorepo skipped: set %s to a number of commits (1000000 for issue 26's size; generating it takes minutes and gigabytes, once)", monoEnv)
		step("%s", msg)
		return "\n## Generated monorepo\n\nNot measured in this run: " + msg + ".\n", nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 100 {
		return "", fmt.Errorf("%s=%q: want a number of commits, at least 100", monoEnv, v)
	}
	src := filepath.Join(cache, fmt.Sprintf("mono-%d", n))
	done := filepath.Join(src, ".git", "bench-done")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(src)
		os.MkdirAll(cache, 0o755)
		step("generating a monorepo of %d commits with git fast-import (Kafka's tree and file sizes; minutes)", n)
		start := time.Now()
		if err := genMono(src, n, 1); err != nil {
			return "", err
		}
		step("monorepo generated in %s", time.Since(start).Round(time.Second))
		os.WriteFile(done, nil, 0o644)
	}
	p := realProject{name: filepath.Base(src), ticket: monoTicket, flags: []string{"--tracker", "jira"}, hook: true}
	rows, hooks, in, err := measureProject(cache, bin, src, p, runs)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("\n## Generated monorepo\n\n")
	fmt.Fprintf(&b, "A repository of %d commits made by git fast-import (%s; internal/benchcompare/genmono.go): Kafka's tree\n", n, monoEnv)
	b.WriteString("shape (6,519 files in 1,541 folders, up to 14 deep) and file sizes (10.8 KB on average), each commit editing one\n")
	b.WriteString("to three files, Jira-style messages, a tag every 5,000 commits; repacked as a clone is, with no commit-graph.\n")
	fmt.Fprintf(&b, "Measured as the real repositories are, with the same targets. Load average at the end: %s.\n\n- %s\n", loadAverage(), in)
	writeRealTable(&b, rows)
	writeHookTable(&b, hooks)
	return b.String(), nil
}
