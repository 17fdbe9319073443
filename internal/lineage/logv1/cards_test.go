package logv1

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A card is read once, with exact member names: a coder's card that also says "AGENT_ID":"agent:steward" (which
// a case-insensitive reader would take, binding the coder's key to the steward, who may merge forks) is
// refused, naming the file and both members; "AGENT_ID" alone names no agent.
func TestCardWithCaseTwinAgentRefused(t *testing.T) {
	t.Parallel()
	w := newWriter(t, "agent:coder")
	path := filepath.Join(w.cards, "agent_coder", "card.json")
	card, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	twin := bytes.Replace(card, []byte(`"agent_id": "agent:coder",`), []byte(`"agent_id": "agent:coder", "AGENT_ID": "agent:steward",`), 1)
	if bytes.Equal(twin, card) {
		t.Fatalf("card has no agent_id member to follow:\n%s", card)
	}
	os.WriteFile(path, twin, 0o644)
	var c Cards
	err = c.LoadCardsDir(w.cards)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `"agent_id" and "AGENT_ID" differ only in letter case`) {
		t.Fatalf("LoadCardsDir: %v, want an error naming %s and the two members", err, path)
	}
	if k, why := c.lookup(Pair{"agent:steward", w.kid("agent:coder")}); why == "" {
		t.Errorf("the coder's key is bound to the steward: %s", k.Source)
	}

	upper := bytes.Replace(card, []byte(`"agent_id"`), []byte(`"AGENT_ID"`), 1)
	if err := (&Cards{}).AddCard(upper, "upper.json"); err == nil || !strings.Contains(err.Error(), "upper.json") {
		t.Errorf("a card with AGENT_ID alone: %v, want it refused, naming the file", err)
	}
}

// commit-files.json is read with exact names, none twice: "SHA256" beside "sha256" is refused, naming the member.
func TestCommitFilesCaseTwinRefused(t *testing.T) {
	t.Parallel()
	sum := strings.Repeat("a", 64)
	good := `{"v":1,"commits":[{"sha":"` + strings.Repeat("1", 40) + `","files":[{"path":"a","sha256":"` + sum + `","blob":"b"}]}]}`
	if _, err := ParseCommitFiles([]byte(good)); err != nil {
		t.Fatal(err)
	}
	twin := strings.Replace(good, `"sha256":`, `"SHA256":"`+strings.Repeat("b", 64)+`","sha256":`, 1)
	if _, err := ParseCommitFiles([]byte(twin)); err == nil || !strings.Contains(err.Error(), FilesName) || !strings.Contains(err.Error(), `$.commits[0].files[0]: members "SHA256" and "sha256"`) {
		t.Errorf("twin: %v, want an error naming %s and the members", err, FilesName)
	}
}
