package report

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/manifest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
	"github.com/git-bernstein/git-bernstein/internal/verify"
	"github.com/git-bernstein/git-bernstein/internal/verify/verifytest"
)

// testBundle writes a bundle as the bundle writer lays it out (manifest first, members sorted), signs its
// manifest, and returns the archive, the .jws and the trusted key. tamper, when set, changes a member's bytes
// after the manifest was made.
func testBundle(t *testing.T, files map[string]string, tamper func(name string, data []byte) []byte) ([]byte, []byte, []sign.TrustedKey) {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	m := &manifest.Manifest{SchemaVersion: 1, CreatedAt: "2026-01-01T00:00:00Z", BernsteinVersion: "test", Tracker: "github",
		TicketID: "ENG-42", Files: []manifest.Entry{}, Commits: []string{}}
	// The manifest lists the commits git/commits.json does, as bundle writes it (the verifier's commits check).
	var doc struct {
		Commits []string `json:"commits"`
	}
	if json.Unmarshal([]byte(files["git/commits.json"]), &doc) == nil && doc.Commits != nil {
		m.Commits = doc.Commits
	}
	for _, n := range names {
		sum := sha256.Sum256([]byte(files[n]))
		section, _, _ := strings.Cut(n, "/")
		m.Files = append(m.Files, manifest.Entry{Arcname: n, SizeBytes: int64(len(files[n])), SHA256: hex.EncodeToString(sum[:]), Section: section})
	}
	mj, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	put := func(name string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	put(manifest.Name, mj)
	for _, n := range names {
		data := []byte(files[n])
		if tamper != nil {
			data = tamper(n, data)
		}
		put(n, data)
	}
	tw.Close()
	zw.Close()

	pub, priv, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	canon, err := sign.Canonicalize(mj)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := sign.SignDetached(priv, "test-2026", canon)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), []byte(jws), []sign.TrustedKey{{Kid: "test-2026", Public: pub, Source: "test card"}}
}

func render(t *testing.T, archive, sig []byte, keys []sign.TrustedKey) (string, *Bundle) {
	t.Helper()
	b := Read(bytes.NewReader(archive), sig, keys, verify.Options{})
	var out bytes.Buffer
	if err := Write(&out, b, "test"); err != nil {
		t.Fatal(err)
	}
	return out.String(), b
}

const (
	commitsJSON = `{"tracker":"github","ticket_id":"ENG-42","commits":["72d901313566b7dc2a317d2bd7de75e9eb787ae3"],
"details":[{"sha":"72d901313566b7dc2a317d2bd7de75e9eb787ae3","parents":[],"author":{"name":"Ada Agent","email":"ada@agents.example","date":"2026-01-01T02:00:00Z"},
"committer":{"name":"Rita","email":"rita@example.com","date":"2026-01-01T02:00:00Z"},"subject":"Add login handler","matched_by":["trailer:Refs","message"]}]}`
	diffPatch = "From 72d901313566b7dc2a317d2bd7de75e9eb787ae3 Mon Sep 17 00:00:00 2001\nFrom: Ada Agent <ada@agents.example>\n" +
		"Subject: [PATCH] Add login handler\n\n---\ndiff --git a/src/login.py b/src/login.py\n--- a/src/login.py\n+++ b/src/login.py\n" +
		"@@ -1 +1 @@\n-def login(): pass\n+def login(): check()\n-- \ngit-bernstein test\n"
	prJSON      = `{"number":17,"title":"ENG-42: log in with email","state":"closed","html_url":"https://github.com/acme/app/pull/17","user":{"login":"ada-author"},"body":"Adds login.","merged":true,"merged_at":"2026-01-02T10:00:00Z","merged_by":{"login":"carol-maintainer"}}`
	reviewsJSON = `[{"user":{"login":"bo-reviewer"},"state":"CHANGES_REQUESTED","submitted_at":"2026-01-01T13:00:00Z","body":"hash it"},` +
		`{"user":{"login":"bo-reviewer"},"state":"APPROVED","submitted_at":"2026-01-02T09:00:00Z","body":"ok now"},` +
		`{"user":{"login":"dee"},"state":"COMMENTED","submitted_at":"2026-01-02T09:30:00Z","body":"nit"}]`
	sourcesJSON = `{"v":1,"members":[` +
		`{"arcname":"pr/pr_17.json","source":"fetched","path":null,"requests":[{"url":"https://api.github.com/repos/acme/app/pulls/17","source":"fetched","etag":null,"cached_at":null}]},` +
		`{"arcname":"pr/pr_17.reviews.json","source":"cache","path":null,"requests":[{"url":"https://api.github.com/repos/acme/app/pulls/17/reviews?per_page=100","source":"cache","etag":"\"r1\"","cached_at":"2025-12-31T21:00:00Z"}]}]}`
)

func fullBundle() map[string]string {
	return map[string]string{
		"git/commits.json":            commitsJSON,
		"git/diff.patch":              diffPatch,
		"pr/pr_17.json":               prJSON,
		"pr/pr_17.reviews.json":       reviewsJSON,
		"pr/sources.json":             sourcesJSON,
		"transcripts/coder-s1.jsonl":  `{"role":"user","content":"Implement login for ENG-42"}` + "\n" + `{"role":"assistant","content":[{"type":"text","text":"Added src/login.py"}]}` + "\n" + `{"weird":[1,2,3]}` + "\nnot json at all\n",
		"traces/ENG-42-trace.jsonl":   `{"span":"plan","task":"ENG-42","ts":"2026-01-01T01:00:00Z","ms":120}` + "\n",
		"lineage/tracker_audit.jsonl": `{"event":"ticket.opened","tracker_name":"github","ticket_id":"ENG-42","ts":"2026-01-01T01:00:00Z"}` + "\n",
		"audit/2026-01-01.jsonl":      `{"seq":1,"actor":"coder","action":"write","meta":{"ticket":"ENG-42"}}` + "\n",
	}
}

// TestEverySection renders a signed bundle with every kind of member and looks for what a reader looks for.
func TestEverySection(t *testing.T) {
	t.Parallel()
	archive, sig, keys := testBundle(t, fullBundle(), nil)
	out, b := render(t, archive, sig, keys)
	if b.Report.Verdict != verify.Verified {
		t.Fatalf("verdict %s\n%s", b.Report.Verdict, b.Report.Text())
	}
	// Every check line exactly as verify prints it.
	for _, l := range strings.Split(strings.TrimSuffix(b.Report.Text(), "\n"), "\n") {
		if !strings.Contains(out, ">"+htmlText(l)+"</li>") {
			t.Errorf("check line missing: %q", l)
		}
	}
	for _, want := range []string{
		`<section id="verdict">`, `<div class="banner v-VERIFIED">`, `<div class="word">VERIFIED</div>`,
		`<section id="ticket">`, `<dt>Ticket</dt><dd>ENG-42</dd>`,
		`<section id="pr">`, `#17 ENG-42: log in with email`, `<dt>Author</dt><dd>ada-author</dd>`,
		`<dt>Merged by</dt><dd>carol-maintainer</dd>`, `1 approval: bo-reviewer`, `<td>CHANGES_REQUESTED</td>`,
		`<dt>Source</dt><dd>fetched from GitHub: https://api.github.com/repos/acme/app/pulls/17</dd>`,
		`<dt>Reviews source</dt><dd>GitHub&#39;s answer from the ETag cache (304 Not Modified): https://api.github.com/repos/acme/app/pulls/17/reviews?per_page=100 (ETag &#34;r1&#34;, cached at 2025-12-31T21:00:00Z, 3 h before the bundle was made)</dd>`,
		`<section id="commits">`, `<td class="mono">72d901313566</td><td>Ada Agent &lt;ada@agents.example&gt;</td>`, `<td>trailer:Refs, message</td>`,
		`<section id="diff">`, `Files: <span class="mono">src/login.py</span>`, `<span class="del">-def login(): pass</span>`,
		`<span class="add">&#43;def login(): check()</span>`, `<span class="hunk">@@ -1 &#43;1 @@</span>`, `<span class="meta">-- </span>`,
		`<section id="transcripts">`, `<h3>Agent coder, session s1</h3>`, `<div class="msg user"><div class="role">user</div><div class="text">Implement login for ENG-42</div>`,
		`<div class="msg assistant"><div class="role">assistant</div><div class="text">Added src/login.py</div>`,
		`<pre>{&#34;weird&#34;:[1,2,3]}</pre>`, `<pre>not json at all</pre>`,
		`<section id="traces">`, `<span class="when">2026-01-01T01:00:00Z</span><span class="what">plan</span><span class="kv">ms=120, task=ENG-42</span>`,
		`<section id="records">`, `<th>event</th><th>tracker_name</th><th>ticket_id</th><th>ts</th>`, `<td>ticket.opened</td>`,
		`<th>seq</th><th>actor</th><th>action</th><th>meta</th>`, `<td>{&#34;ticket&#34;:&#34;ENG-42&#34;}</td>`,
		`<section id="manifest">`, `<td class="mono">pr/pr_17.reviews.json</td><td>pr</td>`, `<td class="pass">matches</td>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(out, "not VERIFIED") {
		t.Error("a VERIFIED page warns that it is not verified")
	}
}

// TestPRSourceOnThePage: beside each pull request the page says where it came from; an offline copy from
// .sdd/pr, or a bundle that does not say, is marked, since VERIFIED must not read as GitHub having said it.
func TestPRSourceOnThePage(t *testing.T) {
	t.Parallel()
	files := fullBundle()
	files["pr/sources.json"] = strings.Replace(sourcesJSON, `"source":"cache","path":null,"requests":[{"url":"https://api.github.com/repos/acme/app/pulls/17/reviews?per_page=100","source":"cache","etag":"\"r1\"","cached_at":"2025-12-31T21:00:00Z"}]`,
		`"source":"offline","path":".sdd/pr/pr_17.reviews.json","requests":[]`, 1)
	archive, sig, keys := testBundle(t, files, nil)
	out, b := render(t, archive, sig, keys)
	if b.Report.Verdict != verify.Verified || len(b.Report.Warnings) != 1 {
		t.Fatalf("verdict %s, warnings %q\n%s", b.Report.Verdict, b.Report.Warnings, b.Report.Text())
	}
	for _, want := range []string{
		`<dt>Source</dt><dd>fetched from GitHub: https://api.github.com/repos/acme/app/pulls/17</dd>`,
		`<dt>Reviews source</dt><dd class="note">offline copy from .sdd/pr/pr_17.reviews.json, not from GitHub</dd>`,
		`[WARN] pr-sources — 1 of 2 pr/ members is an offline copy from .sdd/pr, not from GitHub`,
		`- pr/pr_17.reviews.json: offline copy from .sdd/pr/pr_17.reviews.json, not from GitHub`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %s", want)
		}
	}

	delete(files, "pr/sources.json")
	archive, sig, keys = testBundle(t, files, nil)
	out, _ = render(t, archive, sig, keys)
	if want := `<dt>Source</dt><dd class="note">not recorded: the bundle has no pr/sources.json, so this may be GitHub&#39;s answer or an offline copy from .sdd/pr</dd>`; !strings.Contains(out, want) {
		t.Errorf("page lacks %s", want)
	}
}

// htmlText escapes s as html/template does in text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}

// TestHostileText puts markup, script ends and control characters everywhere bundle text reaches the page.
func TestHostileText(t *testing.T) {
	t.Parallel()
	evil := "</script><script>alert(1)</script><img src=x onerror=alert(2)><style>*{}</style>\x1b[2J\x00\u202e<!--"
	q := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\x1b", `\u001b`, "\x00", `\u0000`).Replace(evil)
	files := map[string]string{
		"git/commits.json": `{"tracker":"github","ticket_id":"ENG-42","commits":["` + q + `"],"details":[{"sha":"` + q + `","parents":[],` +
			`"author":{"name":"` + q + `","email":"` + q + `","date":"` + q + `"},"committer":{"name":"","email":"","date":""},"subject":"` + q + `","matched_by":["` + q + `"]}]}`,
		"git/diff.patch":                  "From 72d901313566b7dc2a317d2bd7de75e9eb787ae3 Mon Sep 17 00:00:00 2001\nSubject: " + evil + "\n---\ndiff --git a/" + evil + " b/" + evil + "\n+" + evil + "\n",
		"pr/pr_1.json":                    `{"number":1,"title":"` + q + `","user":{"login":"` + q + `"},"body":"` + q + `","html_url":"javascript:alert(3)"}`,
		"pr/pr_1.reviews.json":            `[{"user":{"login":"` + q + `"},"state":"APPROVED","body":"` + q + `"}]`,
		"transcripts/a-b.jsonl":           `{"role":"` + q + `","content":"` + q + `"}` + "\n" + evil + "\n",
		"traces/t.jsonl":                  `{"ts":"` + q + `","span":"` + q + `","` + q + `":"` + q + `"}` + "\n",
		"lineage/l.jsonl":                 `{"` + q + `":"` + q + `"}` + "\n",
		"audit/<img src=x onerror=1>.log": evil,
	}
	archive, sig, keys := testBundle(t, files, nil)
	out, b := render(t, archive, sig, keys)
	if b.Report.Verdict != verify.Verified || len(b.Members) != len(files) {
		t.Fatalf("verdict %s, %d members\n%s", b.Report.Verdict, len(b.Members), b.Report.Text())
	}
	for _, bad := range []string{"<script", "</script", "<img", "<style>*", "\x1b", "\x00", "\u202e", "<!--", "javascript:alert(3)\""} {
		if strings.Contains(out, bad) {
			i := strings.Index(out, bad)
			t.Errorf("page holds %q unescaped: …%s…", bad, out[max(0, i-80):min(len(out), i+80)])
		}
	}
	if n := strings.Count(out, "&lt;img src=x onerror=alert(2)&gt;"); n < 15 {
		t.Errorf("escaped text shown %d times, want it in every section", n)
	}
	// Every tag in the page is one of the template's.
	allowed := map[string]bool{}
	for _, tag := range regexp.MustCompile(`</?([a-z0-9]+)`).FindAllStringSubmatch(pageTemplate+picturesTemplate, -1) {
		allowed[tag[1]] = true
	}
	for _, tag := range regexp.MustCompile(`</?([a-zA-Z0-9]+)`).FindAllStringSubmatch(out, -1) {
		if !allowed[tag[1]] {
			t.Errorf("tag <%s> in the page is not the template's", tag[1])
		}
	}
}

// TestPolicy checks the page's Content Security Policy: present, nothing may load, and the inline style is
// allowed by the hash of its exact bytes.
func TestPolicy(t *testing.T) {
	t.Parallel()
	archive, sig, keys := testBundle(t, fullBundle(), nil)
	out, _ := render(t, archive, sig, keys)
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no CSP meta element")
	}
	policy := html.UnescapeString(m[1])
	if strings.Index(out, m[0]) > strings.Index(out, "<style>") {
		t.Error("the CSP must come before anything it governs")
	}
	styles := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(out, -1)
	if len(styles) != 1 {
		t.Fatalf("%d style elements, want 1", len(styles))
	}
	sum := sha256.Sum256([]byte(styles[0][1]))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	want := "default-src 'none'; style-src " + hash + "; img-src 'none'; base-uri 'none'; form-action 'none'"
	if policy != want {
		t.Errorf("policy\n%s\nwant\n%s", policy, want)
	}
	for _, bad := range []string{"<script", " style=", "src=", "<link", "@import", "url("} {
		if strings.Contains(out, bad) {
			t.Errorf("page has %q, which the policy would block or which could load something", bad)
		}
	}
	for _, h := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(h[1], "#") {
			t.Errorf("link to %s: the page links only within itself", h[1])
		}
	}
}

// TestRefusedArchive: an archive the verifier refuses shows its report and none of its members.
func TestRefusedArchive(t *testing.T) {
	t.Parallel()
	archive, sig, keys := testBundle(t, fullBundle(), nil)
	cases := map[string][]byte{
		"appended data": append(append([]byte{}, archive...), "MARKER"...),
		"truncated":     archive[:len(archive)-20],
		"not gzip":      []byte("Implement login for ENG-42"),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			out, b := render(t, data, sig, keys)
			if b.Report.ExitCode == 0 || b.Members != nil {
				t.Fatalf("exit %d, %d members", b.Report.ExitCode, len(b.Members))
			}
			if !strings.Contains(out, `class="banner v-`+b.Report.Verdict+`"`) || !strings.Contains(out, "nothing inside the archive is shown") {
				t.Error("no verdict banner or no note")
			}
			if strings.Contains(out, "Implement login") || strings.Contains(out, "def login") {
				t.Error("a member of a refused archive is shown")
			}
		})
	}
}

// TestTamperedMember: the verifier says FAILED, the page shows the member marked as differing and warns.
func TestTamperedMember(t *testing.T) {
	t.Parallel()
	archive, sig, keys := testBundle(t, fullBundle(), func(name string, data []byte) []byte {
		if name == "git/diff.patch" {
			return bytes.Replace(data, []byte("check()"), []byte("True  "), 1)
		}
		return data
	})
	out, b := render(t, archive, sig, keys)
	if b.Report.Verdict != verify.Failed {
		t.Fatalf("verdict %s", b.Report.Verdict)
	}
	for _, want := range []string{`<div class="banner v-FAILED">`, `<td class="fail">differs: the archive holds`, "not VERIFIED", "[FAIL] files"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Unsigned: UNVERIFIABLE.
	out, b = render(t, archive[:0:0], nil, nil)
	if b.Report.Verdict != verify.Unverifiable || !strings.Contains(out, `v-UNVERIFIABLE`) {
		t.Errorf("empty archive: %s", b.Report.Verdict)
	}
}

// TestLargeMember: a member past the display limit is cut, with its full size and hash.
func TestLargeMember(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", MaxMemberShown) + "TAIL-NOT-SHOWN"
	files := map[string]string{"audit/big.log": big, "git/diff.patch": diffPatch}
	archive, sig, keys := testBundle(t, files, nil)
	out, b := render(t, archive, sig, keys)
	if b.Report.Verdict != verify.Verified {
		t.Fatal(b.Report.Text())
	}
	if strings.Contains(out, "TAIL-NOT-SHOWN") {
		t.Error("the member is not cut")
	}
	if !strings.Contains(out, "256.0 KiB (262158 B); only the first part is shown") {
		i := strings.Index(out, "audit/big.log")
		t.Errorf("no size and truncation note: %s", out[i:i+200])
	}
	sum := sha256.Sum256([]byte(big))
	if !strings.Contains(out, hex.EncodeToString(sum[:])) {
		t.Error("no full hash")
	}
}

// TestPageBoundedWhateverTheNames: thousands of 4,000-byte names (the verifier's cap is 4 KiB each, 16 MiB in
// all) still give a page within its limit; what does not fit is counted, not shown.
func TestPageBoundedWhateverTheNames(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	t.Parallel()
	files := map[string]string{}
	for i := 0; i < 4000; i++ {
		name := fmt.Sprintf("traces/%04d-%s.jsonl", i, strings.Repeat("n", 3978))
		files[name] = "{}\n"
	}
	archive, sig, keys := testBundle(t, files, nil)
	page, b := render(t, archive, sig, keys)
	if b.Report.Verdict != verify.Verified {
		t.Fatalf("verdict %s\n%s", b.Report.Verdict, b.Report.Text())
	}
	if b.Omitted == 0 {
		t.Errorf("no member was left out of the page, although the names alone pass its budget")
	}
	// The page's bundle content is at most MaxTotalShown; markup around each member adds a little.
	if len(page) > MaxTotalShown+2<<20 {
		t.Errorf("page is %d bytes for %d bytes of names: the budget does not hold", len(page), 4000*4000)
	}
	if !strings.Contains(page, "not shown at all") || !strings.Contains(page, "more rows") {
		t.Errorf("the page does not say what it left out")
	}
}

// TestCorpusOnThePage: view gives every corpus case the verdict verify gives (the forged tar shapes included), and
// shows no member of an archive whose archive check failed.
func TestCorpusOnThePage(t *testing.T) {
	t.Parallel()
	for _, c := range verifytest.Cases(t) {
		b := Read(bytes.NewReader(c.Archive), c.Signature, c.Keys, c.Options)
		if b.Report.ExitCode != c.Exit || b.Report.FirstFailure() != c.FirstFailure {
			t.Errorf("%s (%s): exit %d, first failure %q; want %d, %q", c.Name, c.Defect, b.Report.ExitCode, b.Report.FirstFailure(), c.Exit, c.FirstFailure)
		}
		if c.FirstFailure == verify.CheckArchive && (len(b.Members) > 0 || b.ManifestJSON != nil) {
			t.Errorf("%s: members kept for the page although the archive check failed", c.Name)
		}
	}
}
