package inbrowser

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-bernstein/git-bernstein/gitext"
	"github.com/git-bernstein/git-bernstein/internal/bundle"
	"github.com/git-bernstein/git-bernstein/internal/discover"
	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/prsource"
	"github.com/git-bernstein/git-bernstein/internal/ticket"
)

// controlledBundle is a signed bundle of GitHub ticket #42 whose pull request #17 merged with one approval, by
// someone other than its author: its archive, signature and the signer's card.
func controlledBundle(t *testing.T) (archive, sig []byte, card Card) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := gittest.New(t)
	base := r.Commit("init", map[string]string{"README": "x\n"})
	r.Git("checkout", "-q", "-b", "topic")
	head := r.Commit("Fix rounding\n\nRefs: #42", map[string]string{"round.go": "package r\n"})
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "Merge pull request #17 from acme/topic\n\nRefs: #42", "topic")
	merge := r.Rev("HEAD")
	repo, err := gitext.Discover(r.Dir, r.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := ticket.Parse("github", "#42")
	if err != nil {
		t.Fatal(err)
	}
	dev := `{"login":"dev","id":1,"type":"User"}`
	payload := fmt.Sprintf(`{"number":17,"state":"closed","user":%s,"head":{"sha":%q,"ref":"topic"},"base":{"sha":%q,"ref":"main"},`+
		`"created_at":"2026-01-01T00:00:00Z","merged_at":"2026-01-01T23:00:00Z","merged_by":%s,"merge_commit_sha":%q}`, dev, head, base, dev, merge)
	reviews := fmt.Sprintf(`[{"id":100,"user":{"login":"rita","id":2,"type":"User"},"state":"APPROVED","commit_id":%q,`+
		`"submitted_at":"2026-01-01T22:00:00Z"}]`, head)
	commits := fmt.Sprintf(`[{"sha":%q,"commit":{"author":{"name":"Ada","email":"ada@example.com","date":"2026-01-01T00:02:00Z"},`+
		`"committer":{"name":"Ada","email":"ada@example.com","date":"2026-01-01T00:02:00Z"},"message":"Fix rounding\n\nRefs: #42"},`+
		`"author":%s,"committer":%s,"parents":[{"sha":%q}]}]`, head, dev, dev, base)
	pub, priv, _ := ed25519.GenerateKey(nil)
	out := filepath.Join(t.TempDir(), "42.tar.gz")
	_, err = bundle.Build(bundle.Options{Repo: repo, Find: discover.Options{Ticket: tk, Sources: discover.AllSources},
		Out: out, CreatedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), SignKey: priv, SignKid: "k1",
		PRs: func(*discover.Commits) (*bundle.PRSet, error) {
			return &bundle.PRSet{PRs: []bundle.PR{{Number: 17, Payload: []byte(payload), Reviews: []byte(reviews),
				Controls: []bundle.PRMember{{Name: "pr/pr_17.commits.json", Data: []byte(commits),
					From: fetched("pr/pr_17.commits.json", "pulls/17/commits")}},
				PayloadFrom: fetched("", "pulls/17"), ReviewsFrom: fetched("", "pulls/17/reviews")}}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(pub)
	cardJSON, _ := json.Marshal(map[string]string{"protocolVersion": "a2a/1.0", "agent_id": "tester", "kid": "k1",
		"public_key_pem": string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))})
	archive, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sig, err = os.ReadFile(out + ".jws")
	if err != nil {
		t.Fatal(err)
	}
	return archive, sig, Card{Name: "k1.card.json", Data: cardJSON}
}

// fetched says a member came from the API (pr/sources.json).
func fetched(arcname, path string) prsource.Member {
	return prsource.FromRequests(arcname, []prsource.Request{{Source: prsource.Fetched,
		URL: "https://api.github.com/repos/acme/app/" + path + "?per_page=100"}})
}

// TestPolicyInThePage: the page evaluates the controls under the auditor's policy file, read as `audit
// --policy` reads it: the default passes one approval, a policy asking two makes it an exception, and a file
// that does not read evaluates nothing and says why.
func TestPolicyInThePage(t *testing.T) {
	t.Parallel()
	archive, sig, card := controlledBundle(t)
	for _, tc := range []struct {
		name   string
		policy *PolicyFile
		used   string
		says   string
		err    string
	}{
		{"default", nil, "the default policy", "[PASS]      independent-approval #17", ""},
		{"yaml", &PolicyFile{Name: "strict.yaml", Data: []byte("# two reviewers\nrequired_approvals: 2\n")}, "policy strict.yaml",
			"[EXCEPTION] independent-approval #17                 1 of 2 required independent approvals (the policy)", ""},
		{"json", &PolicyFile{Name: "strict.json", Data: []byte(`{"required_approvals": 2}`)}, "policy strict.json",
			"1 of 2 required independent approvals (the policy)", ""},
		{"misspelt key", &PolicyFile{Name: "bad.yaml", Data: []byte("required_aprovals: 2\n")}, "policy bad.yaml", "",
			"bad.yaml: policy file: yaml: unmarshal errors:\n  line 1: field required_aprovals not found in type policy.Policy"},
		{"empty file", &PolicyFile{Name: "empty.yaml", Data: []byte{}}, "policy empty.yaml", "[PASS]      independent-approval #17", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res Result
			if err := json.Unmarshal(CheckPolicy("42.tar.gz", archive, sig, []Card{card}, Sidecars{}, tc.policy), &res); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Text, "VERIFIED: ") {
				t.Fatalf("not VERIFIED:\n%s", res.Text)
			}
			if res.Policy != tc.used || res.PolicyError != tc.err {
				t.Errorf("policy %q, error %q; want %q, %q", res.Policy, res.PolicyError, tc.used, tc.err)
			}
			if tc.err != "" {
				if res.Controls != "" || res.ControlsText != "" {
					t.Errorf("controls evaluated under a policy that does not read:\n%s", res.ControlsText)
				}
				return
			}
			if !strings.Contains(res.ControlsText, tc.says) {
				t.Errorf("controls do not say %q:\n%s", tc.says, res.ControlsText)
			}
		})
	}
}
