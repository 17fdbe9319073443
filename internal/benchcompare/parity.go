package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/gitext/patch"
	"github.com/git-bernstein/git-bernstein/gitext/patch/patchcmp"
)

// paritySection measures how many diff.patch parts are byte-identical to `git format-patch --full-index
// --stdout` (signature aside, binary hunks inflated; issue 15 asks for 95%) on a generated history of 1,000
// commits with the changes that make parts differ (edits inside functions of languages with diff drivers,
// moved and edited files, binaries edited in place, mode changes, deletions), on the PERF-1 branch of the
// benchmark repository, and on any repositories listed in BERNSTEIN_PARITY_REPOS (colon-separated), and
// returns the BENCHMARKS.md section.
func paritySection(cache, benchRepo string) (string, error) {
	step("diff.patch parts byte-identical to git format-patch")
	features := filepath.Join(cache, "features-1000")
	if _, err := os.Stat(filepath.Join(features, ".done")); err != nil {
		os.RemoveAll(features)
		if err := genFeatureRepo(features, 1000, 15); err != nil {
			return "", fmt.Errorf("generate the feature history: %w", err)
		}
		os.WriteFile(filepath.Join(features, ".done"), nil, 0o644)
	}
	type line struct{ name, result string }
	var lines []line
	measure := func(name, dir string, revs ...string) error {
		res, err := parity(dir, revs...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		lines = append(lines, line{name, res.String()})
		return nil
	}
	if err := measure("generated feature history, 1,000 commits", features, "--root", "HEAD"); err != nil {
		return "", err
	}
	if err := measure("benchmark repository, PERF-1 branch", benchRepo, "main..perf/PERF-1-patches"); err != nil {
		return "", err
	}
	for _, dir := range filepath.SplitList(os.Getenv("BERNSTEIN_PARITY_REPOS")) {
		if dir != "" {
			if err := measure(filepath.Base(dir)+" (BERNSTEIN_PARITY_REPOS)", dir, "--root", "HEAD"); err != nil {
				return "", err
			}
		}
	}
	var b strings.Builder
	b.WriteString("\n## diff.patch parts byte-identical to git format-patch\n\n")
	b.WriteString("Each non-merge commit's part from `patch.WriteSeries` against `git format-patch --full-index --stdout` for the\n")
	b.WriteString("same commit: the signature after `-- ` is set aside and binary hunks are compared by their inflated bytes\n")
	b.WriteString("(gitext/patch/patchcmp). Target (issue 15): at least 95%.\n\n| history | byte-identical parts |\n|---|---|\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "| %s | %s |\n", l.name, l.result)
	}
	return b.String(), nil
}

// parity runs git format-patch once over revs and WriteSeries once per commit.
func parity(dir string, revs ...string) (patchcmp.Result, error) {
	cmd := exec.Command("git", append([]string{"-C", dir, "format-patch", "--stdout", "--full-index", "--no-numbered"}, revs...)...)
	cmd.Env = benchGitEnv()
	out, err := cmd.Output()
	if err != nil {
		return patchcmp.Result{}, fmt.Errorf("git format-patch: %w", err)
	}
	ids, theirs := patchcmp.Split(string(out))
	r, err := gitext.Discover(dir, nil, objstore.WithGoGit())
	if err != nil {
		return patchcmp.Result{}, err
	}
	return patchcmp.Compare(ids, theirs, func(id string) (string, error) {
		var b bytes.Buffer
		err := patch.WriteSeries(&b, r, []gitext.Hash{gitext.NewHash(id)})
		return b.String(), err
	})
}

// genFeatureRepo writes a history of n commits with git fast-import.
func genFeatureRepo(dir string, n int, seed int64) error {
	if err := exec.Command("git", "init", "-q", dir).Run(); err != nil {
		return err
	}
	var stream bytes.Buffer
	w := bufio.NewWriter(&stream)
	g := &featureGen{rng: rand.New(rand.NewSource(seed)), files: map[string]string{}, modes: map[string]string{}}
	g.files[".gitattributes"] = "*.go diff=golang\n*.java diff=java\n*.py diff=python\n*.c diff=cpp\n*.bin binary\n"
	for i := 0; i < 40; i++ {
		ext := featureExts[i%len(featureExts)]
		g.files[fmt.Sprintf("pkg%d/file%d%s", i%6, i, ext)] = g.source(ext)
	}
	g.files["assets/logo.bin"] = g.source(".bin")
	var ops []string
	for p := range g.files {
		ops = append(ops, g.put(p))
	}
	sort.Strings(ops)
	writeFeatureCommit(w, 0, "Initial import", ops)
	for i := 1; i < n; i++ {
		writeFeatureCommit(w, i, fmt.Sprintf("Change %d", i), g.step(i))
	}
	w.Flush()
	cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet")
	cmd.Stdin = &stream
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v\n%s", err, out)
	}
	return exec.Command("git", "-C", dir, "reset", "-q", "--hard", "main").Run()
}

var featureExts = []string{".go", ".java", ".py", ".c", ".txt"}

func writeFeatureCommit(w *bufio.Writer, i int, msg string, ops []string) {
	fmt.Fprintf(w, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", 1700000000+i*60, len(msg), msg)
	for _, op := range ops {
		w.WriteString(op)
	}
	w.WriteString("\n")
}

type featureGen struct {
	rng   *rand.Rand
	files map[string]string
	modes map[string]string
}

func (g *featureGen) put(p string) string {
	mode := g.modes[p]
	if mode == "" {
		mode = "100644"
	}
	return fmt.Sprintf("M %s inline %s\ndata %d\n%s\n", mode, p, len(g.files[p]), g.files[p])
}

func (g *featureGen) source(ext string) string {
	if ext == ".bin" {
		b := make([]byte, 3000+g.rng.Intn(30000))
		g.rng.Read(b)
		b[0] = 0
		return string(b)
	}
	var b strings.Builder
	for f := 0; f < 4+g.rng.Intn(8); f++ {
		name := fmt.Sprintf("%c%c%c%d", 'a'+g.rng.Intn(26), 'a'+g.rng.Intn(26), 'a'+g.rng.Intn(26), f)
		switch ext {
		case ".go":
			fmt.Fprintf(&b, "func %s() {\n", name)
		case ".java":
			fmt.Fprintf(&b, "    public void %s() {\n", name)
		case ".py":
			fmt.Fprintf(&b, "def %s():\n", name)
		case ".c":
			fmt.Fprintf(&b, "static int %s(void)\n{\n", name)
		default:
			fmt.Fprintf(&b, "%s:\n", name)
		}
		for s := 0; s < 2+g.rng.Intn(10); s++ {
			fmt.Fprintf(&b, "\tif v%d := compute(%d); v > 0 {\n\t\treturn\n\t}\n", g.rng.Intn(50), g.rng.Intn(1000))
		}
		if ext != ".py" && ext != ".txt" {
			b.WriteString("}\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (g *featureGen) pick() string {
	var names []string
	for p := range g.files {
		if p != ".gitattributes" {
			names = append(names, p)
		}
	}
	sort.Strings(names)
	return names[g.rng.Intn(len(names))]
}

// edit changes lines, duplicates a block (where the indent heuristic decides the hunk), removes a block.
func (g *featureGen) edit(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for k := 0; k < 1+g.rng.Intn(4); k++ {
		i := g.rng.Intn(len(lines))
		switch g.rng.Intn(3) {
		case 0:
			lines[i] = "\t// changed\n" + lines[i]
		case 1:
			j := min(i+3+g.rng.Intn(8), len(lines))
			dup := append([]string{}, lines[i:j]...)
			lines = append(lines[:j], append(dup, lines[j:]...)...)
		case 2:
			j := min(i+1+g.rng.Intn(5), len(lines))
			lines = append(lines[:i], lines[j:]...)
		}
		if len(lines) == 0 {
			lines = []string{"x\n"}
		}
	}
	return strings.Join(lines, "")
}

func (g *featureGen) step(i int) []string {
	p := g.pick()
	switch op := g.rng.Intn(20); {
	case op < 12:
		if strings.HasSuffix(p, ".bin") {
			b := []byte(g.files[p])
			copy(b[g.rng.Intn(len(b)):], "edited")
			g.files[p] = string(b)
		} else {
			g.files[p] = g.edit(g.files[p])
		}
		return []string{g.put(p)}
	case op < 15: // move, usually edited too
		to := fmt.Sprintf("moved%d/%s", i%9, filepath.Base(p))
		if _, taken := g.files[to]; taken {
			return []string{g.put(p)}
		}
		g.files[to] = g.files[p]
		if !strings.HasSuffix(p, ".bin") && g.rng.Intn(4) > 0 {
			g.files[to] = g.edit(g.files[to])
		}
		g.modes[to] = g.modes[p]
		delete(g.files, p)
		delete(g.modes, p)
		return []string{"D " + p + "\n", g.put(to)}
	case op < 17:
		ext := featureExts[g.rng.Intn(len(featureExts))]
		if g.rng.Intn(5) == 0 {
			ext = ".bin"
		}
		n := fmt.Sprintf("new/n%d%s", i, ext)
		g.files[n] = g.source(ext)
		return []string{g.put(n)}
	case op < 18:
		if g.modes[p] == "100755" {
			g.modes[p] = "100644"
		} else {
			g.modes[p] = "100755"
		}
		return []string{g.put(p)}
	default:
		if len(g.files) < 20 {
			return []string{g.put(p)}
		}
		delete(g.files, p)
		delete(g.modes, p)
		return []string{"D " + p + "\n"}
	}
}
