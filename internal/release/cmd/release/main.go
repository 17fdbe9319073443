// Command release is `make release`: it cross-builds git-bernstein for every target into one folder and writes
// the SBOM (package sbom), SHA256SUMS, its SSHSIG and the signed SLSA provenance beside the binaries (package
// release, doc.go).
//
//	go run ./internal/release/cmd/release -out build/release -ldflags '<the Makefile's LDFLAGS>' [-sign-key KEY] [-sign-kid KID] [-targets linux/amd64,…]
//
// The key is resolved as bundle resolves it (package signing): -sign-key, else git config bernstein.signingKey,
// else git's user.signingKey when gpg.format is ssh.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/release"
	"github.com/git-bernstein/git-bernstein/internal/release/sbom"
	"github.com/git-bernstein/git-bernstein/internal/signing"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", ".", "the module's root `folder`, where go build runs")
	out := fs.String("out", "build/release", "the release `folder` (emptied first)")
	ldflags := fs.String("ldflags", "-s -w", "go build -ldflags (the Makefile's: -s -w and the version stamp); -buildid= is added")
	targets := fs.String("targets", "", "comma-separated os/arch `list` (default: linux, darwin × amd64, arm64)")
	key := fs.String("sign-key", "", "signing key `FILE` (default: git config bernstein.signingKey)")
	kid := fs.String("sign-kid", "", "kid (default: the SSH key's SHA256: fingerprint)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	git := func(args ...string) (string, error) {
		b, err := exec.Command("git", append([]string{"-C", root}, args...)...).Output()
		return strings.TrimSpace(string(b)), err
	}
	sg, err := signing.Resolve(signing.Request{Key: *key, Kid: *kid, Wd: wd, Config: func(k string) (string, bool) {
		v, err := git("config", "--get", k)
		return v, err == nil
	}})
	if err != nil {
		return err
	}
	if sg == nil {
		return errors.New("a release is signed: give SIGN_KEY=FILE to make release (an Ed25519 SSH or PKCS#8 key; SIGN_KID=… for PKCS#8), or git config bernstein.signingKey")
	}
	defer sg.Close()
	b := release.Build{Dir: root, Out: *out, LDFlags: *ldflags, Targets: release.Targets}
	if *targets != "" {
		b.Targets = nil
		for _, s := range strings.Split(*targets, ",") {
			t, err := release.ParseTarget(strings.TrimSpace(s))
			if err != nil {
				return err
			}
			b.Targets = append(b.Targets, t)
		}
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "building %d targets into %s…\n", len(b.Targets), *out)
	infos, err := b.Run(context.Background())
	if err != nil {
		return err
	}
	facts := release.BuildFacts{Targets: b.Targets, Flags: b.Flags(), Env: release.BuildEnv}
	// The commit, and whether the clone has changes (git status --porcelain, as Go's stamp reads it).
	facts.Commit, _ = git("rev-parse", "HEAD")
	status, _ := git("status", "--porcelain")
	facts.Dirty = status != ""
	var binaries []string
	for _, t := range b.Targets {
		binaries = append(binaries, t.Binaries()...)
	}
	// The release is named as its binaries name themselves (--version, package buildinfo).
	facts.Version = release.VersionOf(infos[0], *ldflags)
	doc, err := sbom.Document(facts.Version, infos)
	if err != nil {
		return err
	}
	if err := release.Write(*out, binaries, infos, doc, facts, sg.Key, sg.Kid); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "release %s in %s, signed as %q; check it with: git bernstein verify-release %s --card CARD\n", facts.Version, *out, sg.Kid, *out)
	return nil
}
