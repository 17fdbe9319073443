package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// monoEnv asks make bench for the monorepo row: the number of commits to generate (issue 26 asks for 1000000).
// Unset, the row is skipped with a message, since generating it takes minutes and gigabytes.
const monoEnv = "BERNSTEIN_BENCH_MONOREPO"

// monoTicket is the ticket the monorepo row looks up: named by monoTicketCommits commits spread over all of
// history, as a long-lived ticket is; its number is one no other message uses.
const (
	monoTicket        = "MONO-7654321"
	monoTicketCommits = 60
)

// The shape of Apache Kafka's tree at 1eb7644349cb (6,519 files in 1,541 folders, 10.8 KB a file on average),
// which the monorepo's tree copies: its files' sizes, as the quantiles at kafkaSizePercents of the distribution
// (finer in the long tail, where a few large files hold much of the bytes), and how many files sit at each
// depth (path components, the file's name included).
var (
	kafkaSizePercents  = []float64{0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 97.5, 99, 99.5, 99.9, 100}
	kafkaSizeQuantiles = []int{0, 1014, 1212, 1447, 1719, 2005, 2288, 2629, 3001, 3431, 3911, 4509, 5239, 6192, 7504, 9223,
		11775, 15855, 22775, 40352, 69964, 115528, 170712, 313555, 729588}
	kafkaFilesAtDepth = []int{0, 18, 164, 158, 84, 156, 39, 434, 344, 571, 2019, 1872, 495, 151, 14}
)

const kafkaFolders = 1541

// monoFile is one file of the generated tree and its current content.
type monoFile struct {
	path    string
	content []byte
}

// monoChunk is how many commits one git fast-import run writes. fast-import stores a blob as a delta against
// the blob before it in the stream (another file), so its pack holds about 32 KB a commit: a million commits in
// one run would need 32 GB of disk before the repack. Past monoChunk commits each run's pack is deltified on its
// own and replaced, so the disk holds one run's pack at a time.
const monoChunk = 100_000

// genMono writes a repository of commits commits at dir with git fast-import: a first commit of Kafka's tree
// shape with text files of Kafka's sizes, then commits that each edit one to three files (one line of each
// rewritten, so blobs and the trees above them change as a real change does), with Jira-style subjects and
// bodies, and a tag every 5,000 commits. Then `git repack -ad` orders the pack as a clone's (commits first), and
// no commit-graph is left, as in a fresh clone.
func genMono(dir string, commits int, seed int64) error {
	return genMonoChunked(dir, commits, seed, monoChunk)
}

// genMonoChunked is genMono importing chunk commits per fast-import run; the history is the same whatever the
// chunk, commit for commit.
func genMonoChunked(dir string, commits int, seed int64, chunk int) error {
	g := newMonoGen(commits, seed)
	if err := fastImportBare(dir, g.writer(0, min(commits, chunk))); err != nil {
		return err
	}
	if commits <= chunk {
		// -f: fast-import's deltas are against another file's blob; reusing them tripled the pack (650 MiB
		// for 20,000 commits).
		step("monorepo: %d commits imported; repacking it as a clone is packed (git repack -adf)", commits)
		return finishMono(dir, "-adfq")
	}
	tip := ""
	deltified := map[string]bool{} // the packs deltifyChunk made, which later chunks keep
	for from := 0; from < commits; from += chunk {
		to := min(commits, from+chunk)
		if from > 0 {
			if err := fastImportInto(dir, g.writer(from, to)); err != nil {
				return err
			}
		}
		made, err := deltifyChunk(dir, tip, deltified)
		if err != nil {
			return err
		}
		deltified[made] = true
		step("monorepo: %d of %d commits imported and deltified", to, commits)
		out, err := exec.Command("git", "-C", dir, "rev-parse", "refs/heads/main").Output()
		if err != nil {
			return fmt.Errorf("git rev-parse main in %s: %w", dir, err)
		}
		tip = strings.TrimSpace(string(out))
	}
	// The chunks' deltas are reused: they are against each file's last version, as -f would choose.
	step("monorepo: repacking %d chunks into one pack as a clone is packed (git repack -ad)", (commits+chunk-1)/chunk)
	return finishMono(dir, "-adq")
}

// deltifyChunk replaces the pack fast-import just wrote with one git pack-objects computes deltas for, holding
// the objects of the commits after prevTip ("" for the first chunk), named by their paths as a repack names
// them; keep lists the packs earlier chunks made. It returns the new pack's path.
func deltifyChunk(dir, prevTip string, keep map[string]bool) (string, error) {
	packs, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if err != nil {
		return "", err
	}
	revs := "refs/heads/main\n"
	if prevTip != "" {
		revs += "^" + prevTip + "\n"
	}
	cmd := exec.Command("git", "pack-objects", "--revs", "-q", "--no-reuse-delta", ".git/objects/pack/pack")
	cmd.Dir = dir
	cmd.Env = benchGitEnv()
	cmd.Stdin = strings.NewReader(revs)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git pack-objects --revs in %s: %w", dir, err)
	}
	made := filepath.Join(dir, ".git", "objects", "pack", "pack-"+strings.TrimSpace(string(out))+".pack")
	for _, p := range packs {
		if keep[p] || p == made {
			continue
		}
		base := strings.TrimSuffix(p, ".pack")
		for _, ext := range []string{".pack", ".idx", ".rev", ".keep"} {
			if err := os.Remove(base + ext); err != nil && !os.IsNotExist(err) {
				return "", err
			}
		}
	}
	return made, nil
}

// finishMono repacks dir with repackFlags and leaves no commit-graph, as a fresh clone has none.
func finishMono(dir, repackFlags string) error {
	if err := runIn(dir, "git", "repack", repackFlags); err != nil {
		return err
	}
	os.RemoveAll(filepath.Join(dir, ".git", "objects", "info", "commit-graph"))
	os.RemoveAll(filepath.Join(dir, ".git", "objects", "info", "commit-graphs"))
	return nil
}

// monoGen is the generator's state between fast-import runs: the random source, the files' current contents
// and the clock, so that chunks continue one history.
type monoGen struct {
	rng     *rand.Rand
	pool    []string
	files   []monoFile
	commits int
	t       int64
}

func newMonoGen(commits int, seed int64) *monoGen {
	rng := rand.New(rand.NewSource(seed))
	pool := monoLines()
	files := monoTree(rng, pool)
	return &monoGen{rng: rng, pool: pool, files: files, commits: commits,
		t: int64(benchEpoch - int64(commits)*600)}
}

// writer writes commits from..to-1 (0 is the initial import) as a fast-import stream; a run after the first
// continues refs/heads/main. Marks are commit numbers, so the tags name the same commits in any chunking.
func (g *monoGen) writer(from, to int) func(w *bufio.Writer) error {
	return func(w *bufio.Writer) error {
		commit := func(n int, msg string, edited []*monoFile) {
			mark := n + 1
			g.t += 600
			fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\n", mark)
			fmt.Fprintf(w, "author Dev %d <dev%d@example.com> %d +0000\n", mark%997, mark%997, g.t)
			fmt.Fprintf(w, "committer Dev %d <dev%d@example.com> %d +0000\n", mark%991, mark%991, g.t)
			fmt.Fprintf(w, "data %d\n%s\n", len(msg), msg)
			if n == from && from > 0 {
				w.WriteString("from refs/heads/main^0\n")
			}
			for _, f := range edited {
				fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n", f.path, len(f.content))
				w.Write(f.content)
				w.WriteString("\n")
			}
			if mark%5000 == 0 {
				fmt.Fprintf(w, "reset refs/tags/v%d.%d\nfrom :%d\n\n", mark/50000, mark/5000%10, mark)
			}
		}
		every := max(1, g.commits/monoTicketCommits)
		for n := from; n < to; n++ {
			if n == 0 {
				all := make([]*monoFile, len(g.files))
				for i := range g.files {
					all[i] = &g.files[i]
				}
				commit(0, "Initial import", all)
				continue
			}
			k := 1
			if r := g.rng.Intn(100); r >= 85 {
				k = 3
			} else if r >= 60 {
				k = 2
			}
			edited := make([]*monoFile, 0, k)
			for range k {
				f := &g.files[g.rng.Intn(len(g.files))]
				editLine(g.rng, g.pool, f)
				edited = append(edited, f)
			}
			commit(n, monoMessage(g.rng, n, g.commits, n%every == every/2), edited)
		}
		_, err := fmt.Fprintf(w, "done\n")
		return err
	}
}

// monoTree makes Kafka's tree shape: kafkaFolders folders, each under a random folder one level up, and each
// depth's files in random folders of the depth above, with sizes drawn from Kafka's distribution.
func monoTree(rng *rand.Rand, pool []string) []monoFile {
	byDepth := make([][]string, len(kafkaFilesAtDepth)) // folders by depth; the root is depth 0
	byDepth[0] = []string{""}
	// Enough folders at every depth that holds files' parents, the rest spread like the files.
	made := 0
	for d := 1; d < len(kafkaFilesAtDepth)-1; d++ {
		for range 1 + kafkaFilesAtDepth[d+1]*kafkaFolders/6519/2 {
			parent := byDepth[d-1][rng.Intn(len(byDepth[d-1]))]
			byDepth[d] = append(byDepth[d], parent+"p"+strconv.Itoa(made)+"/")
			made++
		}
	}
	var files []monoFile
	for d, n := range kafkaFilesAtDepth {
		for range n {
			folders := byDepth[d-1]
			path := folders[rng.Intn(len(folders))] + "F" + strconv.Itoa(len(files)) + ".java"
			files = append(files, monoFile{path: path, content: textOfSize(rng, pool, kafkaSize(rng))})
		}
	}
	return files
}

// kafkaSize draws a file size from Kafka's distribution: geometric between its quantiles, which gives its mean
// (linear, the tail's few large files came out at 27 KB a file on average).
func kafkaSize(rng *rand.Rand) int {
	u := rng.Float64() * 100
	i := 0
	for i < len(kafkaSizePercents)-2 && u >= kafkaSizePercents[i+1] {
		i++
	}
	lo, hi := float64(max(1, kafkaSizeQuantiles[i])), float64(kafkaSizeQuantiles[i+1])
	f := (u - kafkaSizePercents[i]) / (kafkaSizePercents[i+1] - kafkaSizePercents[i])
	return int(lo * math.Pow(hi/lo, f))
}

const monoLetters = "abcdefghijklmnopqrstuvwxyz     ();{}="

// monoLines is the pool source files are drawn from: like real code, a file repeats lines that other files
// have too, so it compresses (and deltifies) about as well as source does, not as random text would.
func monoLines() []string {
	rng := rand.New(rand.NewSource(42))
	lines := make([]string, 4096)
	for i := range lines {
		b := make([]byte, 20+rng.Intn(60))
		for j := range b {
			b[j] = monoLetters[rng.Intn(len(monoLetters))]
		}
		b[len(b)-1] = '\n'
		lines[i] = string(b)
	}
	return lines
}

// textOfSize is n bytes of source-like text: lines of the pool, the last one cut to fit.
func textOfSize(rng *rand.Rand, pool []string, n int) []byte {
	b := make([]byte, 0, n)
	for len(b) < n {
		b = append(b, pool[rng.Intn(len(pool))]...)
	}
	return b[:n]
}

// editLine rewrites one line of f in place (same length), as a small change does.
func editLine(rng *rand.Rand, pool []string, f *monoFile) {
	if len(f.content) == 0 {
		f.content = []byte(pool[rng.Intn(len(pool))])
		return
	}
	at := rng.Intn(len(f.content))
	for at > 0 && f.content[at-1] != '\n' {
		at--
	}
	for i := at; i < len(f.content) && f.content[i] != '\n'; i++ {
		f.content[i] = monoLetters[rng.Intn(len(monoLetters))]
	}
}

var monoWords = []string{"Fix", "Add", "Remove", "Improve", "Refactor", "Handle", "Avoid", "Migrate", "Support",
	"Update", "the", "consumer", "producer", "broker", "config", "metadata", "test", "flaky", "timeout", "log",
	"partition", "leader", "replica", "quota", "metrics", "state", "store", "task", "thread", "request"}

// monoMessage is a Kafka-like message: most name a ticket of a range a third the size of history (so each
// ticket has a few commits) and a pull request; the ticket's own commits name monoTicket.
func monoMessage(rng *rand.Rand, n, commits int, target bool) string {
	subject := ""
	for i := range 4 + rng.Intn(6) {
		if i > 0 {
			subject += " "
		}
		subject += monoWords[rng.Intn(len(monoWords))]
	}
	var head string
	switch {
	case target:
		head = monoTicket + ": " + subject
	case rng.Intn(100) < 85:
		head = fmt.Sprintf("MONO-%d: %s", 1+rng.Intn(max(1, commits/3)), subject)
	default:
		head = "MINOR: " + subject
	}
	msg := fmt.Sprintf("%s (#%d)\n", head, 1000+n)
	if lines := rng.Intn(4); lines > 0 {
		msg += "\n"
		for range lines {
			msg += "Words about the change, line " + strconv.Itoa(rng.Intn(100000)) + ".\n"
		}
		msg += fmt.Sprintf("\nReviewers: Dev %d <dev%d@example.com>\n", n%97, n%97)
	}
	return msg
}
