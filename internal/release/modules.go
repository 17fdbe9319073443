package release

import (
	"runtime/debug"
	"sort"
)

// SBOMFile is the name of the release's CycloneDX SBOM (package sbom writes it).
const SBOMFile = "git-bernstein.cdx.json"

// Module is one Go module linked into a binary, as its build information names it (the replacement, if any).
type Module struct {
	Path, Version, Sum string
}

// Modules is the union of the dependencies of every build info, sorted by path and version (doc.go, "SBOM").
func Modules(infos []*debug.BuildInfo) []Module {
	seen := map[Module]bool{}
	var out []Module
	for _, bi := range infos {
		if bi == nil {
			continue
		}
		for _, d := range bi.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			m := Module{Path: d.Path, Version: d.Version, Sum: d.Sum}
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Version < out[j].Version
	})
	return out
}

// PURL is a module's package URL, pkg:golang/<path>@<version> (github.com/package-url/purl-spec).
func PURL(path, version string) string {
	if version == "" {
		return "pkg:golang/" + path
	}
	return "pkg:golang/" + path + "@" + version
}
