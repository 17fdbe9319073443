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
		// go-git's storage, objects and config (gitext/objstore has them): their init and pages were most of
		// what the front took to reach main() beyond a static hello-world.
		"github.com/go-git/go-git/v5/plumbing/object", "github.com/go-git/go-git/v5/storage",
		"github.com/go-git/go-git/v5/storage/filesystem", "github.com/go-git/go-git/v5/config",
		"github.com/go-git/go-git/v5/plumbing/format/config", "github.com/go-git/gcfg", "encoding/gob",
		"github.com/sergi/go-diff/diffmatchpatch", "github.com/git-bernstein/git-bernstein/gitext/objstore",
		"go.yaml.in/yaml/v3", // bernstein.yaml is read for lineage v2 alone (lineage.Enabled), never by commits
	}
	linked := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		linked[p] = true
		if strings.HasPrefix(p, "github.com/ProtonMail/go-crypto/openpgp") { // OpenPGP, any part of it
			t.Errorf("cmd/git-bernstein links %s: keep it to git-bernstein-full", p)
		}
	}
	for _, p := range heavy {
		if linked[p] {
			t.Errorf("cmd/git-bernstein links %s: keep it to git-bernstein-full", p)
		}
	}
}
