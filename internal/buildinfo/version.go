// Package buildinfo says which git-bernstein this is; bundles record it as bernstein_version, and the CLI
// (--version), the view page and the browser verify page all show it, so all four name the same build.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// version is set by the Makefile with -ldflags "-X …/buildinfo.version=…" (git describe --tags --always --dirty).
var version = ""

// fallback is set by the Makefile to the clone's commit (and "-dirty"), computed as Go computes its stamp:
// used only when Go stamped nothing, as in a linked worktree, where Go does not read the repository.
var fallback = ""

// Version is the release this binary was built from: the linker-set value (a release build's `make
// VERSION=…`), else the module version `go install …@vX` records or a tag `go build` found on the commit, else
// the commit `go build`, `go install ./cmd/git-bernstein` or `make` stamped from the clone (short hash,
// "-dirty" with uncommitted changes), else "dev" (a build with -buildvcs=false, or outside a clone).
// Since Go 1.24 `go build` in a clone records a pseudo-version such as
// v0.0.0-20261201030154-4c2e9b3abcde+dirty: that names the same commit, so it is shown as the commit, and
// every way of building from one clone gives one name.
func Version() string {
	bi, _ := debug.ReadBuildInfo()
	return Name(bi, version, fallback)
}

// Name is the version a binary with build information bi, linked with -X …version=v and -X …fallback=f, says
// it is (Version's rules): the release tool names a cross-built binary by it without running it.
func Name(bi *debug.BuildInfo, v, f string) string {
	if v != "" {
		return v
	}
	if s := fromBuildInfo(bi); s != "dev" || f == "" {
		return s
	}
	return f
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if bi == nil {
		return "dev"
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" && !stampedFrom(v, rev) {
		return v
	}
	if len(rev) < 7 {
		return "dev"
	}
	if dirty {
		return rev[:7] + "-dirty"
	}
	return rev[:7]
}

// stampedFrom reports whether v is the pseudo-version go build derives from the clone's commit rev
// (vX.Y.Z-[pre.0.]yyyymmddhhmmss-<12 hex of rev>[+dirty]), rather than a release version.
func stampedFrom(v, rev string) bool {
	if len(rev) < 12 {
		return false
	}
	v, _, _ = strings.Cut(v, "+")
	return strings.HasSuffix(v, "-"+rev[:12])
}
