// Package buildinfo says which git-bernstein this is; bundles record it as bernstein_version.
package buildinfo

import "runtime/debug"

// version is set by the Makefile with -ldflags "-X …/buildinfo.version=…".
var version = ""

// Version is the release this binary was built from: the linker-set value, else the module version
// `go install …@vX` records, else "dev".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
