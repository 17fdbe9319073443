// Command release is `make release`: it cross-builds git-bernstein for every target into one folder and writes
// the SBOM, SHA256SUMS, its SSHSIG and the signed SLSA provenance beside the binaries (package release).
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
	"os"
	"os/exec"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/release"
	"github.com/git-bernstein/git-bernstein/internal/signing"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	out := flag.String("out", "build/release", "the release `folder` (emptied first)")
	ldflags := flag.String("ldflags", "-s -w", "go build -ldflags (the Makefile's: -s -w and the version stamp); -buildid= is added")
	targets := flag.String("targets", "", "comma-separated os/arch `list` (default: linux, darwin, windows × amd64, arm64)")
	key := flag.String("sign-key", "", "signing key `FILE` (default: git config bernstein.signingKey)")
	kid := flag.String("sign-kid", "", "kid (default: the SSH key's SHA256: fingerprint)")
	flag.Parse()
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	sg, err := signing.Resolve(signing.Request{Key: *key, Kid: *kid, Wd: wd, Config: gitConfig})
	if err != nil {
		return err
	}
	if sg == nil {
		return errors.New("a release is signed: give SIGN_KEY=FILE to make release (an Ed25519 SSH or PKCS#8 key; SIGN_KID=… for PKCS#8), or git config bernstein.signingKey")
	}
	defer sg.Close()
	b := release.Build{Dir: wd, Out: *out, LDFlags: *ldflags}
	if *targets != "" {
		for _, s := range strings.Split(*targets, ",") {
			t, err := release.ParseTarget(strings.TrimSpace(s))
			if err != nil {
				return err
			}
			b.Targets = append(b.Targets, t)
		}
	} else {
		b.Targets = release.Targets
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "building %d targets into %s…\n", len(b.Targets), *out)
	infos, err := b.Run(context.Background())
	if err != nil {
		return err
	}
	facts := release.BuildFacts{Targets: b.Targets, Flags: b.Flags(), Env: release.BuildEnv}
	facts.Commit, facts.Dirty = gitHead()
	var binaries []string
	for _, t := range b.Targets {
		binaries = append(binaries, t.Binary())
	}
	// The release is named as its binaries name themselves (--version, package buildinfo).
	facts.Version = release.VersionOf(infos[0], *ldflags)
	if err := release.Write(*out, binaries, infos, facts, sg.Key, sg.Kid); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "release %s in %s, signed as %q; check it with: git bernstein verify-release %s --card CARD\n", facts.Version, *out, sg.Kid, *out)
	return nil
}

// gitConfig reads one git config value, as signing.Request.Config wants it.
func gitConfig(key string) (string, bool) {
	v, err := exec.Command("git", "config", "--get", key).Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(v)), true
}

// gitHead is the clone's commit and whether it has changes (git status --porcelain, as Go's stamp reads it).
func gitHead() (string, bool) {
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "", false
	}
	st, _ := exec.Command("git", "status", "--porcelain").Output()
	return strings.TrimSpace(string(rev)), len(strings.TrimSpace(string(st))) > 0
}
