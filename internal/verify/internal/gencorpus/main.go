// Command gencorpus writes the verifier's corpus of bad bundles: go generate ./internal/verify.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/git-bernstein/git-bernstein/internal/verify/internal/corpus"
)

func main() {
	out := flag.String("out", "testdata/verify", "corpus `DIR`")
	flag.Parse()
	if err := corpus.Write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}
