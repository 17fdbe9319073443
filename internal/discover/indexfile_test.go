package discover

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
)

// bigIndex is the index file of a linear history of n commits, each with a few words: megabytes, as a real
// repository's is.
func bigIndex(n int) []byte {
	nodes := make([]gitext.Node, n)
	words := map[string][]uint32{}
	for i := range nodes {
		sum := sha256.Sum256(fmt.Appendf(nil, "commit %d", i))
		nodes[i].Hash = gitext.NewHash(fmt.Sprintf("%x", sum[:20]))
		nodes[i].When = int64(1700000000 + i)
		if i > 0 {
			nodes[i].Parents = []int{i - 1}
		}
		w := fmt.Sprintf("eng-%d", i%977)
		words[w] = append(words[w], uint32(i))
	}
	return encodeIndex(graphOf(nodes), []gitext.Hash{nodes[n-1].Hash}, postingsOf(words))
}

// A ticket index truncated in place while a command reads it (another tool, a full disk, a user's `: >`) must
// never crash the command: the read sees a short or changed file, which the checksum refuses and the command
// rebuilds. A mapping of the file would take SIGBUS on the pages past the new end, which no recover catches; so
// the racing reads run in a child process, and the test fails if it dies.
func TestIndexTruncatedWhileReadNeverCrashes(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	if os.Getenv("BERNSTEIN_TEST_INDEX_RACE") != "" {
		indexTruncationRace(t, os.Getenv("BERNSTEIN_TEST_INDEX_RACE"))
		return
	}
	t.Parallel()
	dir := t.TempDir()
	repo := &gitext.Repo{CommonDir: dir}
	data := bigIndex(120000)
	if err := os.MkdirAll(filepath.Dir(IndexPath(repo)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(IndexPath(repo), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if ix, err := loadIndex(repo); err != nil || ix == nil {
		t.Fatalf("the whole index does not load: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestIndexTruncatedWhileReadNeverCrashes$", "-test.v")
	cmd.Env = append(os.Environ(), "BERNSTEIN_TEST_INDEX_RACE="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reading an index truncated meanwhile crashed the reader (%v):\n%.3000s", err, out)
	}
}

// indexTruncationRace reads the index over and over for a while as another goroutine cuts it to a few bytes and
// writes it back, in place.
func indexTruncationRace(t *testing.T, dir string) {
	repo := &gitext.Repo{CommonDir: dir}
	path := IndexPath(repo)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			panic(err)
		}
		defer f.Close()
		for {
			select {
			case <-stop:
				return
			default:
			}
			f.Truncate(int64(len(indexMagic)))
			f.WriteAt(data, 0)
		}
	}()
	reads, whole := 0, 0
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); reads++ {
		ix, err := loadIndex(repo)
		if err != nil {
			t.Errorf("read %d: %v", reads, err)
			break
		}
		if ix != nil {
			whole++
		}
	}
	close(stop)
	<-done
	t.Logf("%d reads, %d of them a whole index", reads, whole)
}

// graphOf is the graph of nodes given in topological order (each node's parents before it), as a loaded index's
// graph is: node i has rank i.
func graphOf(nodes []gitext.Node) *gitext.Graph {
	byHash := make([]uint32, len(nodes))
	for i := range byHash {
		byHash[i] = uint32(i)
	}
	slices.SortFunc(byHash, func(a, b uint32) int { return bytes.Compare(nodes[a].Hash[:], nodes[b].Hash[:]) })
	g, ok := gitext.NewGraph(nodes, byHash)
	if !ok {
		panic("graphOf: nodes not in topological order")
	}
	return g
}
