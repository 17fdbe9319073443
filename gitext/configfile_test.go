package gitext

import (
	"fmt"
	"strings"
	"testing"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// readConfigFile reads what go-git's config decoder reads, and refuses what it refuses with the same words.
func TestReadConfigFileAsGoGit(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"", "[core]\n\tbare = false\n", "[Core]\nBare\n[core]\nbare = true ; comment\n",
		"[remote \"origin\"]\n\turl = git@x:y \"q\"\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote \"Origin\"]\nurl=2\n",
		"[a]\nk = \"quoted \\\" value\" # c\nk = esc\\tand\\nnew\\\\line\nk = cont\\\nnued\n",
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
