package front_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The front is worth having only while it links little: every package it links starts up on every run of
// `git bernstein commits`. These are the ones that made the whole program start three times slower.
func TestFrontLinksLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list: make test runs it")
	}
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/git-bernstein/git-bernstein/cmd/git-bernstein").Output()
	if err != nil {
		t.Fatal(err)
	}
	heavy := []string{
		"github.com/go-git/go-git/v5", // its Repository links every transport (gitext/revparse has it)
		"github.com/go-git/go-git/v5/plumbing/transport",
		"github.com/minio/minio-go/v7", "oras.land/oras-go/v2", "github.com/google/go-github/v62/github",
		"github.com/urfave/cli/v3", "net/http", "golang.org/x/crypto/ssh", "github.com/go-jose/go-jose/v4",
		"github.com/git-bernstein/git-bernstein/internal/cli",
	}
	linked := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		linked[p] = true
	}
	for _, p := range heavy {
		if linked[p] {
			t.Errorf("cmd/git-bernstein links %s: keep it to git-bernstein-full", p)
		}
	}
}
