package actiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// TestActionRuns runs action.yml's own scripts, in order, the way a runner does (GITHUB_ACTION_PATH, RUNNER_TEMP,
// GITHUB_PATH, GITHUB_OUTPUT, each step's env with its ${{ }} values filled in) on a clone whose push brought in a
// ticket's merge: git-bernstein is built from this checkout, the ticket is recorded and signed, and the notes
// and archives land on the remote. Only actions/setup-go is not run: the test's Go stands in for it.
func TestActionRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds git-bernstein and runs the action's scripts: make test runs it, go test -short skips it")
	}
	t.Parallel()
	meta, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Steps []struct {
				Run string            `yaml:"run"`
				Env map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(meta, &action); err != nil {
		t.Fatal(err)
	}
	actionPath, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}

	// The remote, and the runner's checkout after a push that merged ENG-42's branch.
	r := gittest.New(t)
	r.Commit("Initial commit", map[string]string{"README": "x\n"})
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	r.Git("push", "-q", "origin", "main")
	before := r.Rev("HEAD")
	r.Git("checkout", "-q", "-b", "feature/ENG-42-login")
	r.Commit("Add login\n\nRefs: ENG-42", map[string]string{"login.go": "1\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/ENG-42-login'", "feature/ENG-42-login")
	sha := r.Rev("HEAD")
	r.Git("push", "-q", "origin", "main")
	_, priv, err := sign.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	pem, err := sign.MarshalPrivateKeyPEM(priv)
	if err != nil {
		t.Fatal(err)
	}

	runner := t.TempDir()
	ghPath, ghOutput := filepath.Join(runner, "path"), filepath.Join(runner, "output")
	inputs := map[string]string{"signing-key": string(pem), "signing-kid": "ci-2026", "tracker": "jira"}
	for name, in := range action.Inputs {
		if _, ok := inputs[name]; !ok {
			inputs[name] = in.Default
		}
	}
	github := map[string]string{"event.before": before, "sha": sha}
	expr := regexp.MustCompile(`^\$\{\{ (inputs|github)\.([a-z.-]+) \}\}$`)
	for i, step := range action.Runs.Steps {
		if step.Run == "" {
			continue // actions/setup-go
		}
		env := append(append([]string{}, r.Env...), "GITHUB_ACTION_PATH="+actionPath, "RUNNER_TEMP="+runner,
			"GITHUB_PATH="+ghPath, "GITHUB_OUTPUT="+ghOutput, "GITHUB_API_URL=http://127.0.0.1:9/")
		if extra, err := os.ReadFile(ghPath); err == nil {
			env = append(env, "PATH="+strings.ReplaceAll(strings.TrimSpace(string(extra)), "\n", ":")+":"+os.Getenv("PATH"))
		}
		for k, v := range step.Env {
			m := expr.FindStringSubmatch(v)
			if m == nil {
				t.Fatalf("step %d: env %s=%q is not one ${{ inputs.X }} or ${{ github.X }}", i, k, v)
			}
			val := inputs[m[2]]
			if m[1] == "github" {
				val = github[m[2]]
			}
			env = append(env, k+"="+val)
		}
		cmd := exec.Command("bash", "-e", "-c", step.Run)
		cmd.Dir, cmd.Env = r.Dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("step %d failed: %v\n%s\n%s", i, err, step.Run, out)
		}
	}
	out, _ := os.ReadFile(ghOutput)
	if !regexp.MustCompile(`(?s)recorded<<GIT_BERNSTEIN_EOF\n\{.*"ticket": "ENG-42".*\}\nGIT_BERNSTEIN_EOF\n`).Match(out) {
		t.Errorf("GITHUB_OUTPUT lacks the recorded report:\n%s", out)
	}
	remoteRepo := r.Open(remote)
	if note := remoteRepo.Git("notes", "--ref=bernstein", "show", sha); !strings.Contains(note, `"ticket":"ENG-42"`) || !strings.Contains(note, `"kid":"ci-2026"`) {
		t.Errorf("the remote's note on %s: %s", sha, note)
	}
	if files := remoteRepo.Git("ls-tree", "-r", "--name-only", "refs/bernstein/archives"); !strings.Contains(files, "jira/ENG-42/") {
		t.Errorf("the remote's archives ref holds:\n%s", files)
	}
}
