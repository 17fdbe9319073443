package release

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	gbuildinfo "github.com/git-bernstein/git-bernstein/internal/buildinfo"
)

// Target is one GOOS/GOARCH pair a release is built for.
type Target struct{ OS, Arch string }

// Targets are the platforms of a release: linux, darwin and windows × amd64 and arm64. On Windows the checks
// that keep a hostile archive or store from being written through a link are build-tagged equivalents of the
// unix ones (extract: os.Root, O_EXCL and the created file held to its entry with os.SameFile; lineage v2
// append: no reparse point, the opened file the one looked at, LockFileEx for flock).
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func (t Target) String() string { return t.OS + "/" + t.Arch }

// Programs are a release's programs, each built for every target: git runs git-bernstein, which answers
// `commits` and hands every other command to git-bernstein-full (package front).
var Programs = []string{"git-bernstein", "git-bernstein-full"}

// Binary is program's file name for the target in the release folder, with .exe for windows.
func (t Target) Binary(program string) string {
	name := program + "-" + t.OS + "-" + t.Arch
	if t.OS == "windows" {
		name += ".exe"
	}
	return name
}

// Binaries are the target's files in the release folder, one a program, in Programs' order.
func (t Target) Binaries() []string {
	var out []string
	for _, p := range Programs {
		out = append(out, t.Binary(p))
	}
	return out
}

// ParseTarget reads "os/arch".
func ParseTarget(s string) (Target, error) {
	os, arch, ok := strings.Cut(s, "/")
	if !ok || os == "" || arch == "" || strings.Contains(arch, "/") {
		return Target{}, fmt.Errorf("target %q is not os/arch (e.g. linux/amd64)", s)
	}
	return Target{os, arch}, nil
}

// Build is how the binaries are built (doc.go, "Reproducible").
type Build struct {
	Dir     string   // the module's root, where go build runs
	Out     string   // the release folder
	Targets []Target // default Targets
	LDFlags string   // the Makefile's -ldflags (-s -w and the version stamp); -buildid= is added
	Go      string   // the go command; default "go"
	Env     []string // the environment; default os.Environ()
}

// Flags are the go build flags of every binary, recorded in the provenance.
func (b Build) Flags() []string {
	return []string{"-trimpath", "-buildvcs=auto", "-ldflags=" + strings.TrimSpace(b.LDFlags+" -buildid=")}
}

// BuildEnv is the environment every target is built with besides GOOS and GOARCH.
var BuildEnv = map[string]string{"CGO_ENABLED": "0"}

// Run builds every program for every target into Out, one after another (go build already uses every core),
// and returns the build information of each binary, in target order and Programs' order within a target.
func (b Build) Run(ctx context.Context) ([]*debug.BuildInfo, error) {
	goCmd, env, targets := b.Go, b.Env, b.Targets
	if goCmd == "" {
		goCmd = "go"
	}
	if env == nil {
		env = os.Environ()
	}
	if targets == nil {
		targets = Targets
	}
	if err := os.MkdirAll(b.Out, 0o755); err != nil {
		return nil, err
	}
	out, err := filepath.Abs(b.Out)
	if err != nil {
		return nil, err
	}
	var infos []*debug.BuildInfo
	for _, t := range targets {
		for _, program := range Programs {
			bi, err := b.build(ctx, goCmd, env, t, program, filepath.Join(out, t.Binary(program)))
			if err != nil {
				return nil, err
			}
			infos = append(infos, bi)
		}
	}
	return infos, nil
}

// build builds program (./cmd/PROGRAM) for t at path and returns the binary's build information.
func (b Build) build(ctx context.Context, goCmd string, env []string, t Target, program, path string) (*debug.BuildInfo, error) {
	args := append(append([]string{"build"}, b.Flags()...), "-o", path, "./cmd/"+program)
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = b.Dir
	cmd.Env = append(append([]string{}, env...), "GOOS="+t.OS, "GOARCH="+t.Arch, "CGO_ENABLED="+BuildEnv["CGO_ENABLED"])
	var stderr bytes.Buffer
	cmd.Stderr, cmd.Stdout = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build of %s for %s: %v\n%s", program, t, err, stderr.Bytes())
	}
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: read its build information: %w", filepath.Base(path), err)
	}
	return bi, nil
}

// VersionOf is the version a binary built with ldflags says it is (`--version`, package buildinfo): the -X
// values of buildinfo.version and buildinfo.fallback in ldflags, and the VCS stamp in its build information.
func VersionOf(bi *debug.BuildInfo, ldflags string) string {
	var v, f string
	fields := strings.Fields(ldflags)
	for i, x := range fields {
		if x != "-X" || i+1 >= len(fields) {
			continue
		}
		name, val, _ := strings.Cut(fields[i+1], "=")
		switch name {
		case buildinfoPkg + ".version":
			v = val
		case buildinfoPkg + ".fallback":
			f = val
		}
	}
	return gbuildinfo.Name(bi, v, f)
}

const buildinfoPkg = "github.com/git-bernstein/git-bernstein/internal/buildinfo"
