// Package schematest holds documents to the JSON Schemas (draft 2020-12) kept beside the code that owns each
// format (manifest.schema.json, commits.schema.json, …), for tests: golden files, what the commands write, and
// the transcripts' outputs.
package schematest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schemas names each schema by the word tests use for it, with its path in the repository.
var Schemas = map[string]string{
	"manifest":   "internal/manifest/manifest.schema.json",
	"commits":    "internal/commitsjson/commits.schema.json",
	"note":       "internal/notes/note.schema.json",
	"sources":    "internal/prsource/sources.schema.json",
	"checkpoint": "internal/lineage/checkpoint/checkpoint.schema.json",
	"card":       "internal/sign/card.schema.json",
	// sigstore-bundle is <archive>.sigstore.json (bundle --attest).
	"sigstore-bundle": "internal/attest/sigstore-bundle.schema.json",
	"audit":           "internal/controls/audit.schema.json",
}

// Root is the repository's top folder, found from this file's place in it.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Validate checks doc against the schema named name (a key of Schemas); the error says where it breaks it.
func Validate(name string, doc []byte) error {
	path, ok := Schemas[name]
	if !ok {
		return fmt.Errorf("no schema %q", name)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	sch, err := c.Compile(filepath.Join(Root(), path))
	if err != nil {
		return fmt.Errorf("schema %s: %w", path, err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("against %s: %w", path, err)
	}
	return nil
}

// ValidateFile is Validate of a file's bytes.
func ValidateFile(name, file string) error {
	doc, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := Validate(name, doc); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}
