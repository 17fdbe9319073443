package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// hookRow is one timing of git-bernstein alone against a budget of its own (issue 26): the post-merge hook
// after a merge naming a ticket, and record of a range naming none.
type hookRow struct {
	what     string
	wall     time.Duration
	cpu      time.Duration
	rssKB    int64
	target   time.Duration
	targetKB int64 // 0: no memory target
}

// hookCommits is how many commits the measured merge brings in, each naming the project's ticket.
const hookCommits = 30

// measureHooks adds to the linked clone at work a branch of hookCommits commits naming p.ticket (each appends a
// line to another of the project's files), its --no-ff merge into HEAD's branch, and a branch of three commits
// naming no ticket, their objects loose as a merge leaves them; then it times `git bernstein hook post-merge`
// on the merge (ORIG_HEAD..HEAD: the ticket's bundle, diff.patch of all its commits, its note and archives ref)
// and `git bernstein record` of the plain branch. Before each hook run the ticket index is put back as it was
// before the merge (its last update covers the history up to it, as after the merge before) and what the last
// run recorded is removed.
func measureHooks(work, bin string, p realProject, runs int) ([]hookRow, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = work, benchGitEnv()
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	branch, err := git("symbolic-ref", "HEAD")
	if err != nil {
		return nil, err
	}
	base, err := git("rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	files, err := hookFiles(work, hookCommits)
	if err != nil {
		return nil, err
	}
	contents := make([][]byte, len(files))
	for i, f := range files {
		b, err := git("cat-file", "blob", "HEAD:"+f)
		if err != nil {
			return nil, err
		}
		contents[i] = []byte(b + "\n// " + p.ticket + ": follow-up " + strconv.Itoa(i+1) + "\n")
	}
	feature := "refs/heads/bench/" + p.ticket + "-followup"
	stream := func(w *bufio.Writer) {
		t := int64(benchEpoch + 100_000_000) // 2027: after any project's HEAD, and the same every run
		who := func() {
			fmt.Fprintf(w, "author Bench <bench@example.com> %d +0000\ncommitter Bench <bench@example.com> %d +0000\n", t, t)
		}
		for i, f := range files {
			fmt.Fprintf(w, "commit %s\nmark :%d\n", feature, i+1)
			who()
			msg := fmt.Sprintf("%s: follow-up %d to %s\n", p.ticket, i+1, filepath.Base(f))
			fmt.Fprintf(w, "data %d\n%s\n", len(msg), msg)
			if i == 0 {
				fmt.Fprintf(w, "from %s\n", base)
			}
			fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", f, len(contents[i]), contents[i])
		}
		fmt.Fprintf(w, "commit %s\nmark :%d\n", branch, len(files)+1)
		who()
		msg := fmt.Sprintf("Merge branch '%s'\n", strings.TrimPrefix(feature, "refs/heads/"))
		fmt.Fprintf(w, "data %d\n%s\nfrom %s\nmerge :%d\n", len(msg), msg, base, len(files))
		for i, f := range files {
			fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", f, len(contents[i]), contents[i])
		}
		for i := 0; i < 3; i++ {
			fmt.Fprintf(w, "commit refs/heads/bench/plain\n")
			who()
			msg := fmt.Sprintf("Tidy the build, step %d\n", i+1)
			fmt.Fprintf(w, "data %d\n%s\n", len(msg), msg)
			if i == 0 {
				fmt.Fprintf(w, "from %s\n", base)
			}
			fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", files[i], len(contents[i]), contents[i])
		}
		w.WriteString("done\n")
	}
	if err := importLoose(work, stream); err != nil {
		return nil, err
	}
	gitDir := filepath.Join(work, ".git")
	if err := os.WriteFile(filepath.Join(gitDir, "ORIG_HEAD"), []byte(base+"\n"), 0o644); err != nil {
		return nil, err
	}
	for _, kv := range [][2]string{{"user.name", "Bench"}, {"user.email", "bench@example.com"}, {"bernstein.tracker", "jira"}} {
		if _, err := git("config", kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	index := filepath.Join(gitDir, "bernstein", "index")
	saved := index + ".before-merge"
	if data, err := os.ReadFile(index); err == nil {
		if err := os.WriteFile(saved, data, 0o644); err != nil {
			return nil, err
		}
	} else {
		return nil, fmt.Errorf("%s: no ticket index after the warm runs: %w", p.name, err)
	}
	q := func(s string) string { return "'" + s + "'" }
	reset := fmt.Sprintf("cp %s %s && rm -rf %s %s %s %s %s", q(saved), q(index), q(filepath.Join(gitDir, "bernstein", "bundles")),
		q(filepath.Join(gitDir, "refs", "notes", "bernstein")), q(filepath.Join(gitDir, "refs", "bernstein")),
		q(filepath.Join(gitDir, "logs", "refs", "notes", "bernstein")), q(filepath.Join(gitDir, "logs", "refs", "bernstein")))
	hook := fmt.Sprintf("%s && %s hook post-merge 0", reset, q(bin))
	step("%s: post-merge hook on a merge of %d commits naming %s", p.name, len(files), p.ticket)
	h, err := runTimed(work, hook, benchGitEnv(), runs)
	if err != nil {
		return nil, err
	}
	if got, _ := filepath.Glob(filepath.Join(gitDir, "bernstein", "bundles", "*", p.ticket, "*.tar.gz")); len(got) != 1 {
		return nil, fmt.Errorf("%s: the post-merge hook recorded no bundle of %s (%v)", p.name, p.ticket, got)
	}
	record := fmt.Sprintf("%s record %s..bench/plain", q(bin), base)
	step("%s: record of a range naming no ticket", p.name)
	r, err := runTimed(work, record, benchGitEnv(), runs)
	if err != nil {
		return nil, err
	}
	return []hookRow{
		{what: fmt.Sprintf("%s, post-merge hook, merge of %d commits naming %s", p.name, len(files), p.ticket),
			wall: h.wall, cpu: h.cpu, rssKB: h.rssKB, target: 500 * time.Millisecond},
		{what: p.name + ", record of 3 commits naming no ticket", wall: r.wall, cpu: r.cpu, rssKB: r.rssKB,
			target: 50 * time.Millisecond, targetKB: 64 << 10},
	}, nil
}

// hookFiles picks n regular files of HEAD's tree between 1 KB and 64 KB, spread over it, with plain names.
func hookFiles(work string, n int) ([]string, error) {
	out, err := exec.Command("git", "-C", work, "ls-tree", "-r", "-l", "HEAD").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-tree: %w", err)
	}
	var all []string
	for _, line := range strings.Split(string(out), "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[0] != "100644" || strings.ContainsAny(path, " \"\\") {
			continue
		}
		if size, err := strconv.Atoi(f[3]); err != nil || size < 1000 || size > 64<<10 {
			continue
		}
		all = append(all, path)
	}
	if len(all) < n {
		return nil, fmt.Errorf("only %d files of 1 to 64 KB in HEAD of %s", len(all), work)
	}
	picked := make([]string, n)
	for i := range picked {
		picked[i] = all[i*len(all)/n]
	}
	return picked, nil
}

// importLoose runs git fast-import on the stream into the repository at work and unpacks the pack it writes, so
// that the new objects are loose, as a merge and the commits before it leave them.
func importLoose(work string, stream func(*bufio.Writer)) error {
	packDir := filepath.Join(work, ".git", "objects", "pack")
	before, _ := filepath.Glob(filepath.Join(packDir, "*.pack"))
	var in bytes.Buffer
	w := bufio.NewWriter(&in)
	stream(w)
	w.Flush()
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = work, benchGitEnv(), &in
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v\n%s", err, out)
	}
	after, _ := filepath.Glob(filepath.Join(packDir, "*.pack"))
	for _, p := range after {
		if contains(before, p) {
			continue
		}
		// unpack-objects writes only what the repository lacks, so the pack is moved out of it first.
		moved := filepath.Join(work, ".git", filepath.Base(p))
		if err := os.Rename(p, moved); err != nil {
			return err
		}
		os.Remove(strings.TrimSuffix(p, ".pack") + ".idx")
		f, err := os.Open(moved)
		if err != nil {
			return err
		}
		cmd := exec.Command("git", "unpack-objects", "-q")
		cmd.Dir, cmd.Env, cmd.Stdin = work, benchGitEnv(), f
		out, err := cmd.CombinedOutput()
		f.Close()
		os.Remove(moved)
		if err != nil {
			return fmt.Errorf("git unpack-objects: %v\n%s", err, out)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writeHookTable writes the hook and record timings, each against its own budget.
func writeHookTable(b *strings.Builder, rows []hookRow) {
	if len(rows) == 0 {
		return
	}
	b.WriteString("\nThe post-merge hook on a merge naming the ticket, and `record` of a range naming none, in the same clone after\n")
	b.WriteString("its warm runs (the new commits loose, the ticket index as before the merge, the last bundle, note and archives\n")
	b.WriteString("ref removed before each run); targets (issue 26): a merge naming one ticket ≤ 0.5 s, a range naming none\n")
	b.WriteString("≤ 50 ms and ≤ 64 MiB.\n\n| what | wall | CPU | peak RSS | target |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		verdict := "met"
		if r.wall > r.target || (r.targetKB > 0 && r.rssKB > r.targetKB) {
			verdict = "**missed**"
		}
		target := fmt.Sprintf("≤ %.2f s", r.target.Seconds())
		if r.targetKB > 0 {
			target += fmt.Sprintf(", ≤ %d MiB", r.targetKB>>10)
		}
		fmt.Fprintf(b, "| %s | %.3f s | %.3f s | %d MiB | %s: %s |\n", r.what, r.wall.Seconds(), r.cpu.Seconds(), r.rssKB>>10, target, verdict)
	}
}
