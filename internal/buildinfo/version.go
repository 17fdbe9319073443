// Package buildinfo says which git-bernstein this is; bundles record it as bernstein_version, and the CLI
// (--version), the view page and the browser verify page all show it, so all four name the same build.
package buildinfo

import "runtime/debug"

// version is set by the Makefile with -ldflags "-X …/buildinfo.version=…" (git describe --tags --always --dirty).
var version = ""

// Version is the release this binary was built from: the linker-set value, else the module version
// `go install …@vX` records, else the commit `go build` or `go install ./cmd/git-bernstein` stamped from the
// clone (short hash, "-dirty" with uncommitted changes: what `git describe --always --dirty` says without
// tags), else "dev".
func Version() string {
	if version != "" {
		return version
	}
	bi, _ := debug.ReadBuildInfo()
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
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
	if len(rev) < 7 {
		return "dev"
	}
	if dirty {
		return rev[:7] + "-dirty"
	}
	return rev[:7]
}
