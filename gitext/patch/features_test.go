package patch

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// TestFeaturesLikeGit is a golden test per feature git format-patch shows: each case commits one change with
// the git CLI and holds our part against git's own (signature aside, binary hunks inflated), and checks the
// part shows the feature, so that a case cannot pass by not exercising it.
func TestFeaturesLikeGit(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	needGit(t)
	body := numbered(40, func(i int) string { return fmt.Sprintf("line %d of a file that moves around\n", i) })
	javaSrc := "package demo;\n\npublic class Greeter {\n    private final String name;\n\n    public Greeter(String name) {\n        this.name = name;\n    }\n\n    public String greet() {\n        String s = \"Hello, \";\n        s += name;\n        s += \"!\";\n        return s;\n    }\n\n    public int length() {\n        int n = 0;\n        n += name.length();\n        n += 7;\n        return n;\n    }\n}\n"
	pySrc := "import os\n\n\nclass Store:\n    def __init__(self, root):\n        self.root = root\n        self.cache = {}\n\n    def path(self, name):\n        base = self.root\n        joined = os.path.join(base, name)\n        return joined\n\n\ndef helper(x):\n    y = x * 2\n    z = y + 1\n    return z\n"
	cases := []struct {
		name   string
		config map[string]string
		before map[string]string
		change func(r *gittest.Repo)
		want   []string
	}{
		{
			name:   "rename exact",
			before: map[string]string{"old/a.txt": body},
			change: func(r *gittest.Repo) { remove(r, "old/a.txt"); r.Write("new/a.txt", body); stageAll(r) },
			want:   []string{"similarity index 100%", " rename {old => new}/a.txt (100%)"},
		},
		{
			name:   "rename similar",
			before: map[string]string{"src/names.txt": body},
			change: func(r *gittest.Repo) {
				remove(r, "src/names.txt")
				r.Write("lib/names.txt", strings.Replace(body, "line 7 ", "line seven ", 1)+"one more\n")
				stageAll(r)
			},
			want: []string{"similarity index 9", "rename from src/names.txt\nrename to lib/names.txt\nindex ", "@@ -4,7 +4,7 @@ line 3 of a file"},
		},
		{
			name:   "rename below threshold is a deletion and a creation",
			before: map[string]string{"a.txt": body},
			change: func(r *gittest.Repo) {
				remove(r, "a.txt")
				r.Write("b.txt", numbered(30, func(i int) string { return fmt.Sprintf("other %d\n", i) })+body[:200])
				stageAll(r)
			},
			want: []string{"deleted file mode", "new file mode", " delete mode 100644 a.txt"},
		},
		{
			name:   "basename match and a mode change",
			before: map[string]string{"x/run.sh": body, "y/other.sh": "echo other\n"},
			change: func(r *gittest.Repo) {
				remove(r, "x/run.sh")
				r.Write("z/run.sh", strings.Replace(body, "line 20 ", "line twenty ", 1))
				chmod(r, "z/run.sh", 0o755)
				stageAll(r)
			},
			want: []string{"old mode 100644\nnew mode 100755\nsimilarity index", " mode change 100644 => 100755"},
		},
		{
			name:   "copies with diff.renames=copies",
			config: map[string]string{"diff.renames": "copies"},
			before: map[string]string{"orig.txt": body},
			change: func(r *gittest.Repo) {
				r.Write("orig.txt", body+"appended\n")
				r.Write("copy.txt", strings.Replace(body, "line 3 ", "line three ", 1))
				stageAll(r)
			},
			want: []string{"copy from orig.txt\ncopy to copy.txt", " copy orig.txt => copy.txt ("},
		},
		{
			name:   "java driver",
			before: map[string]string{".gitattributes": "*.java diff=java\n", "Greeter.java": javaSrc},
			change: func(r *gittest.Repo) {
				r.Write("Greeter.java", strings.Replace(strings.Replace(javaSrc, "n += 7;", "n += 8;", 1), "s += \"!\";", "s += \"?\";", 1))
				stageAll(r)
			},
			want: []string{" @@ public Greeter(String name) {\n"}, // the default driver would show "public class Greeter {"
		},
		{
			name:   "python driver",
			before: map[string]string{".gitattributes": "*.py diff=python\n", "store.py": pySrc},
			change: func(r *gittest.Repo) {
				r.Write("store.py", strings.Replace(pySrc, "z = y + 1", "z = y + 3", 1))
				stageAll(r)
			},
			want: []string{" @@ def path(self, name):\n"}, // the default driver would show "class Store:"
		},
		{
			name:   "custom xfuncname from config, nested attributes",
			config: map[string]string{"diff.sect.xfuncname": "^\\[([a-z]+)\\]$"},
			before: map[string]string{"conf/.gitattributes": "*.ini diff=sect\n", "conf/app.ini": "[main]\na=1\nb=2\nc=3\nd=4\ne=5\n[extra]\nf=6\ng=7\nh=8\ni=9\nj=10\n"},
			change: func(r *gittest.Repo) {
				r.Write("conf/app.ini", "[main]\na=1\nb=2\nc=3\nd=4\ne=5\n[extra]\nf=6\ng=7\nh=8\ni=9\nj=11\n")
				stageAll(r)
			},
			want: []string{"@@ extra\n"},
		},
		{
			name:   "indent heuristic slides an inserted function",
			before: map[string]string{"f.go": "package f\n\nfunc a() {\n\tx()\n}\n\nfunc c() {\n\tz()\n}\n"},
			change: func(r *gittest.Repo) {
				r.Write("f.go", "package f\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n}\n\nfunc c() {\n\tz()\n}\n")
				stageAll(r)
			},
			want: []string{"+func b() {\n+\ty()\n+}\n+\n"},
		},
		{
			name:   "binary delta",
			before: map[string]string{"blob.bin": "\x00" + randomBytes(7, 20000)},
			change: func(r *gittest.Repo) {
				b := []byte("\x00" + randomBytes(7, 20000))
				copy(b[5000:], "patched in the middle")
				r.Write("blob.bin", string(b)+"tail")
				stageAll(r)
			},
			want: []string{"GIT binary patch\ndelta ", " blob.bin | Bin 20001 -> 20005 bytes"},
		},
		{
			name:   "-diff attribute makes text binary",
			before: map[string]string{".gitattributes": "*.dat -diff\n", "table.dat": body},
			change: func(r *gittest.Repo) { r.Write("table.dat", body+"more\n"); stageAll(r) },
			want:   []string{"GIT binary patch\n"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := gittest.New(t)
			for k, v := range tc.config {
				r.Git("config", k, v)
			}
			r.Commit("base", tc.before)
			tc.change(r)
			commit := commitStaged(r, "change: "+tc.name)
			out := series(t, r, commit)
			for _, s := range tc.want {
				if !strings.Contains(string(out), s) {
					t.Errorf("part lacks %q:\n%s", s, out)
				}
			}
			assertLikeGit(t, r, commit, out)
			wt := checkoutParent(t, r, commit)
			if _, err := wt.GitErr("apply", "--index", writePatch(t, out)); err != nil {
				t.Fatalf("%v\npatch:\n%s", err, out)
			}
			if got, want := wt.Git("write-tree"), r.Rev(commit+"^{tree}"); got != want {
				t.Fatalf("tree after apply = %s, want %s", got, want)
			}
		})
	}
}

// TestByteIdenticalShare builds a history of the changes people make (edits inside functions of several
// languages with their diff drivers, moved and edited files, copies, binaries edited in place, mode changes,
// deletions) with the git CLI and prints the share of parts identical to git format-patch's. Issue 15 asks for
// at least 95%.
func TestByteIdenticalShare(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	needGit(t)
	r := gittest.New(t)
	r.Git("config", "diff.renames", "copies")
	r.Git("config", "diff.ini.xfuncname", "^\\[([a-z]+)\\]$")
	g := newHistory(rand.New(rand.NewSource(15)), r)
	g.seed()
	for i := 0; i < 120; i++ {
		g.step(i)
	}
	res, differing := parity(t, r.Dir, r.Env, "--root", "HEAD")
	t.Logf("byte-identical parts on a generated history: %s", res)
	for i, id := range res.Differing {
		if i < 3 {
			showDiff(t, id, differing[id][0], differing[id][1])
		}
	}
	if res.Same*100 < res.Total*95 {
		t.Errorf("byte-identical share %s is below 95%%", res)
	}
}

// history makes seeded random commits with the git CLI.
type history struct {
	rng   *rand.Rand
	r     *gittest.Repo
	files map[string]string
}

func newHistory(rng *rand.Rand, r *gittest.Repo) *history {
	return &history{rng: rng, r: r, files: map[string]string{}}
}

var langs = []struct{ ext, attr, fn, open, close, stmt string }{
	{".go", "golang", "func %s() {", "", "}", "\tv%d := compute(%d)"},
	{".java", "java", "    public void %s() {", "", "    }", "        int v%d = compute(%d);"},
	{".py", "python", "def %s():", "", "", "    v%d = compute(%d)"},
	{".c", "cpp", "static int %s(void)", "{", "}", "\tint v%d = compute(%d);"},
	{".ini", "ini", "[%s]", "", "", "v%d = %d"},
	{".txt", "", "%s:", "", "", "  item %d is %d"},
}

func (h *history) source(ext string) string {
	for _, l := range langs {
		if l.ext != ext {
			continue
		}
		var b strings.Builder
		for f := 0; f < 3+h.rng.Intn(5); f++ {
			name := fmt.Sprintf("%c%c%c", 'a'+h.rng.Intn(26), 'a'+h.rng.Intn(26), 'a'+h.rng.Intn(26))
			b.WriteString(fmt.Sprintf(l.fn, name) + "\n")
			if l.open != "" {
				b.WriteString(l.open + "\n")
			}
			for s := 0; s < 2+h.rng.Intn(8); s++ {
				b.WriteString(fmt.Sprintf(l.stmt, h.rng.Intn(100), h.rng.Intn(1000)) + "\n")
			}
			if l.close != "" {
				b.WriteString(l.close + "\n")
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	return "\x00" + randomBytes(h.rng.Int63(), 2000+h.rng.Intn(20000))
}

func (h *history) seed() {
	var attrs strings.Builder
	for _, l := range langs {
		if l.attr != "" {
			fmt.Fprintf(&attrs, "*%s diff=%s\n", l.ext, l.attr)
		}
	}
	h.files[".gitattributes"] = attrs.String()
	for i := 0; i < 12; i++ {
		ext := langs[i%len(langs)].ext
		h.files[fmt.Sprintf("pkg%d/file%d%s", i%3, i, ext)] = h.source(ext)
	}
	h.files["assets/logo.bin"] = h.source(".bin")
	h.r.Commit("seed", h.files)
}

func (h *history) pick() string {
	var names []string
	for n := range h.files {
		if n != ".gitattributes" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names[h.rng.Intn(len(names))]
}

// edit changes a text file the way a programmer does: a few lines changed, a block inserted (which the indent
// heuristic places), a block removed.
func (h *history) edit(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for k := 0; k < 1+h.rng.Intn(3); k++ {
		i := h.rng.Intn(len(lines))
		switch h.rng.Intn(4) {
		case 0:
			lines[i] = strings.Replace(lines[i], "compute", "recompute", 1)
			if !strings.Contains(lines[i], "recompute") {
				lines[i] = "changed " + lines[i]
			}
		case 1: // duplicate a run of lines, as adding a similar function does
			j := min(i+2+h.rng.Intn(6), len(lines))
			dup := append([]string{}, lines[i:j]...)
			lines = append(lines[:j], append(dup, lines[j:]...)...)
		case 2:
			j := min(i+1+h.rng.Intn(4), len(lines))
			lines = append(lines[:i], lines[j:]...)
		case 3:
			lines = append(lines[:i], append([]string{"\n", "inserted " + fmt.Sprint(h.rng.Intn(99)) + "\n"}, lines[i:]...)...)
		}
		if len(lines) == 0 {
			lines = []string{"x\n"}
		}
	}
	return strings.Join(lines, "")
}

func (h *history) step(i int) {
	name := h.pick()
	switch op := h.rng.Intn(10); {
	case op < 5:
		if strings.HasSuffix(name, ".bin") {
			b := []byte(h.files[name])
			at := h.rng.Intn(len(b))
			copy(b[at:], "edited bytes")
			h.files[name] = string(b)
		} else {
			h.files[name] = h.edit(h.files[name])
		}
		h.r.Write(name, h.files[name])
	case op < 7: // move, often with an edit
		to := fmt.Sprintf("moved%d/%s", i, name[strings.LastIndexByte(name, '/')+1:])
		content := h.files[name]
		if !strings.HasSuffix(name, ".bin") && h.rng.Intn(3) > 0 {
			content = h.edit(content)
		}
		remove(h.r, name)
		delete(h.files, name)
		h.files[to] = content
		h.r.Write(to, content)
	case op < 8: // copy with an edit
		to := fmt.Sprintf("copies/c%d-%s", i, name[strings.LastIndexByte(name, '/')+1:])
		content := h.files[name]
		if !strings.HasSuffix(name, ".bin") {
			content = h.edit(content)
		}
		h.files[to] = content
		h.r.Write(to, content)
		h.files[name] = h.files[name] + "\n"
		h.r.Write(name, h.files[name])
	case op < 9:
		ext := langs[h.rng.Intn(len(langs))].ext
		n := fmt.Sprintf("new/n%d%s", i, ext)
		h.files[n] = h.source(ext)
		h.r.Write(n, h.files[n])
		if h.rng.Intn(3) == 0 {
			chmod(h.r, name, 0o755)
		}
	default:
		if len(h.files) > 6 {
			remove(h.r, name)
			delete(h.files, name)
		}
	}
	stageAll(h.r)
	h.r.Git("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("step %d", i))
}
