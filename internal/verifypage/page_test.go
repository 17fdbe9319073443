package verifypage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/verifypage/wasmbuild"
)

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// TestPagePolicy: the CSP forbids every connection and load, and allows exactly the page's inline scripts and
// style, by the hashes of their exact bytes.
func TestPagePolicy(t *testing.T) {
	page := string(Page(`v1.2.3<script>`))
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no CSP meta element")
	}
	policy := html.UnescapeString(m[1])
	var scripts []string
	for _, s := range regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1) {
		scripts = append(scripts, hashOf(s[1]))
	}
	styles := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(page, -1)
	if len(scripts) != 2 || len(styles) != 1 {
		t.Fatalf("%d scripts, %d styles; want 2 and 1", len(scripts), len(styles))
	}
	want := "default-src 'none'; connect-src 'none'; script-src " + strings.Join(scripts, " ") +
		" 'wasm-unsafe-eval'; style-src " + hashOf(styles[0][1]) + "; img-src 'none'; base-uri 'none'; form-action 'none'"
	if policy != want {
		t.Errorf("policy\n%s\nwant\n%s", policy, want)
	}
	for _, bad := range []string{"unsafe-inline", "'unsafe-eval'", " src=", "<link", "innerHTML", "eval(", "fetch("} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if strings.Contains(page, "v1.2.3<script>") {
		t.Error("version not escaped")
	}
	// The data block holds the embedded verifier, and nothing in the inline scripts closes their element early.
	block := regexp.MustCompile(`<script type="application/octet-stream" id="verifier">([A-Za-z0-9+/=]+)</script>`).FindStringSubmatch(page)
	if block == nil {
		t.Fatal("no verifier data block")
	}
	if gz, err := base64.StdEncoding.DecodeString(block[1]); err != nil || !bytes.Equal(gz, wasmGz) || !bytes.HasPrefix(gz, []byte{0x1f, 0x8b}) {
		t.Errorf("data block is not the embedded verifier: %v", err)
	}
	for _, s := range []string{wasmExec, pageJS, pageCSS} {
		if strings.Contains(strings.ToLower(s), "</script") || strings.Contains(strings.ToLower(s), "</style") {
			t.Error("an inline asset would close its element early")
		}
	}
}

// TestCommittedWasmIsCurrent rebuilds the verifier for js/wasm exactly as `go generate` does and compares it
// with the committed verify.wasm.gz and wasm_exec.js, so the page never ships a verifier older than the code.
func TestCommittedWasmIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the verifier for js/wasm (about 20 s cold)")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go") //nolint:staticcheck // SA1019: the go that built this test, when still there
	if _, err := os.Stat(goTool); err != nil {
		if goTool, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to rebuild with")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := wasmbuild.Build(ctx, goTool, filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if out.GoVersion != Toolchain() {
		t.Skipf("the committed verifier was built with %s, this toolchain is %s: byte comparison needs the same Go; "+
			"run `make verify-wasm` with %s to check, or regenerate and commit if you moved Go on purpose", Toolchain(), out.GoVersion, Toolchain())
	}
	if !bytes.Equal(out.WasmExec, []byte(wasmExec)) {
		t.Error("wasm_exec.js differs from this toolchain's: run `make verify-wasm` and commit internal/verifypage")
	}
	if !bytes.Equal(out.WasmGz, wasmGz) {
		t.Errorf("verify.wasm.gz is stale (rebuilt %d bytes, committed %d): the verifier or a dependency changed; "+
			"run `make verify-wasm` (go generate ./internal/verifypage) and commit internal/verifypage", len(out.WasmGz), len(wasmGz))
	}
}

// TestWrite: the file holds exactly Page's bytes, and a folder that does not exist is an error naming the path.
func TestWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "verify.html")
	w, err := Write(path, "v9.9.9")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Page("v9.9.9")) || w.Size != len(got) || w.Toolchain != Toolchain() {
		t.Errorf("wrote %d bytes (reported %d, toolchain %q); want Page's %d, %q", len(got), w.Size, w.Toolchain,
			len(Page("v9.9.9")), Toolchain())
	}
	bad := filepath.Join(dir, "nodir", "verify.html")
	if _, err := Write(bad, "v"); err == nil || !strings.HasPrefix(err.Error(), "write "+bad+": ") {
		t.Errorf("Write into a missing folder: %v; want an error naming %s", err, bad)
	}
}
