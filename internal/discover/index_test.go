package discover

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/fifotest"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

func (s *scenario) findIndexed(t *testing.T, id string, useIndex bool) *Commits {
	t.Helper()
	repo, err := gitext.Discover(s.r.Dir, s.r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := ticket.Parse("github", id)
	res, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, UseIndex: useIndex})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	return res
}

// The index must never change an answer: cold, first (building), warm, incremental and rebuilt runs agree.
func TestIndexAgreesWithColdWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	s := newScenario(t)
	repo, _ := gitext.Discover(s.r.Dir, s.r.Getenv)
	check := func(stage string) {
		t.Helper()
		for _, id := range []string{"ENG-42", "ENG-420", "ENG-7", "eng-42", "ENG-99"} {
			cold := s.findIndexed(t, id, false)
			warm := s.findIndexed(t, id, true)
			if !reflect.DeepEqual(cold.Details, warm.Details) {
				t.Errorf("%s %s: indexed\n%v\ncold\n%v", stage, id, s.labels(warm), s.labels(cold))
			}
		}
	}
	check("first")
	if _, err := os.Stat(IndexPath(repo)); err != nil {
		t.Fatalf("no index written: %v", err)
	}
	check("warm")

	// New commits on main and a new branch: read after the index's own until enough are new (rewriteDue), so
	// the file is left as it was, and read again by the next run.
	s.r.Commit("More work\n\nRefs: ENG-42", map[string]string{"more": "1\n"})
	s.r.Git("checkout", "-q", "-b", "feature/ENG-99-new")
	s.r.Commit("Start ENG-99", map[string]string{"n99": "1\n"})
	s.r.Git("checkout", "-q", "main")
	before, _ := os.ReadFile(IndexPath(repo))
	check("incremental")
	check("incremental, again")
	after, _ := os.ReadFile(IndexPath(repo))
	if string(before) != string(after) {
		t.Error("index rewritten for two new commits")
	}

	// History rewritten: the new branch is dropped and main reset; the index must not keep them.
	s.r.Git("branch", "-q", "-D", "feature/ENG-99-new")
	s.r.Git("reset", "-q", "--hard", "HEAD~1")
	check("rewritten")
	if got := s.findIndexed(t, "ENG-99", true); len(got.Commits) != 0 {
		t.Errorf("dropped commits still found: %v", s.labels(got))
	}

	// A corrupt index is rebuilt, not trusted.
	data, _ := os.ReadFile(IndexPath(repo))
	data[len(data)/2] ^= 0xff
	os.WriteFile(IndexPath(repo), data, 0o644)
	check("corrupt")
	os.WriteFile(IndexPath(repo), []byte("garbage"), 0o644)
	check("garbage")
}

func TestIndexConcurrentWriters(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	want := s.findIndexed(t, "ENG-42", false)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			repo, err := gitext.Discover(s.r.Dir, s.r.Getenv)
			if err != nil {
				errs <- err.Error()
				return
			}
			tk, _ := ticket.Parse("github", "ENG-42")
			res, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, UseIndex: true})
			if err != nil {
				errs <- err.Error()
				return
			}
			if !reflect.DeepEqual(res.Commits, want.Commits) {
				errs <- "different answer"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if got := s.findIndexed(t, "ENG-42", true); !reflect.DeepEqual(got.Commits, want.Commits) {
		t.Error("index left by concurrent writers gives another answer")
	}
}

func TestIndexWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		// Words mixing letters or '_' with digits are not kept.
		{"Fix ENG-42: see #123, ABC123, 7_8 and ÉX9 in feature/eng-42-login, ١٢٣; no digits here",
			[]string{"42", "eng-42", "123", "42", "eng-42", "١٢٣"}},
		// A pair is a word without digits, one '-', a word of digits; in a chain, each such two.
		{"FOO-LAND-7-x A-B-9 2023-11-14 go-1.19 v2-3 x_-4", []string{"7", "land-7", "9", "b-9", "2023", "11", "14", "1", "go-1", "19", "3", "4", "x_-4"}},
		{"ENG--42 -42 ENG-42x", []string{"42", "42"}},
		// Folded so that what strings.EqualFold equates is one word: the Kelvin sign is K, 'ſ' is s.
		{"\u212aNG-42 ſtory-9 STORY-9 Éx-9", []string{"42", "kng-42", "9", "story-9", "9", "story-9", "9", "éx-9"}},
		// Pairs longer than maxIndexWord are left out.
		{strings.Repeat("a", 29) + "-12 " + strings.Repeat("b", 31) + "-1", []string{"12", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa-12", "1"}},
	} {
		var got []string
		IndexWords(c.text, func(w string) { got = append(got, w) })
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("IndexWords(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// Every word the index looks a ticket up by must be a word of every text that names the ticket, or the index
// would hide a commit.
func TestTicketWordsInEveryNamingText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, text string }{
		{"LAND-7", "Fix landing\n\nRefs: LAND-7"},
		{"LAND-7", "Merge branch 'feature/land-7-login'"},
		{"LAND-7", "FOO-LAND-7, and more"},
		{"land-7", "(LAND-7)"},
		{"FOO-LAND-7", "see foo-land-7."},
		{"KNG-42", "\u212aNG-42"},
		{"ÉX-9", "éx-9 done"},
		{"ENG_X-12", "Refs: eng_x-12"},
		{"#123", "Fixes #123"},
	} {
		tk, err := ticket.Parse("jira", c.id)
		if err != nil {
			t.Fatal(err)
		}
		if !tk.NamedIn(c.text) {
			t.Fatalf("%q does not name %s: fix the case", c.text, c.id)
		}
		have := map[string]bool{}
		IndexWords(c.text, func(w string) { have[w] = true })
		words := ticketWords(c.id)
		if len(words) == 0 {
			t.Errorf("%s: no index words", c.id)
		}
		for _, w := range words {
			if !have[w] {
				t.Errorf("%s: word %q is not among the words of %q (%v)", c.id, w, c.text, have)
			}
		}
	}
}

// A ticket whose number is common ("7": versions, counts) is looked up by its pair word too, so a warm query
// reads the commits that name it, not every message with a 7; and the answer stays the cold walk's.
func TestIndexPairWordNarrows(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Bump to 1.7", map[string]string{"a": "1\n"})
	r.Commit("Fix 7 bugs", map[string]string{"a": "2\n"})
	named := r.Commit("Fix landing\n\nRefs: LAND-7", map[string]string{"a": "3\n"})
	r.Commit("Start LAND-70 and xland-7", map[string]string{"a": "4\n"})
	s := &scenario{r: r, sha: map[string]string{"named": named}}
	cold := s.findIndexed(t, "LAND-7", false)
	first := s.findIndexed(t, "LAND-7", true)
	warm := s.findIndexed(t, "LAND-7", true)
	if !reflect.DeepEqual(cold.Commits, []string{named}) || !reflect.DeepEqual(first.Details, cold.Details) ||
		!reflect.DeepEqual(warm.Details, cold.Details) {
		t.Fatalf("cold %v, first %v, warm %v", cold.Commits, first.Commits, warm.Commits)
	}
	repo, _ := gitext.Discover(r.Dir, r.Getenv)
	ix, err := loadIndex(repo)
	if err != nil || ix == nil {
		t.Fatalf("no index: %v", err)
	}
	lists, ok := ix.postings(ticketWords("LAND-7")...)
	if !ok {
		t.Fatal("postings corrupt")
	}
	cand := lists[0]
	for _, list := range lists[1:] {
		cand = intersectSorted(cand, list)
	}
	if len(cand) != 1 || ix.g.Node(cand[0]).Hash.String() != named {
		t.Errorf("the index names %v for LAND-7, want only %s", cand, named)
	}
}

// An id with no word of digits only has nothing to look up in the index: it is answered by a full walk, before
// and after the index exists.
func TestIndexMixedWordTicket(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Fix SEC2X: token leak", nil)
	r.Commit("Refs ENG-42", nil)
	r.Commit("Mention sec2x again, and SEC2XY", nil)
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ENG-42", "SEC2X", "SEC2X"} { // the first run writes the index
		tk, _ := ticket.Parse("jira", id)
		res, err := Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, UseIndex: true})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"ENG-42": 1, "SEC2X": 2}[id]
		if len(res.Commits) != want {
			t.Errorf("%s: %d commits, want %d", id, len(res.Commits), want)
		}
	}
	if _, err := os.Stat(IndexPath(repo)); err != nil {
		t.Fatalf("no index written: %v", err)
	}
}

func TestExclusiveMatchesReachable(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	repo, _ := gitext.Discover(s.r.Dir, s.r.Getenv)
	tips, _ := repo.HistoryTips()
	g, err := repo.Walk(tips, nil)
	if err != nil {
		t.Fatal(err)
	}
	for a := range g.Len() {
		for b := range g.Len() {
			want := map[int]bool{}
			stop := g.Reachable([]int{b}, nil)
			for i, in := range g.Reachable([]int{a}, stop) {
				if in {
					want[i] = true
				}
			}
			got := map[int]bool{}
			for _, i := range g.Exclusive([]int{a}, []int{b}) {
				got[i] = true
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Exclusive(%d, %d) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// FuzzDecodeIndex: the index file is read from disk and may be anything (a crash mid-write on an old file
// system, another tool's file); decoding must never panic, and what it accepts must be self-consistent.
func FuzzDecodeIndex(f *testing.F) {
	g := graphOf([]gitext.Node{{Hash: gitext.NewHash("1111111111111111111111111111111111111111")},
		{Hash: gitext.NewHash("2222222222222222222222222222222222222222"), Parents: []int{0}, When: 5}})
	good := encodeIndex(g, []gitext.Hash{g.Node(1).Hash}, postingsOf(map[string][]uint32{"42": {1}, "7": {0, 1}}))
	f.Add(good)
	f.Add([]byte(indexMagic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Also with a valid checksum over whatever follows the magic, so the decoder itself is exercised.
		body := append([]byte(indexMagic), data...)
		for _, in := range [][]byte{data, append(body, indexSum(body)...)} {
			checkDecoded(t, in)
		}
	})
}

func checkDecoded(t *testing.T, data []byte) {
	{
		ix, err := decodeIndex(data)
		if err != nil {
			return
		}
		for i := range ix.g.Len() {
			for _, p := range ix.g.Node(i).Parents {
				if p < 0 || p >= i {
					t.Fatalf("node %d has parent %d", i, p)
				}
			}
		}
		if lists, ok := ix.postings("42", "7", "x"); ok {
			for _, list := range lists {
				for _, n := range list {
					if n < 0 || n >= ix.g.Len() {
						t.Fatalf("posting %d out of range", n)
					}
				}
			}
		}
		ix.allPostings()
		for _, h := range ix.tips {
			ix.g.Index(h)
		}
	}
}

func TestPostings(t *testing.T) {
	t.Parallel()
	g := graphOf([]gitext.Node{{Hash: gitext.NewHash("1111111111111111111111111111111111111111")},
		{Hash: gitext.NewHash("2222222222222222222222222222222222222222"), Parents: []int{0}, When: 5}})
	ix, err := decodeIndex(encodeIndex(g, nil, postingsOf(map[string][]uint32{"42": {1}, "7": {0, 1}, "eng-42": {1}})))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		words []string
		want  [][]int
	}{
		{[]string{"42"}, [][]int{{1}}},
		{[]string{"7", "42"}, [][]int{{0, 1}, {1}}},
		{[]string{"42", "eng-42", "42"}, [][]int{{1}, {1}, {1}}},
		{[]string{"nope", "7", "zzz"}, [][]int{nil, {0, 1}, nil}},
	} {
		got, ok := ix.postings(c.words...)
		if !ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("postings(%q) = %v, %v; want %v", c.words, got, ok, c.want)
		}
	}
	// A word section out of order is corrupt where it is read. (A file with a valid checksum that lists a word
	// after a larger one is not caught past the point the scan stops; it could as well leave a commit out of a
	// posting list: the checksum is for torn and damaged files, not forged ones.)
	var b []byte
	for _, w := range []string{"7", "42", "9"} {
		b = append(b, byte(len(w)))
		b = append(b, w...)
		b = append(b, 1, 1, 0)
	}
	ix.words = append([]byte{3}, b...)
	if _, ok := ix.postings("9"); ok {
		t.Error("an unsorted word section was accepted")
	}
}

// The index is a cache of ours under .git: a symlink or a FIFO in its place is refused with an error that names
// the file and says what to do, before anything is read from it (a FIFO must not hang the command).
func TestIndexNotARegularFile(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"symlink", "fifo"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			r := gittest.New(t)
			r.Commit("Refs ENG-42", nil)
			repo, err := gitext.Discover(r.Dir, r.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			path := IndexPath(repo)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			switch kind {
			case "symlink":
				target := filepath.Join(t.TempDir(), "elsewhere")
				if err := os.WriteFile(target, []byte(indexMagic), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
			case "fifo":
				if err := fifotest.Make(path, 0o644); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			}
			tk, _ := ticket.Parse("jira", "ENG-42")
			_, err = Find(repo, Options{Ticket: tk, Sources: AllSources, TrailerKeys: DefaultTrailerKeys, UseIndex: true})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "delete it to rebuild") {
				t.Fatalf("error %v, want one naming %s and saying to delete it", err, path)
			}
		})
	}
}

// postingsOf builds postings from a map of word to node numbers.
func postingsOf(m map[string][]uint32) *postingLists {
	p := newPostingLists()
	for w, nodes := range m {
		for _, n := range nodes {
			p.add(w, n)
		}
	}
	return p
}

// Any damaged byte or cut is caught by the checksum: the file is rebuilt, never decoded as if it were right.
func TestIndexDamageCaught(t *testing.T) {
	t.Parallel()
	g := graphOf([]gitext.Node{{Hash: gitext.NewHash("1111111111111111111111111111111111111111")},
		{Hash: gitext.NewHash("2222222222222222222222222222222222222222"), Parents: []int{0}, When: 5}})
	good := encodeIndex(g, []gitext.Hash{g.Node(1).Hash}, postingsOf(map[string][]uint32{"42": {1}, "eng-42": {1}, "7": {0, 1}}))
	if _, err := decodeIndex(good); err != nil {
		t.Fatalf("a whole index does not decode: %v", err)
	}
	for i := range good {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(good)
			bad[i] ^= flip
			if _, err := decodeIndex(bad); err != errBadIndex {
				t.Fatalf("byte %d ^ %#x: %v, want errBadIndex", i, flip, err)
			}
		}
	}
	for n := range good {
		if _, err := decodeIndex(good[:n]); err != errBadIndex {
			t.Fatalf("cut at %d: %v, want errBadIndex", n, err)
		}
	}
}

func TestRewriteDue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		added, nodes int
		want         bool
	}{
		{0, 1000, true},       // tips moved, nothing to read: write
		{2, 1000, false},      // a merge's few commits are read again instead
		{256, 1000, false},    // up to 256 whatever the size
		{257, 1000, true},     // then written
		{2000, 200000, false}, // 1% of a large history is read again
		{2001, 200000, true},  // past it, written
		{257, 20000, true},    // past 256 and past 1%
		{1, 200000000, false}, // never for one commit
	} {
		if got := rewriteDue(c.added, c.nodes); got != c.want {
			t.Errorf("rewriteDue(%d, %d) = %v, want %v", c.added, c.nodes, got, c.want)
		}
	}
}

// splitSorted leaves every key of the first part before every key of the second, about half in each.
func TestSplitSorted(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		var words []string
		for i := range n {
			words = append(words, strconv.Itoa(i*7919%100003))
		}
		mid := splitSorted(words, func(w string) string { return w })
		if n >= 100 && (mid < n/4 || mid > 3*n/4) {
			t.Errorf("n=%d: split at %d", n, mid)
		}
		if mid > 0 && mid < n && slices.Max(words[:mid]) >= slices.Min(words[mid:]) {
			t.Fatalf("n=%d: the parts overlap", n)
		}
	}
}
