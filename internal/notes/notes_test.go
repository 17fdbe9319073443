package notes

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/gitext/objstore"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

var testSig = gitext.Signature{Name: "Nora Notes", Email: "nora@example.com", When: time.Unix(1767225600, 0).UTC()}

func entry(ticket, bundle string) Entry {
	return Entry{V: 1, Tracker: "github", Ticket: ticket, Bundle: bundle, BundleSHA256: strings.Repeat("a", 64),
		ManifestSHA256: strings.Repeat("b", 64), Commits: 2, Files: 3, CreatedAt: "2026-01-01T00:00:00Z"}
}

func openRepo(t *testing.T, r *gittest.Repo) *gitext.Repo {
	t.Helper()
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func TestEntryLine(t *testing.T) {
	t.Parallel()
	e := entry("ENG-42", "abc1234.tar.gz")
	e.Signed, e.Kid = true, "k1"
	got, err := e.Line()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"bundle":"abc1234.tar.gz","bundle_sha256":"` + strings.Repeat("a", 64) + `","commits":2,` +
		`"created_at":"2026-01-01T00:00:00Z","files":3,"kid":"k1","manifest_sha256":"` + strings.Repeat("b", 64) +
		`","signed":true,"ticket":"ENG-42","tracker":"github","v":1}`
	if got != want {
		t.Fatalf("line\n got %s\nwant %s", got, want)
	}
	back, other := Parse([]byte(got + "\nnot json\n{\"v\":2}\n"))
	if len(back) != 1 || back[0] != e || len(other) != 2 {
		t.Fatalf("Parse: %+v %q", back, other)
	}
}

func TestExpandRef(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]gitext.RefName{
		"": DefaultRef, "bernstein": DefaultRef, "notes/bernstein": DefaultRef,
		"refs/notes/bernstein": DefaultRef, "refs/notes/x/y": "refs/notes/x/y", "team": "refs/notes/team",
	} {
		if got := ExpandRef(in); got != want {
			t.Errorf("ExpandRef(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestMergeLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		old  string
		add  []string
		want string
	}{
		{"", []string{"b", "a"}, "a\nb\n"},
		{"c\na\n", []string{"b", "a"}, "a\nb\nc\n"},
		{"a\n\n\na", nil, "a\n"},
		{"x\n", []string{"x"}, "x\n"},
	}
	for _, c := range cases {
		if got := string(MergeLines([]byte(c.old), c.add, nil)); got != c.want {
			t.Errorf("MergeLines(%q, %q) = %q, want %q", c.old, c.add, got, c.want)
		}
	}
}

// TestNotesReadByGit writes notes with go-git and reads them with git notes show and git log --notes.
func TestNotesReadByGit(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	c1 := r.Commit("first", map[string]string{"a": "1\n"})
	c2 := r.Commit("second", map[string]string{"a": "2\n"})
	repo := openRepo(t, r)
	e1, e2 := entry("ENG-42", "x.tar.gz"), entry("ENG-7", "x.tar.gz")
	for _, step := range []struct {
		target string
		e      Entry
	}{{c2, e1}, {c2, e2}, {c1, e1}, {c2, e1}} {
		if _, err := Add(repo, DefaultRef, gitext.NewHash(step.target), testSig, step.e); err != nil {
			t.Fatal(err)
		}
	}
	l1, _ := e1.Line()
	l2, _ := e2.Line()
	want := []string{l1, l2}
	sort.Strings(want)
	if got := r.Git("notes", "--ref=bernstein", "show", c2); got != strings.Join(want, "\n") {
		t.Fatalf("git notes show:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if got := r.Git("notes", "--ref=bernstein", "show", c1); got != l1 {
		t.Fatalf("git notes show c1: %s", got)
	}
	log := r.Git("log", "--notes=bernstein", "--format=%H%n%N")
	if !strings.Contains(log, c2+"\n"+strings.Join(want, "\n")) || !strings.Contains(log, c1+"\n"+l1) {
		t.Fatalf("git log --notes:\n%s", log)
	}
	// The notes history is a chain: one commit per change (the repeated entry changed nothing).
	if n := r.Git("rev-list", "--count", "refs/notes/bernstein"); n != "3" {
		t.Fatalf("notes commits: %s, want 3", n)
	}
	if r.Git("fsck", "--no-progress") != "" {
		t.Fatal("fsck complained")
	}
	// Reading back with our own reader.
	text, ok, err := objstore.Of(repo).Note(DefaultRef, gitext.NewHash(c2))
	if err != nil || !ok || string(text) != strings.Join(want, "\n")+"\n" {
		t.Fatalf("Note: %q %v %v", text, ok, err)
	}
	if _, ok, _ := objstore.Of(repo).Note(DefaultRef, gitext.NewHash(strings.Repeat("0", 39)+"1")); ok {
		t.Fatal("note for an object without one")
	}
	// After `git pack-refs` the ref lives only in packed-refs: the swap still checks and moves it.
	r.Git("pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "refs", "notes", "bernstein")); err == nil {
		t.Fatal("pack-refs left the loose ref")
	}
	e3 := entry("ENG-3", "y.tar.gz")
	if _, err := Add(repo, DefaultRef, gitext.NewHash(c1), testSig, e3); err != nil {
		t.Fatal(err)
	}
	l3, _ := e3.Line()
	if got := r.Git("notes", "--ref=bernstein", "show", c1); got != l1+"\n"+l3 {
		t.Fatalf("after pack-refs: %s", got)
	}
	if n := r.Git("rev-list", "--count", "refs/notes/bernstein"); n != "4" {
		t.Fatalf("notes commits after pack-refs: %s, want 4", n)
	}
}

// TestNotesFanOut lets git fast-import build a fanned-out notes tree (it fans out past 256 notes), then edits
// it: every other note is kept and git still reads all of them.
func TestNotesFanOut(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	const n = 300
	var stream strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata 4\nc%03d\n", i, 1767225600+i, i)
		if i > 1 {
			fmt.Fprintf(&stream, "from :%d\n", i-1)
		}
		stream.WriteString("\n")
	}
	stream.WriteString("commit refs/notes/bernstein\ncommitter C <c@example.com> 1767300000 +0000\ndata 6\nnotes\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&stream, "N inline :%d\ndata 8\nnote%03d\n", i, i)
	}
	r.FastImport(stream.String())
	if !strings.Contains(r.Git("ls-tree", "refs/notes/bernstein"), "tree") {
		t.Fatal("git did not fan the notes out; the test proves nothing")
	}
	repo := openRepo(t, r)
	notes, err := objstore.Of(repo).Notes(DefaultRef)
	if err != nil || len(notes) != n {
		t.Fatalf("Notes: %d notes, %v", len(notes), err)
	}
	target := r.Rev("main~7")
	if text, ok, err := objstore.Of(repo).Note(DefaultRef, gitext.NewHash(target)); err != nil || !ok || string(text) != "note293\n" {
		t.Fatalf("fanned-out note: %q %v %v", text, ok, err)
	}
	if _, err := Add(repo, DefaultRef, gitext.NewHash(target), testSig, entry("ENG-1", "b.tar.gz")); err != nil {
		t.Fatal(err)
	}
	if got := r.Git("notes", "--ref=bernstein", "list"); len(strings.Split(got, "\n")) != n {
		t.Fatalf("git notes list after the edit has %d lines, want %d", len(strings.Split(got, "\n")), n)
	}
	line, _ := entry("ENG-1", "b.tar.gz").Line()
	// Our edit re-sorts the lines: the old one first ("n" sorts before "{").
	if got := r.Git("notes", "--ref=bernstein", "show", target); got != "note293\n"+line {
		t.Fatalf("edited note:\n%s", got)
	}
	if got := r.Git("notes", "--ref=bernstein", "show", "main~8"); got != "note292" {
		t.Fatalf("neighbour note: %q", got)
	}
	// The edited note stayed at its fan-out depth: no flat copy at the top.
	if strings.Contains(r.Git("ls-tree", "--name-only", "refs/notes/bernstein"), target) {
		t.Fatal("note written flat beside its fan-out folder")
	}
}

// TestNotesHandMadeFanOut: a tree with one note in a fan-out folder, one flat note and a file that is no note.
func TestNotesHandMadeFanOut(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	c1 := r.Commit("one", nil)
	c2 := r.Commit("two", nil)
	c3 := r.Commit("three", nil)
	hashObj := func(s string) string {
		cmd := exec.Command("git", "hash-object", "-w", "--stdin")
		cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, r.Env, strings.NewReader(s)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	mktree := func(entries string) string {
		cmd := exec.Command("git", "mktree")
		cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, r.Env, strings.NewReader(entries)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	sub := mktree(fmt.Sprintf("100644 blob %s\t%s\n", hashObj("fanned\n"), c1[2:]))
	top := mktree(fmt.Sprintf("040000 tree %s\t%s\n100644 blob %s\t%s\n100644 blob %s\tREADME\n",
		sub, c1[:2], hashObj("flat\n"), c2, hashObj("not a note\n")))
	r.Git("update-ref", "refs/notes/bernstein", r.Git("commit-tree", "-m", "notes", top))

	repo := openRepo(t, r)
	for _, c := range []string{c1, c3} {
		if _, err := Add(repo, DefaultRef, gitext.NewHash(c), testSig, entry("ENG-9", "n.tar.gz")); err != nil {
			t.Fatal(err)
		}
	}
	line, _ := entry("ENG-9", "n.tar.gz").Line()
	for c, want := range map[string]string{c1: "fanned\n" + line, c2: "flat", c3: line} {
		if got := r.Git("notes", "--ref=bernstein", "show", c); got != want {
			t.Errorf("note on %s: %q, want %q", c[:7], got, want)
		}
	}
	if got := r.Git("cat-file", "-p", "refs/notes/bernstein:README"); got != "not a note" {
		t.Errorf("README in the notes tree: %q", got)
	}
	if got := r.Git("ls-tree", "-r", "--name-only", "refs/notes/bernstein"); !strings.Contains(got, c1[:2]+"/"+c1[2:]) {
		t.Errorf("c1's note left its fan-out folder:\n%s", got)
	}
	if r.Git("rev-parse", "refs/notes/bernstein^") == "" {
		t.Error("no parent")
	}
}

// TestNotesConcurrentWriters: goroutines, each with its own Repo open, note the same and different commits at
// once; every entry lands.
func TestNotesConcurrentWriters(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	c1 := r.Commit("one", nil)
	c2 := r.Commit("two", nil)
	const writers, each = 6, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			repo, err := gitext.Discover(r.Dir, r.Getenv)
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < each; i++ {
				target := c1
				if i%2 == 1 {
					target = c2
				}
				if _, err := Add(repo, DefaultRef, gitext.NewHash(target), testSig,
					entry(fmt.Sprintf("ENG-%d", w*100+i), "c.tar.gz")); err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	total := len(strings.Split(r.Git("notes", "--ref=bernstein", "show", c1), "\n")) +
		len(strings.Split(r.Git("notes", "--ref=bernstein", "show", c2), "\n"))
	if total != writers*each {
		t.Fatalf("%d entries landed, want %d", total, writers*each)
	}
	if n := r.Git("rev-list", "--count", "refs/notes/bernstein"); n != fmt.Sprint(writers*each) {
		t.Fatalf("%s notes commits, want %d", n, writers*each)
	}
}

// TestNotesTwoProcesses runs this test binary twice at once as note writers (see TestNoteWriterProcess).
func TestNotesTwoProcesses(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	c := r.Commit("one", nil)
	const procs, each = 3, 8
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for p := 0; p < procs; p++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNoteWriterProcess$")
		cmd.Env = append(append([]string{}, r.Env...), "NOTE_WRITER_DIR="+r.Dir, "NOTE_WRITER_TARGET="+c,
			fmt.Sprintf("NOTE_WRITER_PREFIX=P%d", p), fmt.Sprintf("NOTE_WRITER_COUNT=%d", each))
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		outs = append(outs, &out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer process: %v\n%s", err, outs[i])
		}
	}
	if got := len(strings.Split(r.Git("notes", "--ref=bernstein", "show", c), "\n")); got != procs*each {
		t.Fatalf("%d entries landed, want %d", got, procs*each)
	}
}

// TestNoteWriterProcess is the child of TestNotesTwoProcesses; on its own it does nothing.
func TestNoteWriterProcess(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("NOTE_WRITER_DIR")
	if dir == "" {
		t.Skip("helper process for TestNotesTwoProcesses")
	}
	repo, err := gitext.Discover(dir, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	fmt.Sscan(os.Getenv("NOTE_WRITER_COUNT"), &n)
	for i := 0; i < n; i++ {
		e := entry(fmt.Sprintf("%s-%d", os.Getenv("NOTE_WRITER_PREFIX"), i), "p.tar.gz")
		if _, err := Add(repo, DefaultRef, gitext.NewHash(os.Getenv("NOTE_WRITER_TARGET")), testSig, e); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNotesMergeCatSortUniq: two clones note the same commit, one entry in common; git's cat_sort_uniq merge of
// their notes gives exactly what MergeLines gives, and our reader reads the merged note.
func TestNotesMergeCatSortUniq(t *testing.T) {
	t.Parallel()
	common, onlyA, onlyB := entry("ENG-1", "s.tar.gz"), entry("ENG-2", "a.tar.gz"), entry("ENG-3", "b.tar.gz")
	b, c, _ := mergeByGit(t, []Entry{common, onlyA}, []Entry{onlyB, common})
	text, ok, err := objstore.Of(openRepo(t, b)).Note(DefaultRef, gitext.NewHash(c))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if es, other := Parse(text); len(es) != 3 || len(other) != 0 {
		t.Fatalf("parsed %d entries, %q", len(es), other)
	}
	// A merge commit on the notes ref (two parents) is an ordinary notes commit to us: adding still works.
	if _, err := Add(openRepo(t, b), DefaultRef, gitext.NewHash(c), testSig, entry("ENG-4", "d.tar.gz")); err != nil {
		t.Fatal(err)
	}
	if got := len(strings.Split(b.Git("notes", "--ref=bernstein", "show", c), "\n")); got != 4 {
		t.Fatalf("%d lines after adding to the merged note", got)
	}
}

// mergeByGit notes aEntries on a commit in one clone and bEntries on it in another, fetches the first clone's
// notes into the second and merges them with git's cat_sort_uniq strategy. The merged note must be the sorted
// lines of both, each once; it returns the second clone, the commit and those lines.
func mergeByGit(t *testing.T, aEntries, bEntries []Entry) (*gittest.Repo, string, []string) {
	t.Helper()
	origin := gittest.New(t)
	c := origin.Commit("shared", map[string]string{"a": "1\n"})
	clone := func(name string) *gittest.Repo {
		dir := filepath.Join(filepath.Dir(origin.Dir), name)
		origin.Git("clone", "-q", origin.Dir, dir)
		return origin.Open(dir)
	}
	a, b := clone("a"), clone("b")
	if _, err := Add(openRepo(t, a), DefaultRef, gitext.NewHash(c), testSig, aEntries...); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(openRepo(t, b), DefaultRef, gitext.NewHash(c), testSig, bEntries...); err != nil {
		t.Fatal(err)
	}
	b.Git("fetch", "-q", a.Dir, "refs/notes/bernstein:refs/notes/remotes/a/bernstein")
	b.Git("notes", "--ref=bernstein", "merge", "-q", "-s", "cat_sort_uniq", "refs/notes/remotes/a/bernstein")
	seen := map[string]bool{}
	var want []string
	for _, e := range append(append([]Entry{}, aEntries...), bEntries...) {
		if l, _ := e.Line(); !seen[l] {
			seen[l] = true
			want = append(want, l)
		}
	}
	sort.Strings(want)
	if got := b.Git("notes", "--ref=bernstein", "show", c); got != strings.Join(want, "\n") {
		t.Fatalf("merged note:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	return b, c, want
}

// A note line is read once, with exact names: a line that a case-insensitive reader would read as another
// entry ("BUNDLE_SHA256" beside or instead of "bundle_sha256"), or with data after the object, is kept as
// another line and never interpreted.
func TestParseRefusesCaseTwinsAndTrailingData(t *testing.T) {
	t.Parallel()
	good := `{"bundle":"ENG-42.tar.gz","bundle_sha256":"aa","commits":1,"created_at":"2026-01-01T00:00:00Z","files":2,"kid":"","manifest_sha256":"bb","signed":false,"ticket":"ENG-42","tracker":"jira","v":1}`
	bad := []string{
		strings.Replace(good, `"bundle_sha256":"aa"`, `"bundle_sha256":"aa","BUNDLE_SHA256":"cc"`, 1),
		strings.Replace(good, `"bundle_sha256"`, `"Bundle_SHA256"`, 1),
		strings.Replace(good, `"ticket":"ENG-42"`, `"ticket":"ENG-42","ticket":"ENG-7"`, 1),
		good + ` {"v":1}`,
	}
	entries, other := Parse([]byte(good + "\n" + strings.Join(bad, "\n") + "\n"))
	if len(entries) != 1 || entries[0].BundleSHA256 != "aa" {
		t.Errorf("entries %+v, want the good line alone", entries)
	}
	if len(other) != len(bad) {
		t.Errorf("other lines %q, want the %d bad ones", other, len(bad))
	}
}
