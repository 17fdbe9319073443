package main

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
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
	if !strings.Contains(body, "git bernstein record") {
		t.Error("the workflow no longer runs git bernstein record")
	}
}
