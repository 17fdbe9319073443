package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// realSpec shapes a repository like the long-lived projects people point the tool at (OpenStack Nova was the
// model: 71,000 commits, review-system merges, long messages, hundreds of tags): every change is a topic branch
// of one to three commits forked from a recent main commit (not always the tip, so histories interleave) and
// merged with a `Merge "subject"` commit; messages have a subject, one to four wrapped paragraphs with version
// numbers, file names and bug numbers in them, and trailers (Change-Id on every commit, Closes-Bug, Refs,
// Co-Authored-By, Signed-off-by); an annotated tag every 250 changes, stable branches with backports, and open
// review branches that were never merged. The regular repository of genRepo has short messages, three refs
// and a linear main line; inflating and indexing cost far more here per commit.
type realSpec struct {
	Commits int
	Target  string
	Seed    int64
}

// genReal writes the repository with git fast-import.
func genReal(dir string, spec realSpec) error {
	return fastImport(dir, func(w *bufio.Writer) error { return writeRealStream(w, spec) })
}

var realWords = strings.Fields(`the a to of and in for is that this with on be it as by are not when from
instance compute scheduler volume network port driver libvirt api request response migration resize server host
node cell placement allocation resource provider quota image flavor metadata policy context config option default
value error exception retry timeout lock database query object field version rpc conductor manager handler test
unit functional fixture mock assert check ensure handle avoid remove add move rename refactor cleanup fix bug
regression behaviour because since which would should could must may only also still however instead rather than
now then after before during while until unless each every all any some none other same different new old`)

var realFiles = strings.Fields(`nova/compute/manager.py nova/scheduler/filters.py nova/api/openstack/compute/servers.py
nova/virt/libvirt/driver.py nova/db/main/api.py nova/objects/instance.py nova/conductor/manager.py
nova/network/neutron.py nova/tests/unit/compute/test_compute.py doc/source/admin/configuration.rst
releasenotes/notes/fix-resize.yaml setup.cfg requirements.txt tox.ini`)

type realWriter struct {
	w     io.Writer
	rnd   *rand.Rand
	mark  int
	t     int64
	files int
	spec  realSpec
	made  int
}

func (s *realWriter) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[s.rnd.Intn(16)]
	}
	return string(b)
}

func (s *realWriter) sentence() string {
	n := 6 + s.rnd.Intn(14)
	words := make([]string, 0, n+2)
	for i := 0; i < n; i++ {
		switch r := s.rnd.Intn(40); {
		case r == 0:
			words = append(words, realFiles[s.rnd.Intn(len(realFiles))])
		case r == 1:
			words = append(words, fmt.Sprintf("%d.%d.%d", 1+s.rnd.Intn(30), s.rnd.Intn(12), s.rnd.Intn(9)))
		case r == 2:
			words = append(words, fmt.Sprintf("bug %d", 1000000+s.rnd.Intn(1200000)))
		case r == 3:
			words = append(words, "commit "+s.hex(12))
		default:
			words = append(words, realWords[s.rnd.Intn(len(realWords))])
		}
	}
	out := strings.Join(words, " ")
	return strings.ToUpper(out[:1]) + out[1:] + "."
}

// message is a subject, paragraphs wrapped at 72 columns and a trailer block.
func (s *realWriter) message(subject string) string {
	var b strings.Builder
	b.WriteString(subject)
	b.WriteString("\n")
	for p := 0; p < 1+s.rnd.Intn(4); p++ {
		b.WriteString("\n")
		col := 0
		for k := 0; k < 1+s.rnd.Intn(4); k++ {
			for _, w := range strings.Fields(s.sentence()) {
				if col > 0 && col+1+len(w) > 72 {
					b.WriteString("\n")
					col = 0
				} else if col > 0 {
					b.WriteString(" ")
					col++
				}
				b.WriteString(w)
				col += len(w)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	if s.rnd.Intn(5) < 2 {
		fmt.Fprintf(&b, "Closes-Bug: #%d\n", 1000000+s.rnd.Intn(1200000))
	}
	if s.rnd.Intn(10) < 3 {
		fmt.Fprintf(&b, "Refs: ENG-%d\n", 100+s.rnd.Intn(5000))
	}
	if s.made%400 == 7 {
		fmt.Fprintf(&b, "Refs: %s\n", s.spec.Target)
	}
	if s.rnd.Intn(8) == 0 {
		fmt.Fprintf(&b, "Co-Authored-By: Dev %d <dev%d@example.org>\n", s.rnd.Intn(300), s.rnd.Intn(300))
	}
	fmt.Fprintf(&b, "Change-Id: I%s\n", s.hex(40))
	return b.String()
}

func (s *realWriter) commit(ref, msg, from, merge string, edit bool) int {
	s.mark++
	s.made++
	s.t += 30 + int64(s.rnd.Intn(600))
	fmt.Fprintf(s.w, "commit %s\nmark :%d\n", ref, s.mark)
	a := s.rnd.Intn(400)
	fmt.Fprintf(s.w, "author Dev %d <dev%d@example.org> %d +0%d00\n", a, a, s.t-int64(s.rnd.Intn(86400*5)), s.rnd.Intn(10))
	fmt.Fprintf(s.w, "committer Zuul <zuul@example.org> %d +0000\n", s.t)
	fmt.Fprintf(s.w, "data %d\n%s\n", len(msg), msg)
	if from != "" {
		fmt.Fprintf(s.w, "from %s\n", from)
	}
	if merge != "" {
		fmt.Fprintf(s.w, "merge %s\n", merge)
	}
	if edit {
		n := s.rnd.Intn(s.files)
		fmt.Fprintf(s.w, "M 100644 inline src/m%03d/f%04d.py\ndata <<EOF\nvalue = %d\nEOF\n", n%100, n, s.rnd.Intn(1<<20))
	}
	return s.mark
}

func (s *realWriter) subject() string {
	verbs := []string{"Fix", "Add", "Remove", "Refactor", "Handle", "Use", "Move", "Update", "Avoid", "Make"}
	subj := verbs[s.rnd.Intn(len(verbs))] + " " + strings.TrimSuffix(s.sentence(), ".")
	if len(subj) > 70 {
		subj = strings.TrimSpace(subj[:70])
	}
	if s.made%400 == 211 {
		subj += " for " + s.spec.Target
	}
	return subj
}

func writeRealStream(w io.Writer, spec realSpec) error {
	s := &realWriter{w: w, rnd: rand.New(rand.NewSource(spec.Seed)), t: benchEpoch - 400000000, files: 3000, spec: spec}
	var mainline []int // marks of main's commits, newest last
	mainline = append(mainline, s.commit("refs/heads/main", s.message("Initial commit"), "", "", true))
	stables := 0
	for changes := 0; s.made < spec.Commits; changes++ {
		// A change forked from one of the last few main commits, merged by the review system.
		base := mainline[len(mainline)-1-s.rnd.Intn(min(len(mainline), 8))]
		from := fmt.Sprintf(":%d", base)
		var tip int
		subj := ""
		for i, n := 0, 1+s.rnd.Intn(3); i < n; i++ {
			subj = s.subject()
			tip = s.commit("refs/heads/topic", s.message(subj), from, "", true)
			from = ""
		}
		merge := s.commit("refs/heads/main", fmt.Sprintf("Merge \"%s\"", strings.ReplaceAll(subj, "\"", "'")),
			fmt.Sprintf(":%d", mainline[len(mainline)-1]), fmt.Sprintf(":%d", tip), false)
		mainline = append(mainline, merge)
		if changes%250 == 249 {
			fmt.Fprintf(w, "tag %d.%d.0\nfrom :%d\ntagger Release <rel@example.org> %d +0000\ndata 20\nRelease of the week\n",
				changes/3000, changes/250%12, merge, s.t)
		}
		if changes%3000 == 1500 {
			// A stable branch with a few backports over time.
			stables++
			ref := fmt.Sprintf("refs/heads/stable/r%02d", stables)
			bfrom := fmt.Sprintf(":%d", merge)
			for k := 0; k < 20; k++ {
				s.commit(ref, s.message(s.subject())+fmt.Sprintf("(cherry picked from commit %s)\n", s.hex(40)), bfrom, "", true)
				bfrom = ""
			}
		}
		if changes%60 == 30 {
			// A review that was never merged stays as a branch.
			s.commit(fmt.Sprintf("refs/heads/review/dev%d/topic-%d", s.rnd.Intn(300), changes), s.message(s.subject()),
				fmt.Sprintf(":%d", merge), "", true)
		}
	}
	_, err := fmt.Fprintf(w, "reset refs/heads/topic\nfrom 0000000000000000000000000000000000000000\n\ndone\n")
	return err
}

// realRepo is the real-history-shaped repository of realCommits commits under cache, generated on first use
// (deterministically: the same seed every time) and kept for later runs.
func realRepo(cache string, realCommits int) (string, error) {
	real := filepath.Join(cache, fmt.Sprintf("real-%d", realCommits))
	if _, err := os.Stat(filepath.Join(real, ".git", "bench-done")); err == nil {
		return real, nil
	}
	os.RemoveAll(real)
	step("generating a real-history-shaped repository of %d commits with git fast-import", realCommits)
	if err := genReal(real, realSpec{Commits: realCommits, Target: "ENG-42", Seed: 2}); err != nil {
		return "", err
	}
	os.WriteFile(filepath.Join(real, ".git", "bench-done"), nil, 0o644)
	return real, nil
}
