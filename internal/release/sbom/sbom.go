// Package sbom writes a release's CycloneDX SBOM (package release, doc.go "SBOM"). It is apart from package
// release so that git-bernstein itself, which checks releases, does not link the CycloneDX library.
package sbom

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime/debug"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/git-bernstein/git-bernstein/internal/release"
)

// Document is the CycloneDX 1.6 JSON document of the modules in infos (the built binaries' build information), for
// git-bernstein at version. It carries no time, and its serial number is derived from the rest of it, so one
// set of binaries gives one document.
func Document(version string, infos []*debug.BuildInfo) ([]byte, error) {
	if len(infos) == 0 || infos[0] == nil {
		return nil, fmt.Errorf("SBOM: no build information")
	}
	main := infos[0].Main.Path
	mainRef := release.PURL(main, version)
	bom := cdx.NewBOM()
	var deps []string
	var comps []cdx.Component
	for _, m := range release.Modules(infos) {
		ref := release.PURL(m.Path, m.Version)
		deps = append(deps, ref)
		c := cdx.Component{BOMRef: ref, Type: cdx.ComponentTypeLibrary, Name: m.Path, Version: m.Version, PackageURL: ref}
		if m.Sum != "" {
			c.Properties = &[]cdx.Property{{Name: "go:module:sum", Value: m.Sum}}
		}
		comps = append(comps, c)
	}
	bom.Metadata = &cdx.Metadata{
		Component:  &cdx.Component{BOMRef: mainRef, Type: cdx.ComponentTypeApplication, Name: main, Version: version, PackageURL: mainRef},
		Properties: &[]cdx.Property{{Name: "go:toolchain", Value: infos[0].GoVersion}},
	}
	bom.Components = &comps
	bom.Dependencies = &[]cdx.Dependency{{Ref: mainRef, Dependencies: &deps}}
	encode := func() ([]byte, error) {
		var b bytes.Buffer
		enc := cdx.NewBOMEncoder(&b, cdx.BOMFileFormatJSON).SetPretty(true).SetEscapeHTML(false)
		if err := enc.EncodeVersion(bom, cdx.SpecVersion1_6); err != nil {
			return nil, fmt.Errorf("SBOM: %w", err)
		}
		return b.Bytes(), nil
	}
	body, err := encode()
	if err != nil {
		return nil, err
	}
	bom.SerialNumber = contentUUID(body)
	return encode()
}

// contentUUID is a urn:uuid (version 8, RFC 9562 section 5.8: custom) made of the SHA-256 of b, so the serial
// number is unique per content and the same for the same content.
func contentUUID(b []byte) string {
	sum := sha256.Sum256(b)
	h := []byte(hex.EncodeToString(sum[:])[:32])
	h[12] = '8'
	h[16] = "89ab"[h[16]%4]
	return fmt.Sprintf("urn:uuid:%s-%s-%s-%s-%s", h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
}
