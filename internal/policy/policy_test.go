package policy

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	yamlDoc := "required_approvals: 2\nrequired_checks: [ci/build, test]\ntrusted_bots: ['dependabot[bot]']\nrequire_codeowners: true\nprotected_branches: [main, release/*]\n"
	jsonDoc := `{"required_approvals":2,"required_checks":["ci/build","test"],"trusted_bots":["dependabot[bot]"],"require_codeowners":true,"protected_branches":["main","release/*"]}`
	want := &Policy{2, []string{"ci/build", "test"}, []string{"dependabot[bot]"}, true, []string{"main", "release/*"}}
	for _, doc := range []string{yamlDoc, jsonDoc} {
		p, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p, want) {
			t.Errorf("Parse(%q) = %+v", doc, p)
		}
	}
	if p, err := Parse(nil); err != nil || p.RequiredApprovals != 0 {
		t.Errorf("empty: %v %v", p, err)
	}
	for _, bad := range []string{"required_aprovals: 2\n", "required_approvals: -1\n", "protected_branches: ['[']\n"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
	p, _ := Parse([]byte(yamlDoc))
	for b, want := range map[string]bool{"main": true, "remotes/origin/main": true, "release/1.2": true, "feature": false} {
		if got := p.Protects(b); got != want {
			t.Errorf("Protects(%q) = %v", b, got)
		}
	}
}

// ReadOptional: no --policy is the defaults; a file is ReadFile's, its errors naming --policy as given.
func TestReadOptional(t *testing.T) {
	t.Parallel()
	if p, err := ReadOptional("", ""); err != nil || !reflect.DeepEqual(p, &Policy{}) {
		t.Errorf("ReadOptional(\"\") = %v, %v, want the defaults", p, err)
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.yaml"), filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("required_approvals: 2\n"), 0o644)
	os.WriteFile(bad, []byte("required_approvals: many\n"), 0o644)
	if p, err := ReadOptional(good, "good.yaml"); err != nil || p.RequiredApprovals != 2 {
		t.Errorf("ReadOptional(good) = %v, %v", p, err)
	}
	if _, err := ReadOptional(bad, "bad.yaml"); err == nil || !strings.Contains(err.Error(), "--policy bad.yaml") {
		t.Errorf("ReadOptional(bad) error %v, want it to name --policy bad.yaml", err)
	}
}
