package release

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSBOMSchema holds the SBOM to CycloneDX's own JSON Schema for 1.6, as cyclonedx-go ships it (with the
// SPDX license list and JSF schemas it refers to).
func TestSBOMSchema(t *testing.T) {
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
	f := newRelease(t)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(read(t, filepath.Join(f.dir, SBOMFile))))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the SBOM is not CycloneDX 1.6: %v", err)
	}
}
