//go:build browser

package browsertest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/buildinfo"
	"github.com/git-bernstein/git-bernstein/internal/cli"
)

// TestBrowserPages opens `view` pages and the `verify-page` page from file:// in headless Chromium, for the
// demo's signed bundle, a tampered copy and an unsigned copy: each page must show the verdict the CLI gives (and
// the verify page exactly its check lines and exit code), make no network request, and break no CSP rule.
// Screenshots go to build/browser/.
func TestBrowserPages(t *testing.T) {
	if os.Getenv("BERNSTEIN_BROWSER_TESTS") != "1" {
		t.Skip("browser tests run with BERNSTEIN_BROWSER_TESTS=1 (make test-browser)")
	}
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Fatal("no chromium on PATH: `make test-browser` installs Debian's package (apt-get install -y chromium)")
	}
	demo := os.Getenv("BERNSTEIN_DEMO")
	if demo == "" {
		demo = filepath.Join("..", "..", "build", "demo")
	}
	shots, err := filepath.Abs(filepath.Join("..", "..", "build", "browser"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(shots, 0o755)
	archive, err := os.ReadFile(filepath.Join(demo, "ENG-42.tar.gz"))
	if err != nil {
		t.Fatalf("the demo bundle: %v (run `make demo` first, or set BERNSTEIN_DEMO)", err)
	}

	work := t.TempDir()
	t.Chdir(work)
	write := func(name string, data []byte) {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jws := read(t, (filepath.Join(demo, "ENG-42.tar.gz.jws")))
	write("ENG-42.tar.gz", archive)
	write("ENG-42.tar.gz.jws", jws)
	write("demo-2026.card.json", read(t, (filepath.Join(demo, "demo-2026.card.json"))))
	write("tampered.tar.gz", tamper(t, archive))
	write("tampered.tar.gz.jws", jws)
	write("unsigned.tar.gz", archive)

	cases := []struct {
		name, archive, sig, verdict string
		code                        int
	}{
		{"signed", "ENG-42.tar.gz", "ENG-42.tar.gz.jws", "VERIFIED", 0},
		{"tampered", "tampered.tar.gz", "tampered.tar.gz.jws", "FAILED", 1},
		{"unsigned", "unsigned.tar.gz", "", "UNVERIFIABLE", 2},
	}
	run := func(args ...string) (string, int) {
		var out, errb bytes.Buffer
		code := cli.RunEnv(&cli.Env{Now: time.Now}, append([]string{"git-bernstein"}, args...), strings.NewReader(""), &out, &errb)
		return out.String(), code
	}
	if _, code := run("verify-page", "--out", "verify.html"); code != 0 {
		t.Fatal("verify-page failed")
	}

	b := startBrowser(t, bin)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{tc.archive}
			if tc.sig != "" {
				args = append(args, tc.sig)
			}
			args = append(args, "--card", "demo-2026.card.json")
			text, code := run(append([]string{"verify"}, args...)...)
			if code != tc.code || !strings.Contains(text, "\n"+tc.verdict+": ") {
				t.Fatalf("verify exits %d, want %d %s:\n%s", code, tc.code, tc.verdict, text)
			}
			if _, vcode := run(append(append([]string{"view"}, args...), "--out", tc.name+".html")...); vcode != code {
				t.Errorf("view exits %d, verify %d", vcode, code)
			}

			// The report page.
			tb := b.page()
			tb.b.t = t
			tb.open(filepath.Join(work, tc.name+".html"))
			if got := tb.eval(`document.querySelector(".banner .word").textContent`); got != tc.verdict {
				t.Errorf("view page says %v, want %s", got, tc.verdict)
			}
			// The style applies: the CSP's hash matches the inline bytes.
			if got := tb.eval(`getComputedStyle(document.querySelector(".banner")).borderTopStyle`); got != "solid" {
				t.Errorf("view page unstyled (border %v): the CSP refused its style", got)
			}
			if tc.name == "signed" {
				// Where each change landed: the demo's rate limit fix is on main (first released in v1.1) and
				// was backported to release/1.0 (v1.0.1); the backport's row is indented under the original.
				grid := tb.eval(`Array.from(document.querySelectorAll("table.grid tr")).map((tr) => Array.from(tr.children).map((c) => c.textContent.trim()).join(" | ")).join("\n")`)
				if g, _ := grid.(string); !strings.Contains(g, "Change | bugfix/eng-42-crash | main | release/1.0\n") ||
					!strings.Contains(g, "Add rate limit (#17) | ✓ v1.1 | ✓ v1.1 | ✓ v1.0.1\n") {
					t.Errorf("the change × branch grid reads:\n%v", grid)
				}
				if got := tb.eval(`getComputedStyle(document.querySelector("tr.backport td.subject")).paddingLeft`); got != "25.6px" {
					t.Errorf("the backport row is not indented (padding-left %v)", got)
				}
			}
			checkPictures(tb, tc.verdict)
			tb.screenshot(filepath.Join(shots, "view-"+tc.name+".png"))
			tb.checkQuiet()

			// The verify page, given the same files.
			tb = b.page()
			tb.b.t = t
			tb.open(filepath.Join(work, "verify.html"))
			tb.waitFor(`document.body.dataset.ready || document.getElementById("status").textContent.includes("could not start") && "failed"`, 30*time.Second)
			if got := tb.eval(`document.body.dataset.ready || document.getElementById("status").textContent`); got != "1" {
				t.Fatalf("the verifier did not start: %v", got)
			}
			// The page names the same build as the CLI that wrote it (git bernstein --version).
			if got, want := tb.eval(`document.querySelector(".sub").textContent`), "git-bernstein's verifier ("+buildinfo.Version()+")"; !strings.Contains(fmt.Sprint(got), want) {
				t.Errorf("verify page says %q, want %q", got, want)
			}
			tb.setFiles("#cards", filepath.Join(work, "demo-2026.card.json"))
			if tc.sig != "" {
				tb.setFiles("#signature", filepath.Join(work, tc.sig))
			}
			tb.setFiles("#archive", filepath.Join(work, tc.archive))
			if _, err := tb.poll(`document.getElementById("status").textContent.startsWith("Checked `+tc.archive+`") && document.getElementById("banner").dataset.verdict`, 30*time.Second); err != nil {
				t.Fatalf("%v; the page says %q; events %+v", err, tb.eval(`document.getElementById("status").textContent`), tb.seen())
			}
			if got := tb.eval(`document.getElementById("banner").dataset.verdict`); got != tc.verdict {
				t.Errorf("verify page says %v, want %s", got, tc.verdict)
			}
			if got := tb.eval(`document.getElementById("banner").dataset.exitCode`); got != itoa(code) {
				t.Errorf("verify page exit code %v, CLI %d", got, code)
			}
			lines := tb.eval(`Array.from(document.querySelectorAll("#checks li")).map((li) => li.textContent).join("\n")`)
			if lines != strings.TrimSuffix(text, "\n") {
				t.Errorf("verify page lines differ from the CLI's:\n%v\nCLI:\n%s", lines, text)
			}
			// What to do next: nothing for VERIFIED, one step or more otherwise, naming the chosen file.
			steps := tb.eval(`Array.from(document.querySelectorAll("#next li")).map((li) => li.textContent).join("\n")`)
			if (tc.verdict == "VERIFIED") != (steps == "") {
				t.Errorf("verify page next steps for %s: %q", tc.verdict, steps)
			}
			if tc.verdict == "VERIFIED" {
				checkPolicy(tb, run, args)
			}
			tb.screenshot(filepath.Join(shots, "verify-"+tc.name+".png"))
			tb.checkQuiet()
		})
	}
}

// checkPolicy gives the verify page a policy file: the controls it shows are the ones `audit --policy` prints
// for the same files, and a file that does not read is said, with no control evaluated.
func checkPolicy(tb *tab, run func(args ...string) (string, int), args []string) {
	t := tb.b.t
	rerun := func(path string) {
		tb.eval(`document.getElementById("status").textContent = ""`)
		tb.setFiles("#policy", path)
		if _, err := tb.poll(`document.getElementById("status").textContent.startsWith("Checked")`, 30*time.Second); err != nil {
			t.Fatalf("%v; the page says %q", err, tb.eval(`document.getElementById("status").textContent`))
		}
	}
	pol, _ := filepath.Abs("policy.yaml")
	os.WriteFile(pol, []byte("required_approvals: 2\nprotected_branches: [main]\ntrusted_bots: ['dependabot[bot]']\n"), 0o644)
	rerun(pol)
	text, _ := run(append(append([]string{"audit"}, args...), "--policy", pol)...)
	_, want, ok := strings.Cut(text, "\nCONTROLS\n")
	if !ok {
		t.Fatalf("audit printed no CONTROLS:\n%s", text)
	}
	lines := tb.eval(`Array.from(document.querySelectorAll("#controls li")).map((li) => li.textContent).join("\n")`)
	for _, l := range strings.Split(fmt.Sprint(lines), "\n") {
		if !strings.Contains(want, l) {
			t.Errorf("the page's control line %q is not audit --policy's:\n%s", l, want)
		}
	}
	if got := tb.eval(`document.getElementById("policy-used").textContent`); got != "policy policy.yaml" {
		t.Errorf("the page says the controls are under %v", got)
	}
	bad, _ := filepath.Abs("bad.yaml")
	os.WriteFile(bad, []byte("required_aprovals: 2\n"), 0o644)
	rerun(bad)
	first := fmt.Sprint(tb.eval(`document.querySelector("#controls li").textContent`))
	if !strings.HasPrefix(first, "The policy file does not read, so no control was evaluated: bad.yaml: policy file:") ||
		!strings.Contains(first, "required_aprovals") {
		t.Errorf("a policy that does not read: the page says %q", first)
	}
	if n := tb.eval(`document.querySelectorAll("#controls li").length`); fmt.Sprint(n) != "1" {
		t.Errorf("%v control lines under a policy that does not read", n)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tamper changes one byte inside git/diff.patch and writes the archive again: the archive is sound, its
// content no longer what was signed.
func tamper(t *testing.T, archive []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	changed := false
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Name == "git/diff.patch" {
			data = bytes.Replace(data, []byte("login"), []byte("LOGIN"), 1)
			changed = true
		}
		tw.WriteHeader(hdr)
		tw.Write(data)
	}
	tw.Close()
	zw.Close()
	if !changed {
		t.Fatal("the demo bundle has no git/diff.patch to tamper with")
	}
	return out.Bytes()
}

// open navigates to a file and waits for it to load.
func (tb *tab) open(path string) {
	tb.b.t.Helper()
	u := (&url.URL{Scheme: "file", Path: path}).String()
	tb.must("Page.navigate", map[string]any{"url": u})
	tb.waitFor(`document.readyState === "complete" && location.href === `+jsString(u), 20*time.Second)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// setFiles sets a file input as if the user chose the file (DOM.setFileInputFiles fires its change event).
func (tb *tab) setFiles(selector, path string) {
	tb.b.t.Helper()
	var doc struct{ Root struct{ NodeID int } }
	json.Unmarshal(tb.must("DOM.getDocument", nil), &doc)
	var q struct{ NodeID int }
	json.Unmarshal(tb.must("DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": selector}), &q)
	tb.must("DOM.setFileInputFiles", map[string]any{"nodeId": q.NodeID, "files": []string{path}})
}

// screenshot saves the whole page as PNG.
func (tb *tab) screenshot(path string) {
	tb.b.t.Helper()
	var lm struct {
		CSSContentSize struct{ Width, Height float64 }
	}
	json.Unmarshal(tb.must("Page.getLayoutMetrics", nil), &lm)
	h := min(lm.CSSContentSize.Height, 12000)
	var shot struct{ Data string }
	json.Unmarshal(tb.must("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": 0, "width": 1280, "height": h, "scale": 1}}), &shot)
	data, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || len(data) == 0 {
		tb.b.t.Errorf("screenshot: %v", err)
		return
	}
	os.WriteFile(path, data, 0o644)
}

// checkQuiet fails the test on any request the page made other than reading its own file (and data: or blob:
// addresses, which never leave the browser), and on any Content Security Policy violation it reported.
func (tb *tab) checkQuiet() {
	tb.b.t.Helper()
	requests := 0
	for _, m := range tb.seen() {
		switch m.Method {
		case "Network.requestWillBeSent":
			var p struct{ Request struct{ URL string } }
			json.Unmarshal(m.Params, &p)
			requests++
			scheme, _, _ := strings.Cut(p.Request.URL, ":")
			switch scheme {
			case "file", "data", "blob", "about":
			default:
				tb.b.t.Errorf("the page made a network request: %s", p.Request.URL)
			}
		case "Log.entryAdded", "Runtime.consoleAPICalled", "Runtime.exceptionThrown":
			if s := string(m.Params); strings.Contains(s, "Content Security Policy") || m.Method == "Runtime.exceptionThrown" {
				tb.b.t.Errorf("%s: %s", m.Method, s)
			}
		}
	}
	if requests == 0 {
		tb.b.t.Error("no request seen at all, not even the page's own file: is the Network domain listening?")
	}
}
