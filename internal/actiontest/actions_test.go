package actiontest

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v3"
)

// TestREADMEWorkflow checks the GitHub Actions workflow README gives for recording in CI ("Teams that merge on
// GitHub") with actionlint, as a library: the recipe people copy must be a valid workflow (syntax, keys, the
// expressions and their contexts, action inputs of the popular actions). shellcheck and pyflakes are not run:
// they are other programs.
func TestREADMEWorkflow(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "```yaml\n# .github/workflows/bernstein.yml\n"
	i := strings.Index(string(readme), marker)
	if i < 0 {
		t.Fatal("README has no ```yaml block starting with # .github/workflows/bernstein.yml")
	}
	body := string(readme[i+len("```yaml\n"):])
	body = body[:strings.Index(body, "```")]
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(".github/workflows/bernstein.yml", []byte(body), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("README's workflow, line %d:%d: %s [%s]", e.Line, e.Column, e.Message, e.Kind)
	}
	// The workflow runs this repository's action: each input it gives must be one action.yml defines.
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string         `yaml:"uses"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	meta, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(body), &wf); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(meta, &action); err != nil {
		t.Fatal(err)
	}
	used := false
	for _, job := range wf.Jobs {
		for _, step := range job.Steps {
			if !strings.HasPrefix(step.Uses, "your-org/git-bernstein@") {
				continue
			}
			used = true
			for k := range step.With {
				if _, ok := action.Inputs[k]; !ok {
					t.Errorf("README's workflow gives the action input %q, which action.yml does not define", k)
				}
			}
		}
	}
	if !used {
		t.Error("README's workflow no longer uses this repository's action")
	}
}

// TestActionMetadata checks action.yml, the composite action README's workflow uses: actionlint reads it as the
// local action of a workflow that uses it with every input (so a malformed action.yml, or an input the workflow
// passes that it does not define, is an error), and each of its run steps names its shell and refers only to
// inputs it defines.
func TestActionMetadata(t *testing.T) {
	meta, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "action.yml"), meta, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	workflow := `name: use
on: push
permissions:
  contents: write
jobs:
  record:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - id: bernstein
        uses: ./
        with:
          range: ${{ github.event.before }}..${{ github.sha }}
          signing-key: ${{ secrets.BERNSTEIN_SIGNING_KEY }}
          signing-kid: ci-2026
          tracker: jira
          attest: "true"
          remote: origin
          go-version: "1.26"
      - run: echo "${{ steps.bernstein.outputs.recorded }}"
`
	path := filepath.Join(root, ".github", "workflows", "use.yml")
	proj, err := actionlint.NewProject(root)
	if err != nil {
		t.Fatal(err)
	}
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(path, []byte(workflow), proj)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("a workflow using action.yml, line %d:%d: %s [%s]", e.Line, e.Column, e.Message, e.Kind)
	}
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
		Runs   struct {
			Using string `yaml:"using"`
			Steps []struct {
				Run   string `yaml:"run"`
				Shell string `yaml:"shell"`
				Uses  string `yaml:"uses"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(meta, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using %q, want composite", action.Runs.Using)
	}
	ref := regexp.MustCompile(`inputs\.([a-z-]+)`)
	for i, s := range action.Runs.Steps {
		if s.Run != "" && s.Shell == "" {
			t.Errorf("step %d runs a script without naming its shell (composite actions require it)", i)
		}
	}
	for _, m := range ref.FindAllStringSubmatch(string(meta), -1) {
		if _, ok := action.Inputs[m[1]]; !ok {
			t.Errorf("action.yml refers to inputs.%s, which it does not define", m[1])
		}
	}
	if !strings.Contains(string(meta), "git bernstein record") || !strings.Contains(string(meta), "git bernstein push") {
		t.Error("the action no longer records and pushes")
	}
}
