package odb

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// A pack entry whose zlib checksum is wrong is corrupt to git (`git cat-file` fails: "inflate: data stream
// error") and must be to us: the packs refuse it rather than return bytes git would not, so a bundle never signs
// them. The entry's place and length in the pack are git's (`git verify-pack -v`); the untouched pack reads
// alike in both.
func TestCorruptEntryRefusedAsGitRefusesIt(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"a.txt": "a\n"})
	c := r.Commit("ENG-42: a commit whose object is damaged below", map[string]string{"a.txt": "b\n"})
	r.Git("repack", "-adq")
	packDir := filepath.Join(r.Dir, ".git", "objects", "pack")
	idx, err := filepath.Glob(filepath.Join(packDir, "*.idx"))
	if err != nil || len(idx) != 1 {
		t.Fatalf("want one pack, have %v (%v)", idx, err)
	}
	var off, inPack int64 = -1, 0
	for _, line := range strings.Split(r.Git("verify-pack", "-v", idx[0]), "\n") {
		if f := strings.Fields(line); len(f) >= 5 && f[0] == c {
			inPack, _ = strconv.ParseInt(f[3], 10, 64)
			off, _ = strconv.ParseInt(f[4], 10, 64)
		}
	}
	if off < 0 {
		t.Fatalf("git verify-pack does not list commit %s", c)
	}
	read := func() bool {
		pr, err := OpenPacks(packDir, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		_, _, ok := pr.Packed(plumbing.NewHash(c))
		return ok
	}
	if _, err := r.GitErr("cat-file", "-p", c); err != nil || !read() {
		t.Fatalf("the whole pack: git cat-file error %v, ours read %v; want both to read it", err, read())
	}
	pack := strings.TrimSuffix(idx[0], ".idx") + ".pack"
	b, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	b[off+inPack-1] ^= 0x01 // the last byte of the entry: the low byte of its zlib stream's Adler-32
	if err := os.Chmod(pack, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pack, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := r.GitErr("cat-file", "-p", c); err == nil {
		t.Fatalf("git read the damaged commit: %s", out)
	}
	if read() {
		t.Error("the packs returned a commit whose zlib checksum is wrong; git refuses it")
	}
}
