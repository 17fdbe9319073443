package sbom

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	cdx "github.com/CycloneDX/cyclonedx-go"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fakeInfo is the build information of a binary that links two modules, one of them replaced.
func fakeInfo() *debug.BuildInfo {
	return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/git-bernstein/git-bernstein", Version: "(devel)"},
		Deps: []*debug.Module{
			{Path: "github.com/go-git/go-git/v5", Version: "v5.19.3", Sum: "h1:AAAA"},
			{Path: "golang.org/x/crypto", Version: "v0.1.0", Sum: "h1:BBBB", Replace: &debug.Module{Path: "golang.org/x/crypto", Version: "v0.2.0", Sum: "h1:CCCC"}},
		}}
}

func TestDocument(t *testing.T) {
	data, err := Document("65e824e", []*debug.BuildInfo{fakeInfo(), fakeInfo()})
	if err != nil {
		t.Fatal(err)
	}
	var bom cdx.BOM
	if err := cdx.NewBOMDecoder(bytes.NewReader(data), cdx.BOMFileFormatJSON).Decode(&bom); err != nil {
		t.Fatal(err)
	}
	if bom.SpecVersion != cdx.SpecVersion1_6 || bom.Metadata.Component.Version != "65e824e" || bom.Metadata.Timestamp != "" {
		t.Errorf("spec %v, version %q, timestamp %q", bom.SpecVersion, bom.Metadata.Component.Version, bom.Metadata.Timestamp)
	}
	var purls []string
	for _, c := range *bom.Components {
		purls = append(purls, c.PackageURL)
	}
	// The union over both binaries, each module once, the replacement in place of the replaced.
	if got, want := strings.Join(purls, " "), "pkg:golang/github.com/go-git/go-git/v5@v5.19.3 pkg:golang/golang.org/x/crypto@v0.2.0"; got != want {
		t.Errorf("components %s, want %s", got, want)
	}
	if !strings.HasPrefix(bom.SerialNumber, "urn:uuid:") || len(bom.SerialNumber) != 45 {
		t.Errorf("serial number %q", bom.SerialNumber)
	}
	again, err := Document("65e824e", []*debug.BuildInfo{fakeInfo()})
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("the SBOM of the same build information differs (err %v)", err)
	}
}

// TestSchema holds the SBOM to CycloneDX's own JSON Schema for 1.6, as cyclonedx-go ships it (with the SPDX
// license list and JSF schemas it refers to).
func TestSchema(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/CycloneDX/cyclonedx-go").Output()
	dir := filepath.Join(strings.TrimSpace(string(out)), "schema")
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Skipf("cyclonedx-go's schemas are not in the module cache: %v", err)
	}
	c := jsonschema.NewCompiler()
	for file, id := range map[string]string{"spdx.schema.json": "spdx.schema.json", "jsf-0.82.schemax.json": "jsf-0.82.schema.json"} {
		f, err := os.Open(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("http://cyclonedx.org/schema/"+id, doc); err != nil {
			t.Fatal(err)
		}
	}
	sch, err := c.Compile(filepath.Join(dir, "bom-1.6.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := Document("65e824e", []*debug.BuildInfo{fakeInfo()})
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the SBOM is not CycloneDX 1.6: %v", err)
	}
}
