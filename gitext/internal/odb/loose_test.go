package odb

import (
	"bytes"
	"compress/zlib"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// Loose objects (what a merge has just written) are read without the fallback, byte for byte as git cat-file
// gives them; a loose file that is not a well-formed object (a bad header, a size that disagrees, a broken
// checksum, trailing data) or not a regular file is left to the fallback, which says what is wrong.
func TestLooseObjectsMatchCatFile(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	r.Commit("First\n\nRefs: ENG-1", map[string]string{"a.txt": "alpha\n", "bin": "\x00\x01binary"})
	r.Commit("Second", map[string]string{"a.txt": strings.Repeat("beta line\n", 500), "dir/b": "b\n"})
	r.Git("tag", "-a", "-m", "release", "v1")
	objects := filepath.Join(r.Dir, ".git", "objects")
	fellBack := map[plumbing.Hash]bool{}
	pr, err := OpenPacks(filepath.Join(objects, "pack"), func(h plumbing.Hash) (plumbing.EncodedObject, error) {
		fellBack[h] = true
		return nil, plumbing.ErrObjectNotFound
	})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	catFile := func(typ, id string) []byte {
		cmd := exec.Command("git", "cat-file", typ, id)
		cmd.Dir, cmd.Env = r.Dir, r.Env
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	list := r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
	n := 0
	for _, line := range strings.Split(list, "\n") {
		f := strings.Fields(line)
		h := plumbing.NewHash(f[0])
		typ, data, err := pr.Object(h)
		if err != nil || typ.String() != f[1] || !bytes.Equal(data, catFile(f[1], f[0])) {
			t.Errorf("%s %s: read %s (%v), want what git cat-file gives", f[1], f[0], typ, err)
		}
		if typ, data, _ := pr.RawObject(h); typ.String() != f[1] || (f[1] != "commit" && f[1] != "tag" && data != nil) {
			t.Errorf("RawObject(%s %s): %s with %d bytes, want the type and, for a tree or blob, no content", f[1], f[0], typ, len(data))
		}
		n++
	}
	if n < 8 || len(fellBack) > 0 {
		t.Fatalf("%d objects, %d read through the fallback; want them all loose and read directly", n, len(fellBack))
	}

	bad := map[string][]byte{
		"bad header":      deflated(t, []byte("blob12\x00abc")),
		"size disagrees":  deflated(t, []byte("blob 4\x00abc")),
		"trailing data":   deflated(t, []byte("blob 2\x00abc")),
		"unknown type":    deflated(t, []byte("wat 3\x00abc")),
		"broken checksum": append(deflated(t, []byte("blob 3\x00abc"))[:12], 0, 0, 0, 0),
		"not zlib":        []byte("blob 3\x00abc"),
	}
	for what, content := range bad {
		h := plumbing.ComputeHash(plumbing.BlobObject, []byte(what))
		hexID := h.String()
		path := filepath.Join(objects, hexID[:2], hexID[2:])
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, content, 0o444); err != nil {
			t.Fatal(err)
		}
		if _, _, err := pr.Object(h); err == nil || !fellBack[h] {
			t.Errorf("%s: read without an error (%v) or not left to the fallback", what, err)
		}
	}
	h := plumbing.ComputeHash(plumbing.BlobObject, []byte("a folder"))
	hexID := h.String()
	os.MkdirAll(filepath.Join(objects, hexID[:2], hexID[2:]), 0o755)
	if _, _, err := pr.Object(h); err == nil || !fellBack[h] {
		t.Errorf("a folder at an object's path: read without an error (%v) or not left to the fallback", err)
	}
}

func deflated(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
