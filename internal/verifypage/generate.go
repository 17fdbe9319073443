package verifypage

// The verifier compiled to WebAssembly is committed (verify.wasm.gz, with the wasm_exec.js and Go version it
// was built with) so that `go install` builds a complete binary: regenerate after changing the verifier.
//go:generate go run ./genwasm
