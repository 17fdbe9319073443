package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// repoSpec shapes the benchmark repository: a main line with feature branches merged by --no-ff merges,
// tickets in trailers, messages and branch names, one ticket (PatchTicket) whose PatchCommits commits sit on a
// live branch for the diff.patch comparison, and the target ticket scattered through all of history.
type repoSpec struct {
	Commits      int
	Target       string // the ticket the comparisons ask for
	PatchTicket  string
	PatchCommits int
	Seed         int64
}

const benchEpoch = 1700000000

// genRepo writes a git fast-import stream for spec into dir's new repository and runs git fast-import.
func genRepo(dir string, spec repoSpec) error {
	return fastImport(dir, func(w *bufio.Writer) error { return writeStream(w, spec) })
}

// fastImport makes a new repository at dir from the fast-import stream write produces, and checks out main.
func fastImport(dir string, write func(*bufio.Writer) error) error {
	if err := fastImportBare(dir, write); err != nil {
		return err
	}
	return runIn(dir, "git", "reset", "-q", "--hard", "main")
}

// fastImportBare is fastImport without the checkout.
func fastImportBare(dir string, write func(*bufio.Writer) error) error {
	if err := runIn(filepath.Dir(dir), "git", "init", "-q", "-b", "main", dir); err != nil {
		return err
	}
	return fastImportInto(dir, write)
}

// fastImportInto runs git fast-import in the existing repository at dir on the stream write writes.
func fastImportInto(dir string, write func(*bufio.Writer) error) error {
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Env = benchGitEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	if err := write(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	return nil
}

type streamWriter struct {
	w     io.Writer
	mark  int
	t     int64
	rnd   *rand.Rand
	files int
}

func (s *streamWriter) commit(ref, msg string, from string, merge string, files map[string]string) int {
	s.mark++
	s.t += 60
	fmt.Fprintf(s.w, "commit %s\nmark :%d\n", ref, s.mark)
	fmt.Fprintf(s.w, "author Ada Agent <ada@example.com> %d +0000\n", s.t)
	fmt.Fprintf(s.w, "committer Carl Committer <carl@example.com> %d +0000\n", s.t)
	fmt.Fprintf(s.w, "data %d\n%s\n", len(msg), msg)
	if from != "" {
		fmt.Fprintf(s.w, "from %s\n", from)
	}
	if merge != "" {
		fmt.Fprintf(s.w, "merge %s\n", merge)
	}
	for path, content := range files {
		fmt.Fprintf(s.w, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
	}
	return s.mark
}

func (s *streamWriter) edit() map[string]string {
	n := s.rnd.Intn(s.files)
	var b strings.Builder
	for i := 0; i < 4+s.rnd.Intn(6); i++ {
		fmt.Fprintf(&b, "line %d value %d\n", i, s.rnd.Intn(1000))
	}
	return map[string]string{fmt.Sprintf("src/d%02d/f%04d.txt", n%50, n): b.String()}
}

func writeStream(w io.Writer, spec repoSpec) error {
	s := &streamWriter{w: w, t: benchEpoch, rnd: rand.New(rand.NewSource(spec.Seed)), files: 2000}
	ticket := func() string { return fmt.Sprintf("ENG-%d", 100+s.rnd.Intn(5000)) }
	main := s.commit("refs/heads/main", "Initial commit", "", "", map[string]string{"README": "bench\n"})
	made := 1
	targetEvery := spec.Commits / 40
	branchNo := 0
	for made < spec.Commits-spec.PatchCommits-20 {
		// A feature branch of 1-8 commits merged with --no-ff, or a direct commit on main.
		if s.rnd.Intn(4) == 0 {
			branchNo++
			tk := ticket()
			if branchNo%97 == 0 {
				tk = spec.Target
			}
			name := fmt.Sprintf("feature/%s-work-%d", tk, branchNo)
			ref := "refs/heads/" + name
			from := fmt.Sprintf(":%d", main)
			var tip int
			for i := 0; i < 1+s.rnd.Intn(8); i++ {
				tip = s.commit(ref, fmt.Sprintf("Work on %s part %d\n\nSome words about the change.", name, i), from, "", s.edit())
				from = ""
				made++
			}
			main = s.commit("refs/heads/main", fmt.Sprintf("Merge branch '%s'", name), fmt.Sprintf(":%d", main), fmt.Sprintf(":%d", tip), nil)
			made++
			// The branch is deleted after the merge, as most teams do.
			fmt.Fprintf(w, "reset %s\nfrom 0000000000000000000000000000000000000000\n\n", ref)
			continue
		}
		var msg string
		switch r := s.rnd.Intn(10); {
		case targetEvery > 0 && made%targetEvery == 0:
			msg = fmt.Sprintf("Fix a corner case\n\nRefs: %s, %s\nSigned-off-by: Ada <ada@example.com>", ticket(), spec.Target)
		case r < 3:
			msg = fmt.Sprintf("Change module %d\n\nRefs: %s\nSigned-off-by: Ada <ada@example.com>", s.rnd.Intn(100), ticket())
		case r < 5:
			msg = fmt.Sprintf("Follow-up for %s: tidy names", ticket())
		default:
			msg = fmt.Sprintf("Refactor part %d of the scheduler\n\nNo ticket; housekeeping.", s.rnd.Intn(1000))
		}
		main = s.commit("refs/heads/main", msg, fmt.Sprintf(":%d", main), "", s.edit())
		made++
	}
	// The live branch of the target ticket, and the patch ticket's long live branch.
	from := fmt.Sprintf(":%d", main)
	for i := 0; i < 10; i++ {
		s.commit("refs/heads/bugfix/"+spec.Target+"-live", fmt.Sprintf("Live work %d", i), from, "", s.edit())
		from = ""
		made++
	}
	from = fmt.Sprintf(":%d", main)
	for i := 0; i < spec.PatchCommits; i++ {
		s.commit("refs/heads/perf/"+spec.PatchTicket+"-patches", fmt.Sprintf("Patch step %d\n\nRefs: %s", i, spec.PatchTicket), from, "", s.edit())
		from = ""
		made++
	}
	_, err := fmt.Fprintf(w, "done\n")
	return err
}

func benchGitEnv() []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
}

func runIn(dir string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = benchGitEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}
