package gitext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// readConfigFile reads what go-git's config decoder reads, and refuses what it refuses with the same words, but
// for a backslash at the end of a line, which git drops and go-git keeps as a newline
// (TestReadConfigFileAsGit).
func TestReadConfigFileAsGoGit(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"", "[core]\n\tbare = false\n", "[Core]\nBare\n[core]\nbare = true ; comment\n",
		"[remote \"origin\"]\n\turl = git@x:y \"q\"\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote \"Origin\"]\nurl=2\n",
		"[a]\nk = \"quoted \\\" value\" # c\nk = esc\\tand\\nnew\\\\line\n",
		"[a \"sub \\\"q\\\"\"]\nk=v\n", "[a.b]\nk=v\n", "k=v\n", "[a]\n=v\n", "[a]\nk v\n", "[a \"\"]\nk=v\n", "[a\nk=v\n",
		"[a]\nk=\"open\n", "[a]\nk=bad\\q\n", "[a] x\n", "[a]\nk=v x=y\n", "[\"q\"]\n", "\ufeff[a]\nk=v\n", "[a]\r\nk = v\r\n",
		"[a]\nk-1 = v\n", "[a]\n1k = v\n", "[a]\nk =\n", "[a \"x\"\n", "#only\n;comment\n",
	} {
		var got strings.Builder
		err := readConfigFile(strings.NewReader(src), func(s, ss, k, v string) {
			if k != "" {
				fmt.Fprintf(&got, "%s|%s|%s=%q\n", s, ss, k, v)
			}
		})
		var cfg format.Config
		werr := format.NewDecoder(strings.NewReader(src)).Decode(&cfg)
		var want strings.Builder
		// go-git groups by section; compare per key, in file order within each.
		byKey := func(out string) map[string][]string {
			m := map[string][]string{}
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if l == "" {
					continue
				}
				k, v, _ := strings.Cut(l, "=")
				m[normKey(strings.ReplaceAll(k, "|", "."))] = append(m[normKey(strings.ReplaceAll(k, "|", "."))], v)
			}
			return m
		}
		for _, s := range cfg.Sections {
			for _, o := range s.Options {
				fmt.Fprintf(&want, "%s||%s=%q\n", s.Name, o.Key, o.Value)
			}
			for _, sub := range s.Subsections {
				for _, o := range sub.Options {
					fmt.Fprintf(&want, "%s|%s|%s=%q\n", s.Name, sub.Name, o.Key, o.Value)
				}
			}
		}
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Errorf("%q: error %v, go-git %v", src, err, werr)
			continue
		}
		if err == nil && fmt.Sprint(byKey(got.String())) != fmt.Sprint(byKey(want.String())) {
			t.Errorf("%q: read\n%s\ngo-git\n%s", src, got.String(), want.String())
		}
	}
}

// readConfigFile never reads a file otherwise than git does: what it reads, `git config --file F --list`
// reads the same; where it refuses a file git reads (a byte-order mark, the old [a.b] spelling, an empty
// subsection, a variable on a section's line), the caller says which file and stops, which is safe for every
// reader of it (the repository format, the remotes, the files read when there is no git, UserConfig's
// allowed-signers setting).
func TestReadConfigFileAsGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	refusedThoughGitReads := 0
	for _, src := range []string{
		"", "[core]\n\tbare = false\n", "[Core]\nBare\n[core]\nbare = true ; comment\n",
		"[remote \"origin\"]\n\turl = git@x:y \"q\"\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote \"Origin\"]\nurl=2\n",
		"[a]\nk = \"quoted \\\" value\" # c\nk = esc\\tand\\nnew\\\\line\nk = cont\\\nnued\n",
		"[a]\n\tk = \"in \\\n quotes\"\n", "[a]\n\tk = v1  \n", "[a]\nk = x # y\n", "[a]\nk = \" lead\"\n",
		"[a \"sub \\\"q\\\"\"]\nk=v\n", "[a \"S\"]\nk=v\n", "[a]\nk-1 = v\n", "[a]\nk =\n", "#only\n;comment\n",
		"[a]\r\nk = v\r\n", "[gpg \"ssh\"]\n\tallowedSignersFile = ~/.ssh/allowed \\\n_signers\n",
		// git reads these; readConfigFile refuses them.
		"[a.b]\nk=v\n", "k=v\n", "[a \"\"]\nk=v\n", "[a] x\n", "\ufeff[a]\nk=v\n", "[bernstein]\ntracker = jira\n[a]k=v\n",
		// Neither reads these.
		"[a]\n=v\n", "[a]\nk v\n", "[a\nk=v\n", "[a]\nk=\"open\n", "[a]\nk=bad\\q\n", "[\"q\"]\n", "[a]\n1k = v\n",
		"[a \"x\"\n",
	} {
		var got []string
		err := readConfigFile(strings.NewReader(src), func(s, ss, k, v string) {
			if k != "" {
				key := s + "." + k
				if ss != "" {
					key = s + "." + ss + "." + k
				}
				got = append(got, normKey(key)+"="+v)
			}
		})
		f := filepath.Join(t.TempDir(), "config")
		if werr := os.WriteFile(f, []byte(src), 0o644); werr != nil {
			t.Fatal(werr)
		}
		out, gitErr := exec.Command("git", "config", "--file", f, "--null", "--list").Output()
		var want []string
		for _, e := range strings.Split(string(out), "\x00") {
			if e != "" {
				k, v, _ := strings.Cut(e, "\n")
				want = append(want, normKey(k)+"="+v)
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		switch {
		case err == nil && gitErr != nil:
			t.Errorf("%q: read %q; git refuses it: %v", src, got, gitErr)
		case err == nil && fmt.Sprint(got) != fmt.Sprint(want):
			t.Errorf("%q: read\n%q\ngit reads\n%q", src, got, want)
		case err != nil && gitErr == nil:
			refusedThoughGitReads++
		}
	}
	if refusedThoughGitReads != 6 {
		t.Errorf("%d files git reads are refused, want the 6 listed", refusedThoughGitReads)
	}
}
