package cli

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/gittest"
	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
	"github.com/git-bernstein/git-bernstein/internal/pyjson"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// lineageV1Repo makes ENG-42's work (flow.py written by agent:alice as her lineage entry says, README.md by a
// person), the .sdd/lineage log with alice's two signed entries for flow.py, her card in ../cards, and a signed
// ENG-42.tar.gz. It returns the repository and the bundle signer's card.
func lineageV1Repo(t *testing.T) (*gittest.Repo, string) {
	t.Helper()
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a": "1\n"})
	flow := "def pay(amount):\n    return amount\n"
	r.Commit("Add payment flow\n\nRefs: ENG-42", map[string]string{"src/payments/flow.py": flow, "README.md": "# pay\n"})

	seed := sha256.Sum256([]byte("alice"))
	key := ed25519.NewKeyFromSeed(seed[:])
	cards := filepath.Join(filepath.Dir(r.Dir), "cards", "agent:alice")
	os.MkdirAll(cards, 0o755)
	card, _ := sign.MarshalCard("agent:alice", "alice-1", key.Public().(ed25519.PublicKey))
	os.WriteFile(filepath.Join(cards, "card.json"), card, 0o644)

	root := filepath.Join(r.Dir, ".sdd", "lineage")
	var log []byte
	parent := []any{}
	for i, content := range []string{"def pay(amount):\n    pass\n", flow} {
		sum := sha256.Sum256([]byte(content))
		obj := map[string]any{"v": 1, "artefact_path": "src/payments/flow.py", "artefact_kind": "file",
			"content_hash": "sha256:" + hex.EncodeToString(sum[:]), "parent_hashes": parent, "agent_id": "agent:alice",
			"agent_card_kid": "alice-1", "tool_call_id": []string{"tc-1", "tc-2"}[i], "span_id": "", "ts_ns": 1768294800000000000 + int64(i)*1e9,
			"operator_hmac": ""}
		canon, _ := pyjson.Canonical(obj)
		log = append(append(log, canon...), '\n')
		h := sha256.Sum256(canon)
		e := &logv1.Entry{ArtefactPath: "src/payments/flow.py", Hash: "sha256:" + hex.EncodeToString(h[:])}
		jws, err := sign.SignDetached(key, "alice-1", canon)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, logv1.SidecarNames(e)[0])
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(jws), 0o644)
		parent = []any{e.Hash}
	}
	os.WriteFile(filepath.Join(root, logv1.LogName), log, 0o644)

	if _, e, c := runIn(t, r.Dir, r.Env, "keygen", "--kid", "bundler", "--key", "../bundler.pem", "--card", "../bundler.card.json"); c != 0 {
		t.Fatalf("keygen: %d %s", c, e)
	}
	if out, e, c := runIn(t, r.Dir, r.Env, "bundle", "ENG-42", "--no-pr", "--sign-key", "../bundler.pem", "--sign-kid", "bundler", "--created-at", "2026-01-01T00:00:00Z"); c != 0 {
		t.Fatalf("bundle: %d %s %s", c, out, e)
	}
	return r, "../bundler.card.json"
}

func TestLineageV1GateAndAttribution(t *testing.T) {
	t.Parallel()
	r, card := lineageV1Repo(t)
	out, errb, code := runIn(t, r.Dir, r.Env, "lineage", "verify", "--cards", "../cards")
	if code != 0 || !strings.HasPrefix(out, "Lineage v1: OK (2 entries, 1 agent, 0 unresolved forks)") {
		t.Fatalf("lineage verify: %d\n%s%s", code, out, errb)
	}
	out, _, code = runIn(t, r.Dir, r.Env, "lineage", "log", "--cards", "../cards", "src/payments/flow.py")
	if code != 0 || !strings.Contains(out, "tc-2") || !strings.Contains(out, "verified") {
		t.Fatalf("lineage log: %d\n%s", code, out)
	}

	out, errb, code = runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card, "--agent-cards", "../cards", "--json")
	if code != 0 {
		t.Fatalf("verify: %d\n%s%s", code, out, errb)
	}
	var rep struct {
		Verdict string `json:"verdict"`
		Checks  []struct {
			Check, Status, Detail string
		} `json:"checks"`
		Attribution []logv1.Attribution `json:"attribution"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	last := rep.Checks[len(rep.Checks)-1]
	if rep.Verdict != "VERIFIED" || last.Check != "lineage" || last.Status != "pass" {
		t.Fatalf("verdict %s, last check %+v", rep.Verdict, last)
	}
	got := map[string]logv1.Attribution{}
	for _, a := range rep.Attribution {
		got[a.Path] = a
	}
	if a := got["src/payments/flow.py"]; len(a.WrittenBy) != 1 || a.WrittenBy[0].AgentID != "agent:alice" || a.WrittenBy[0].ToolCallID != "tc-2" ||
		a.WrittenBy[0].Signature != logv1.SigVerified || a.WrittenBy[0].Time != "2026-01-13T09:00:01Z" {
		t.Errorf("flow.py attribution %+v", a)
	}
	if a, ok := got["README.md"]; !ok || len(a.WrittenBy) != 0 {
		t.Errorf("README.md attribution %+v (present %v), want no entry", a, ok)
	}

	// Text: the lineage line and who wrote each file.
	out, _, _ = runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card, "--agent-cards", "../cards")
	for _, want := range []string{"[PASS] lineage — 2 lineage v1 entries", "src/payments/flow.py: written by agent:alice (kid alice-1, tool call tc-2",
		"README.md: no lineage entry matches this content"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify text lacks %q:\n%s", want, out)
		}
	}
	// Without agent cards: a warning, and the verdict is the bundle's own.
	out, _, code = runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card)
	if code != 0 || !strings.Contains(out, "[WARN] lineage — 2 lineage v1 entries, not checked: no --agent-cards given") || !strings.Contains(out, "VERIFIED") {
		t.Errorf("verify without --agent-cards: %d\n%s", code, out)
	}
	// view: the table beside the commits.
	if _, e, code := runIn(t, r.Dir, r.Env, "view", "ENG-42.tar.gz", "--card", card, "--agent-cards", "../cards", "--out", "../page.html"); code != 0 {
		t.Fatalf("view: %d %s", code, e)
	}
	page, _ := os.ReadFile(filepath.Join(filepath.Dir(r.Dir), "page.html"))
	for _, want := range []string{"Who wrote each file", "agent:alice", "tc-2", "no lineage entry matches this content"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("view page lacks %q", want)
		}
	}

	// Another key for alice's (agent, kid): the entries do not verify, and the bundle is FAILED.
	other := ed25519.NewKeyFromSeed(make([]byte, 32))
	bad, _ := sign.MarshalCard("agent:alice", "alice-1", other.Public().(ed25519.PublicKey))
	os.WriteFile(filepath.Join(filepath.Dir(r.Dir), "cards", "agent:alice", "card.json"), bad, 0o644)
	out, _, code = runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card, "--agent-cards", "../cards")
	if code != 1 || !strings.Contains(out, "[FAIL] lineage") || !strings.Contains(out, "invalid signature") || !strings.Contains(out, "FAILED") {
		t.Errorf("verify with a wrong agent card: %d\n%s", code, out)
	}
}

// A card is read once, by exact member names: alice's card with a later "AGENT_ID":"agent:steward" (which
// lineage v1 once read case-insensitively, binding alice's key to the steward) is refused as unusable input,
// naming the card and both members, by the gate and by verify --agent-cards.
func TestLineageV1CardCaseTwinRefused(t *testing.T) {
	t.Parallel()
	r, card := lineageV1Repo(t)
	path := filepath.Join(filepath.Dir(r.Dir), "cards", "agent:alice", "card.json")
	data, _ := os.ReadFile(path)
	twin := strings.Replace(string(data), `"agent_id": "agent:alice",`, `"agent_id": "agent:alice", "AGENT_ID": "agent:steward",`, 1)
	if twin == string(data) {
		t.Fatalf("no agent_id in the card:\n%s", data)
	}
	os.WriteFile(path, []byte(twin), 0o644)
	out, errb, code := runIn(t, r.Dir, r.Env, "lineage", "verify", "--cards", "../cards")
	if code != 2 || !strings.Contains(errb, path) || !strings.Contains(errb, `members "agent_id" and "AGENT_ID" differ only in letter case`) {
		t.Fatalf("lineage verify: %d\n%s%s", code, out, errb)
	}
	out, errb, code = runIn(t, r.Dir, r.Env, "verify", "ENG-42.tar.gz", "--card", card, "--agent-cards", "../cards")
	if code != 2 || !strings.Contains(out+errb, `"AGENT_ID"`) {
		t.Fatalf("verify --agent-cards: %d\n%s%s", code, out, errb)
	}
}
