package verify

// The corpus of bad bundles in testdata/verify (one defect each, expected exit code and first failing check,
// pinned by sha256 in index.json) is written by a program, so that every defect is reproducible and reviewable.
//go:generate go run ./internal/gencorpus -out ../../testdata/verify
