package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/nofollow"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// secretFile is a file outside .sdd that an attacker who can write .sdd wants in a signed bundle.
func secretFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(p, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A .sdd file chosen for the bundle and then swapped, before it is hashed and packed, for a symlink or another
// file (or its folder for a symlinked one) is an error naming it: the chosen file or nothing.
func TestSwapAfterSelectionIsAnError(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		lineage  bool
		swap     func(t *testing.T, sdd, secret string) // runs between selection and packing
		wantName string                                 // the file the error names
	}{
		{"file swapped for a symlink to a secret", false, func(t *testing.T, sdd, secret string) {
			p := filepath.Join(sdd, "traces", "ENG-42-trace.jsonl")
			os.Remove(p)
			must(t, os.Symlink(secret, p))
		}, "traces/ENG-42-trace.jsonl"},
		{"file replaced by another (rename over it)", false, func(t *testing.T, sdd, secret string) {
			p := filepath.Join(sdd, "traces", "ENG-42-trace.jsonl")
			must(t, os.WriteFile(p+".new", []byte("other bytes, same length!!!!!!!\n"), 0o644))
			must(t, os.Rename(p+".new", p))
		}, "traces/ENG-42-trace.jsonl"},
		{"folder swapped for a symlink to a folder with a file of the same name", false, func(t *testing.T, sdd, secret string) {
			elsewhere := filepath.Join(t.TempDir(), "traces")
			must(t, os.MkdirAll(elsewhere, 0o755))
			must(t, os.Symlink(secret, filepath.Join(elsewhere, "ENG-42-trace.jsonl")))
			must(t, os.Rename(filepath.Join(sdd, "traces"), filepath.Join(sdd, "traces.old")))
			must(t, os.Symlink(elsewhere, filepath.Join(sdd, "traces")))
		}, "traces"},
		{"lineage v2 child file swapped for a symlink", true, func(t *testing.T, sdd, secret string) {
			ents, err := os.ReadDir(filepath.Join(sdd, "lineage", "v2", "children"))
			if err != nil || len(ents) != 1 {
				t.Fatalf("children: %v %v", ents, err)
			}
			p := filepath.Join(sdd, "lineage", "v2", "children", ents[0].Name())
			os.Remove(p)
			must(t, os.Symlink(secret, p))
		}, "lineage/v2/children/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := fixture(t)
			sdd := filepath.Join(r.Dir, ".sdd")
			if tc.lineage {
				store := lineage.Open(filepath.Join(sdd, "lineage", "v2"), lineage.PublicKey())
				os.RemoveAll(store.Root)
				if _, _, err := store.Append(lineage.ParentRef{V: 2, TaskID: "ENG-42-impl", ChildRunID: "r1", TsNs: 1},
					lineage.ChildBody{V: 2, TaskID: "ENG-42-impl", ChildRunID: "r1", Kind: "k", Payload: map[string]any{}, TsNs: 1}); err != nil {
					t.Fatal(err)
				}
			}
			secret := secretFile(t)
			repo, err := gitext.Discover(r.Dir, r.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			tk, _ := ticket.Parse("github", "ENG-42")
			out := filepath.Join(t.TempDir(), "ENG-42.tar.gz")
			swapped := false
			_, err = Build(Options{Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources},
				SDD: sdd, Out: out, CreatedAt: fixedTime, LineageV2: tc.lineage,
				afterSelect: func() { tc.swap(t, sdd, secret); swapped = true }})
			if !swapped {
				t.Fatal("the seam did not run")
			}
			if err == nil {
				_, data := readArchive(t, out)
				for name, b := range data {
					if strings.Contains(string(b), "SECRET") {
						t.Errorf("the secret was packed as %s", name)
					}
				}
				t.Fatal("a swapped file was bundled without an error")
			}
			if !errors.Is(err, nofollow.ErrReplaced) || !strings.Contains(err.Error(), filepath.FromSlash(tc.wantName)) {
				t.Errorf("error %q: want one saying %s was replaced", err, tc.wantName)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Error("an archive was left behind")
			}
		})
	}
}

// A symlinked .sdd, or a symlinked folder inside it, is skipped with a warning: nothing is read through it.
func TestSymlinkedFoldersAreNotFollowed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		lineage  bool
		link     func(t *testing.T, sdd, outside string) // outside holds traces/ and lineage/v2/ naming ENG-42
		warning  string                                  // the path the warning names, relative to the worktree
		keptSome bool                                    // files of the real .sdd are still packed
	}{
		{".sdd itself", false, func(t *testing.T, sdd, outside string) {
			must(t, os.RemoveAll(sdd))
			must(t, os.Symlink(outside, sdd))
		}, ".sdd", false},
		{".sdd/traces", false, func(t *testing.T, sdd, outside string) {
			must(t, os.RemoveAll(filepath.Join(sdd, "traces")))
			must(t, os.Symlink(filepath.Join(outside, "traces"), filepath.Join(sdd, "traces")))
		}, ".sdd/traces", true},
		{".sdd/lineage/v2", true, func(t *testing.T, sdd, outside string) {
			must(t, os.RemoveAll(filepath.Join(sdd, "lineage", "v2")))
			must(t, os.Symlink(filepath.Join(outside, "lineage", "v2"), filepath.Join(sdd, "lineage", "v2")))
		}, ".sdd/lineage/v2", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := fixture(t)
			outside := t.TempDir()
			for p, c := range map[string]string{"traces/ENG-42-outside.jsonl": `{"secret":true}` + "\n",
				"lineage/v2/parent.jsonl": `{"task_id":"ENG-42","child_sha":"x","secret":true}` + "\n"} {
				must(t, os.MkdirAll(filepath.Join(outside, filepath.Dir(p)), 0o755))
				must(t, os.WriteFile(filepath.Join(outside, p), []byte(c), 0o644))
			}
			sdd := filepath.Join(r.Dir, ".sdd")
			tc.link(t, sdd, outside)
			res := build(t, r, filepath.Join(t.TempDir(), "b.tar.gz"), func(o *Options) { o.LineageV2 = tc.lineage })
			names, data := readArchive(t, res.Out)
			for name, b := range data {
				if strings.Contains(string(b), "secret") {
					t.Errorf("%s was read through the symlink", name)
				}
			}
			warned := 0
			for _, w := range res.Warnings {
				if strings.Contains(w, filepath.Join(r.Dir, filepath.FromSlash(tc.warning))+" is a symbolic link") && strings.Contains(w, "skipped") {
					warned++
				}
			}
			if warned != 1 {
				t.Errorf("want one warning naming %s as a symlink, got %q", tc.warning, res.Warnings)
			}
			if kept := strings.Contains(strings.Join(names, " "), "audit/doc.json"); kept != tc.keptSome {
				t.Errorf("real .sdd files packed: %v, want %v (%v)", kept, tc.keptSome, names)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestHardLinksAreNotRead: a hard link is a symlink no one can see. An agent that can write .sdd links a file the
// user can read (on the same file system) under a name that selects it; it is skipped with a warning, never packed.
func TestHardLinksAreNotRead(t *testing.T) {
	t.Parallel()
	r := fixture(t)
	secret := filepath.Join(r.Dir, "id_ed25519") // same file system as .sdd
	must(t, os.WriteFile(secret, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET\n"), 0o600))
	link := filepath.Join(r.Dir, ".sdd", "traces", "ENG-42-linked.jsonl")
	if err := os.Link(secret, link); err != nil {
		t.Skipf("hard links: %v", err)
	}
	res := build(t, r, filepath.Join(t.TempDir(), "b.tar.gz"), nil)
	_, data := readArchive(t, res.Out)
	for name, b := range data {
		if strings.Contains(string(b), "SECRET") {
			t.Errorf("%s holds the hard-linked file", name)
		}
	}
	warned := false
	for _, w := range res.Warnings {
		warned = warned || (strings.Contains(w, link) && strings.Contains(w, "hard link"))
	}
	if !warned {
		t.Errorf("no warning names %s as a hard link: %q", link, res.Warnings)
	}
}
