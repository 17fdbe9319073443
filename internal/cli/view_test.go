package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestViewCommand builds bundles as a user does and checks that view writes a page whose verdict and exit code
// are verify's, for VERIFIED, UNVERIFIABLE and FAILED bundles.
func TestViewCommand(t *testing.T) {
	t.Parallel()
	r, card := aliceBundles(t, "transcripts/coder-s1.jsonl", `{"role":"user","content":"do ENG-42 <now>","tracker":"github","ticket":"ENG-42"}`+"\n")
	data := must(os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz")))
	os.WriteFile(filepath.Join(r.Dir, "tampered.tar.gz"), append(data, 0), 0o644)
	os.WriteFile(filepath.Join(r.Dir, "tampered.tar.gz.jws"), must(os.ReadFile(filepath.Join(r.Dir, "ENG-42.tar.gz.jws"))), 0o644)

	cases := []struct {
		name    string
		args    []string
		page    string
		code    int
		verdict string
		want    []string
	}{
		{"signed", []string{"ENG-42.tar.gz", "--card", card}, "ENG-42.tar.gz.html", 0, "VERIFIED",
			[]string{"<h1>github ENG-42</h1>", "do ENG-42 &lt;now&gt;", "&#43;&lt;b&gt;bold&lt;/b&gt;", "Add login"}},
		{"out flag", []string{"ENG-42.tar.gz", "ENG-42.tar.gz.jws", "--card", card, "--out", "sub.html"}, "sub.html", 0, "VERIFIED", nil},
		{"unsigned", []string{"unsigned.tar.gz", "--card", card}, "unsigned.tar.gz.html", 2, "UNVERIFIABLE", []string{"do ENG-42 &lt;now&gt;", "not VERIFIED"}},
		{"no card", []string{"ENG-42.tar.gz", "--out", "nocard.html"}, "nocard.html", 2, "UNVERIFIABLE", nil},
		{"tampered", []string{"tampered.tar.gz", "--card", card}, "tampered.tar.gz.html", 1, "FAILED", []string{"nothing inside the archive is shown"}},
		{"bad card", []string{"ENG-42.tar.gz", "--card", "ENG-42.tar.gz.jws", "--out", "badcard.html"}, "badcard.html", 2, "UNVERIFIABLE", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runIn(t, r.Dir, r.Env, append([]string{"view"}, tc.args...)...)
			if code != tc.code || out != tc.verdict+": "+filepath.Join(r.Dir, tc.page)+"\n" {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.code, out, errOut)
			}
			vargs := []string{"verify"}
			for _, a := range tc.args {
				if a == "--out" {
					break
				}
				vargs = append(vargs, a)
			}
			vout, _, vcode := runIn(t, r.Dir, r.Env, vargs...)
			if vcode != code {
				t.Errorf("verify exits %d, view %d", vcode, code)
			}
			page := string(must(os.ReadFile(filepath.Join(r.Dir, tc.page))))
			if !strings.Contains(page, `<div class="word">`+tc.verdict+`</div>`) {
				t.Errorf("page verdict is not %s", tc.verdict)
			}
			// The page's check lines are verify's output, line for line.
			for _, l := range strings.Split(strings.TrimSuffix(vout, "\n"), "\n") {
				if !strings.Contains(page, ">"+escapeText(l)+"</li>") {
					t.Errorf("page lacks verify's line %q", l)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
		})
	}

	if _, errOut, code := runIn(t, r.Dir, r.Env, "view"); code != 2 || !strings.Contains(errOut, "view takes ARCHIVE") {
		t.Errorf("no arguments: exit %d %s", code, errOut)
	}
	// The verifier's limits apply to view too: a bundle over one is unusable, a bad limit is a usage error.
	if _, errOut, code := runIn(t, r.Dir, r.Env, "view", "--max-entries", "2", "--out", "limited.html", "ENG-42.tar.gz"); code != 2 {
		t.Errorf("over --max-entries: exit %d %s", code, errOut)
	}
	if _, errOut, code := runIn(t, r.Dir, r.Env, "view", "--max-total-size", "lots", "ENG-42.tar.gz"); code != 2 || !strings.Contains(errOut, "--max-total-size") {
		t.Errorf("bad limit: exit %d %s", code, errOut)
	}
	if _, errOut, code := runIn(t, r.Dir, r.Env, "view", "nope.tar.gz"); code != 2 || !strings.Contains(errOut, "open archive") {
		t.Errorf("missing archive: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "nope.tar.gz.html")); err == nil {
		t.Error("a page was written for a missing archive")
	}
}

func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}

func TestVerifyPageCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errOut, code := runIn(t, dir, nil, "verify-page", "--out", "v.html")
	if code != 0 || !strings.HasPrefix(out, "wrote "+filepath.Join(dir, "v.html")) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	page := string(must(os.ReadFile(filepath.Join(dir, "v.html"))))
	if !strings.Contains(page, `content="default-src &#39;none&#39;; connect-src &#39;none&#39;`) && !strings.Contains(page, `content="default-src 'none'; connect-src 'none'`) {
		t.Error("no CSP forbidding connections")
	}
	if _, errOut, code := runIn(t, dir, nil, "verify-page", "extra"); code != 2 || !strings.Contains(errOut, "takes no arguments") {
		t.Errorf("argument: exit %d %s", code, errOut)
	}
}
