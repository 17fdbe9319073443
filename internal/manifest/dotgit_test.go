package manifest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
)

// dotGitNames are names with a part that git refuses as .git on some file system (git: true), and near misses
// it accepts (git: false). Issue 25, 1: a bundle carried .git/HEAD, .git/config (core.fsmonitor = "touch
// PWNED; false") and .git/refs/heads/.keep, verified, and extract wrote them.
func dotGitNames() []struct {
	name string
	git  bool
} {
	names := []struct {
		name string
		git  bool
	}{
		// The review's members, and .git anywhere, in any case.
		{".git/HEAD", true}, {".git/config", true}, {".git/refs/heads/.keep", true},
		{"transcripts/.git/config", true}, {"transcripts/.git", true}, {"transcripts/a/.git/hooks/post-checkout", true},
		{".GIT/config", true}, {".Git/config", true}, {"transcripts/.gIT", true},
		// NTFS: trailing dots and spaces, alternate data streams, the 8.3 short name.
		{".git./config", true}, {".git /config", true}, {".git. . ./config", true}, {"transcripts/.git.", true},
		{".git::$INDEX_ALLOCATION/config", true}, {".git:stream", true}, {".GIT :x", true},
		{"git~1/config", true}, {"GIT~1/config", true}, {"Git~1", true}, {"git~1./config", true}, {"git~1 ", true},
		{"git~1:$DATA", true}, {"transcripts/git~1/hooks/pre-commit", true},
		// HFS+: ignored code points anywhere.
		{".gi\u200ct/config", true}, {"\u200c.git/config", true}, {".git\u200c/config", true}, {".g\u200di\u200et\u200f", true},
		{".\u202aG\u202bI\u202cT\u202d\u202e/config", true}, {"\ufeff.git", true}, {".\u206a\u206b\u206c\u206d\u206e\u206fgit", true},
		{"transcripts/.Gi\ufefft/HEAD", true},
		// Near misses: git accepts them, and so do we.
		{".gitignore", false}, {".gitmodules", false}, {"transcripts/.gitattributes", false}, {".git-x/config", false},
		{".git.x/config", false}, {".git x", false}, {"x.git/config", false}, {".gi/t", false}, {"git/config", false},
		{"git~2/config", false}, {"git~1x", false}, {"git~10", false}, {"git~", false}, {"..git", false},
		{".git\u200b/config", false}, {".g\u0131t/config", false}, {"\u00a0.git", false}, {".gi\u200ct\u200cx", false},
		{".gi\u00adt", false}, {"transcripts/a.git", false}, {"git ~1", false},
	}
	// Every code point HFS+ ignores, alone, inside .git.
	for _, r := range []rune{0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
		0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff} {
		names = append(names, struct {
			name string
			git  bool
		}{fmt.Sprintf("transcripts/.g%ci%ct/config", r, r), true})
	}
	// Its neighbours are not ignored.
	for _, r := range []rune{0x200b, 0x2010, 0x2029, 0x202f, 0x2069, 0x2070, 0xfefe, 0xff00} {
		names = append(names, struct {
			name string
			git  bool
		}{fmt.Sprintf("transcripts/.g%cit/config", r), false})
	}
	return names
}

// TestCheckNameRefusesDotGit holds CheckName to git's own verify_path: git itself, with core.protectHFS and
// core.protectNTFS on, is asked to put each name in an index, and must refuse exactly the names we refuse.
func TestCheckNameRefusesDotGit(t *testing.T) {
	t.Parallel()
	r := gittest.New(t)
	blob := r.Git("hash-object", "-w", "--stdin")
	for _, c := range dotGitNames() {
		err := CheckName(c.name)
		if refused := err != nil; refused != c.git {
			t.Errorf("CheckName(%q) = %v; want refused %v", c.name, err, c.git)
		}
		if err != nil && !strings.Contains(err.Error(), "git's own folder .git") {
			t.Errorf("CheckName(%q): %v; want it to say why", c.name, err)
		}
		_, gitErr := r.GitErr("-c", "core.protectHFS=true", "-c", "core.protectNTFS=true",
			"update-index", "--add", "--cacheinfo", "100644,"+blob+","+c.name)
		if gitRefused := gitErr != nil; gitRefused != c.git {
			t.Errorf("git update-index of %q: %v; the table says git refuses it: %v", c.name, gitErr, c.git)
		}
	}
}
