// Command genwasm rebuilds the browser verifier that `git bernstein verify-page` embeds: run it with `go
// generate ./internal/verifypage` (or `make verify-wasm`) after changing the verifier or its dependencies, and
// commit the files it writes. The test TestCommittedWasmIsCurrent fails until you do.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-bernstein/git-bernstein/internal/atomicfile"
	"github.com/git-bernstein/git-bernstein/internal/verifypage/wasmbuild"
)

func main() {
	// go generate runs this in internal/verifypage; the module root is two levels up.
	out, err := wasmbuild.Build(context.Background(), "go", filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, "genwasm:", err)
		os.Exit(1)
	}
	for name, data := range map[string][]byte{
		"verify.wasm.gz": out.WasmGz,
		"wasm_exec.js":   out.WasmExec,
		"toolchain.txt":  []byte(out.GoVersion + "\n"),
	} {
		if err := atomicfile.WriteFile(name, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genwasm:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("genwasm: verify.wasm.gz %d bytes, built with %s\n", len(out.WasmGz), out.GoVersion)
}
