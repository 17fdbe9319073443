package patch

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestAmReproducesSeries is the series half of the contract: `git am` of the whole file on the first commit's
// parent ends at the last commit's tree, and every commit keeps its author, date and subject.
func TestAmReproducesSeries(t *testing.T) {
	t.Parallel()
	needGit(t)
	r := gittest.New(t)
	base := r.Commit("base", map[string]string{"keep.txt": numbered(40, plainLine), "old.bin": "\x00old", "run.sh": "echo\n"})
	var shas []string
	shas = append(shas, commitAs(t, r, "Zoë Ünïcode <zoe@example.com>", "2026-03-04T05:06:07+05:30",
		strings.Repeat("Ünïcödé sübject ", 8)+"\n\nBody.\n"))
	r.Write("new.bin", randomBytes(3, 3000)+"\x00")
	symlink(r, "keep.txt", "link")
	r.Git("add", "-A")
	shas = append(shas, commitStaged(r, "Add binary and a symlink"))
	r.Write("moved/keep.txt", numbered(40, plainLine))
	remove(r, "keep.txt")
	chmod(r, "run.sh", 0o755)
	r.Write("caf\xe9 \"x\".txt", "caf\xe9\n")
	r.Git("add", "-A")
	shas = append(shas, commitStaged(r, "Rename, chmod and a Latin-1 name with a long subject that git folds over two lines"))
	r.Git("commit", "-q", "--allow-empty", "-m", "Nothing changes here")
	shas = append(shas, r.Rev("HEAD")) // no part: git am cannot take an empty patch
	r.Write("moved/keep.txt", strings.Replace(numbered(40, plainLine), "line 5", "LINE 5", 1)+"tail without newline")
	r.Write("new.bin", randomBytes(4, 3000)+"\x00")
	remove(r, "old.bin")
	r.Git("add", "-A")
	r.Git("update-index", "--add", "--cacheinfo", "160000,"+base+",vendor/sub")
	shas = append(shas, commitAs(t, r, `Doe, John <jd@example.com>`, "", "Edit =?x?= text, binary and add a gitlink\n"))

	out := series(t, r, shas...)
	if n := bytes.Count(out, []byte("\nFrom: ")); n != 4 {
		t.Fatalf("want 4 parts (the empty commit skipped), got %d:\n%s", n, out)
	}
	for _, want := range []string{"Subject: [PATCH 4/4] ", "rename from keep.txt\nrename to moved/keep.txt\n",
		"new file mode 120000", "old mode 100644\nnew mode 100755\n", "GIT binary patch\nliteral ",
		"deleted file mode", "+Subproject commit " + base, "\\ No newline at end of file\n", `"b/caf\351 \"x\".txt"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("series lacks %q", want)
		}
	}

	wt := r.Open(filepath.Join(t.TempDir(), "wt"))
	r.Git("worktree", "add", "-q", "-b", "replay", wt.Dir, base)
	if _, err := wt.GitErr("am", "-q", writePatch(t, out)); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	last := shas[len(shas)-1]
	if got, want := wt.Rev("HEAD^{tree}"), r.Rev(last+"^{tree}"); got != want {
		t.Fatalf("tree after git am = %s, want %s", got, want)
	}
	format := "--format=%an%n%ae%n%ad%n%s"
	want := r.Git("log", "--date=raw", format, "--no-walk=unsorted", shas[4], shas[2], shas[1], shas[0])
	if got := wt.Git("log", "--date=raw", format, base+"..HEAD"); got != want {
		t.Errorf("authors, dates or subjects changed through git am:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestRandomEditsApply throws many scattered edits (near and far apart, at both ends, with and without a
// final newline) at the hunk builder and lets git apply judge.
func TestRandomEditsApply(t *testing.T) {
	t.Parallel()
	needGit(t)
	r := gittest.New(t)
	rng := rand.New(rand.NewSource(42))
	files := map[string]string{}
	for i := 0; i < 12; i++ {
		files[fmt.Sprintf("f%02d.txt", i)] = randomText(rng, 30+rng.Intn(200))
	}
	r.Commit("base", files)
	for i := range 12 {
		name := fmt.Sprintf("f%02d.txt", i)
		r.Write(name, mutate(rng, files[name]))
	}
	commit := r.Commit("random edits", nil)
	out := series(t, r, commit)
	wt := checkoutParent(t, r, commit)
	if _, err := wt.GitErr("apply", "--index", writePatch(t, out)); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, want := wt.Git("write-tree"), r.Rev(commit+"^{tree}"); got != want {
		t.Fatalf("tree after apply = %s, want %s", got, want)
	}
}

func randomText(rng *rand.Rand, lines int) string {
	words := []string{"alpha", "beta", "func x() {", "}", "", "\treturn", "  indented", "same", "same", "same"}
	var b strings.Builder
	for range lines {
		b.WriteString(words[rng.Intn(len(words))])
		b.WriteByte('\n')
	}
	s := b.String()
	if rng.Intn(3) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

func mutate(rng *rand.Rand, s string) string {
	lines := strings.SplitAfter(s, "\n")
	for range 1 + rng.Intn(8) {
		i := rng.Intn(len(lines))
		switch rng.Intn(3) {
		case 0:
			lines = append(lines[:i], lines[i+1:]...)
		case 1:
			lines = append(lines[:i], append([]string{"inserted\n"}, lines[i:]...)...)
		default:
			lines[i] = "changed " + lines[i]
		}
		if len(lines) == 0 {
			lines = []string{"x"}
		}
	}
	out := strings.Join(lines, "")
	if rng.Intn(3) == 0 {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}

func TestMergeCommitIsAnError(t *testing.T) {
	t.Parallel()
	needGit(t)
	r := gittest.New(t)
	r.Commit("base", map[string]string{"a": "a\n"})
	r.Git("switch", "-q", "-c", "side")
	r.Commit("side", map[string]string{"b": "b\n"})
	r.Git("switch", "-q", "main")
	r.Commit("main", map[string]string{"c": "c\n"})
	r.Git("merge", "-q", "--no-edit", "side")
	merge := r.Rev("HEAD")

	repo, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = writeSeries(&out, repo, []plumbing.Hash{plumbing.NewHash(r.Rev("HEAD^")), plumbing.NewHash(merge)})
	if err == nil || !strings.Contains(err.Error(), merge) || !strings.Contains(err.Error(), "merge") {
		t.Fatalf("err = %v, want one naming merge commit %s", err, merge)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %d bytes before failing; want nothing", out.Len())
	}
}

func TestEmptyInputWritesNothing(t *testing.T) {
	t.Parallel()
	needGit(t)
	r := gittest.New(t)
	r.Commit("base", map[string]string{"a": "a\n"})
	if out := series(t, r); len(out) != 0 {
		t.Errorf("no commits gave %q", out)
	}
	r.Git("commit", "-q", "--allow-empty", "-m", "empty")
	if out := series(t, r, r.Rev("HEAD")); len(out) != 0 {
		t.Errorf("an empty commit gave %q", out)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrorIsReturned(t *testing.T) {
	t.Parallel()
	needGit(t)
	r := gittest.New(t)
	c := r.Commit("base", map[string]string{"a": "a\n"})
	repo, err := git.PlainOpen(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	err = writeSeries(failingWriter{}, repo, []plumbing.Hash{plumbing.NewHash(c)})
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), c) {
		t.Fatalf("err = %v, want the write error naming commit %s", err, c)
	}
}

func BenchmarkWriteSeries(b *testing.B) {
	needGit(b)
	r := gittest.New(b)
	rng := rand.New(rand.NewSource(1))
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("src/f%02d.go", i)] = randomText(rng, 2000)
	}
	files["blob.bin"] = randomBytes(5, 1<<20) + "\x00"
	var shas []string
	shas = append(shas, r.Commit("base", files))
	for i := range 5 {
		next := map[string]string{"blob.bin": randomBytes(int64(10+i), 1<<20) + "\x00"}
		for name, text := range files {
			files[name] = mutate(rng, text)
			next[name] = files[name]
		}
		shas = append(shas, r.Commit(fmt.Sprintf("edit %d", i), next))
	}
	repo, err := git.PlainOpen(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	hashes := make([]plumbing.Hash, len(shas))
	for i, s := range shas {
		hashes[i] = plumbing.NewHash(s)
	}
	var size int64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var out countingWriter
		if err := writeSeries(&out, repo, hashes); err != nil {
			b.Fatal(err)
		}
		size = int64(out)
	}
	b.SetBytes(size)
}

type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
