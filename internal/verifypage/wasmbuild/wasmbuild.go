// Package wasmbuild builds the browser verifier (cmd/verify-wasm) the one way the committed copy is built, so
// that `go generate` and the test that checks the committed copy make the same bytes.
package wasmbuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Package is the main package compiled to WebAssembly.
const Package = "./cmd/verify-wasm"

// Flags are fixed so the output depends only on the sources, the modules and the Go version: no paths
// (-trimpath), no VCS stamp (it would change with every commit), no symbol tables (half the size).
var Flags = []string{"build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w"}

// Output is what the page embeds.
type Output struct {
	WasmGz    []byte // the verifier, gzip-compressed (no name, no time, so reproducible)
	WasmExec  []byte // Go's own wasm_exec.js from the same toolchain: the two must match
	GoVersion string // `go env GOVERSION` of that toolchain
}

// Build compiles the verifier with the go command goTool from the module in moduleDir.
func Build(ctx context.Context, goTool, moduleDir string) (*Output, error) {
	env := func(name string) (string, error) {
		out, err := exec.CommandContext(ctx, goTool, "env", name).Output()
		if err != nil {
			return "", fmt.Errorf("go env %s: %w", name, err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	version, err := env("GOVERSION")
	if err != nil {
		return nil, err
	}
	root, err := env("GOROOT")
	if err != nil {
		return nil, err
	}
	// Go 1.24 moved it from misc/wasm to lib/wasm.
	var wasmExec []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if wasmExec, err = os.ReadFile(filepath.Join(root, p)); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("find wasm_exec.js in GOROOT %s: %w", root, err)
	}
	tmp, err := os.MkdirTemp("", "verify-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "verify.wasm")
	cmd := exec.CommandContext(ctx, goTool, append(Flags, "-o", out, Package)...)
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=", "GOWASM=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("build %s for js/wasm: %w\n%s", Package, err, stderr.String())
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(wasm); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return &Output{WasmGz: gz.Bytes(), WasmExec: wasmExec, GoVersion: version}, nil
}
