// Package verifypage is `git bernstein verify-page`: the verifier as one self-contained HTML file. The Go
// verifier compiled to WebAssembly (cmd/verify-wasm, committed gzip-compressed beside this file) is embedded with
// Go's wasm_exec.js and a small page that reads the auditor's files and shows the same check lines and verdict as
// the CLI. Its Content Security Policy forbids every load and connection, so no file leaves the browser.
package verifypage

import (
	_ "embed"
	"encoding/base64"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/report/csp"
)

var (
	//go:embed verify.wasm.gz
	wasmGz []byte
	//go:embed wasm_exec.js
	wasmExec string
	//go:embed toolchain.txt
	toolchain string
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// Toolchain is the Go version the embedded verifier was built with.
func Toolchain() string { return strings.TrimSpace(toolchain) }

// Policy is the page's Content Security Policy. default-src 'none' and connect-src 'none' forbid every fetch,
// including of data: and blob: addresses; the two inline scripts and the inline style are allowed by the
// SHA-256 of their exact text; 'wasm-unsafe-eval' lets the page compile the embedded WebAssembly and nothing
// else (no eval). The verifier's bytes sit in a data block (<script type="application/octet-stream">), which
// browsers never run, so it needs no hash.
func Policy() string {
	return "default-src 'none'; connect-src 'none'; script-src " + csp.Hash(wasmExec) + " " + csp.Hash(pageJS) +
		" 'wasm-unsafe-eval'; style-src " + csp.Hash(pageCSS) + "; img-src 'none'; base-uri 'none'; form-action 'none'"
}

// Page returns the HTML file. version names the git-bernstein that wrote it; the verifier inside is the one
// this binary embeds.
func Page(version string) []byte {
	r := strings.NewReplacer(
		"{{CSP}}", Policy(),
		"{{STYLE}}", pageCSS,
		"{{VERSION}}", escape(version),
		"{{WASM}}", base64.StdEncoding.EncodeToString(wasmGz),
		"{{WASMEXEC}}", wasmExec,
		"{{PAGEJS}}", pageJS,
	)
	return []byte(r.Replace(pageHTML))
}

// escape makes the version string plain text: it comes from the build, but costs nothing to keep inert.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
