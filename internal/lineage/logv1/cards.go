package logv1

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// Pair is what picks an entry's card: the agent and the kid the entry signed with.
type Pair struct{ AgentID, Kid string }

// Cards are the agent cards an auditor trusts, by (agent_id, kid). A pair two card files bind to different
// keys is a conflict: entries signed under it fail rather than depend on which file was read first.
type Cards struct {
	keys      map[Pair]sign.TrustedKey
	conflicts map[Pair]string
	agents    map[string]bool
}

// Agents is how many agents the cards name.
func (c *Cards) Agents() int { return len(c.agents) }

// Pairs is how many (agent, kid) pairs the cards bind.
func (c *Cards) Pairs() int { return len(c.keys) }

// Conflicts lists each pair two cards bind to different keys, sorted.
func (c *Cards) Conflicts() []string {
	var out []string
	for _, m := range c.conflicts {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// lookup returns the key for p, or a reason there is none.
func (c *Cards) lookup(p Pair) (sign.TrustedKey, string) {
	if m, ok := c.conflicts[p]; ok {
		return sign.TrustedKey{}, m
	}
	k, ok := c.keys[p]
	if !ok {
		return sign.TrustedKey{}, fmt.Sprintf("no agent card for (agent_id %q, kid %q): kid binding cannot be established", p.AgentID, p.Kid)
	}
	return k, ""
}

// AddCard adds one card file's keys. The agent and the keys come from one strict reading of the card
// (sign.ReadCard: exact member names, none twice, no two that differ only in case; Ed25519 only): the agent
// is the card's agent_id (a flat card) or name (an A2A card). A card that names no agent is an error.
func (c *Cards) AddCard(data []byte, source string) error {
	card, err := sign.ReadCard(data, source)
	if err != nil {
		return err
	}
	agent, keys := card.Agent, card.Keys
	if strings.TrimSpace(agent) == "" {
		return fmt.Errorf("card %s: names no agent (\"agent_id\" or, in an A2A card, \"name\"); a lineage entry picks its card by agent and kid", source)
	}
	if c.keys == nil {
		c.keys, c.conflicts, c.agents = map[Pair]sign.TrustedKey{}, map[Pair]string{}, map[string]bool{}
	}
	c.agents[agent] = true
	for _, k := range keys {
		p := Pair{agent, k.Kid}
		if prev, ok := c.keys[p]; ok && !prev.Public.Equal(k.Public) {
			c.conflicts[p] = fmt.Sprintf("conflicting agent cards for (agent_id %q, kid %q): %s and %s hold different keys; keep only the card you got from the agent",
				agent, k.Kid, prev.Source, k.Source)
			continue
		}
		c.keys[p] = k
	}
	return nil
}

// LoadCardsDir adds the cards in dir: <dir>/*.json (card files as the example packs keep them),
// <dir>/<agent>/card.json and <dir>/<agent>/<kid>/card.json (upstream's layouts). The folder names do not
// matter: a card's own agent and kids do. A card that cannot be read is an error naming it: an auditor's card
// folder holds nothing else.
func (c *Cards) LoadCardsDir(dir string) error {
	var files []string
	for _, pattern := range []string{"*.json", "*/card.json", "*/*/card.json"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return err
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("agent cards %s: %w", dir, err)
		}
		return fmt.Errorf("agent cards %s: no card files (*.json, <agent>/card.json or <agent>/<kid>/card.json)", dir)
	}
	sort.Strings(files)
	if c.keys == nil {
		c.keys, c.conflicts, c.agents = map[Pair]sign.TrustedKey{}, map[Pair]string{}, map[string]bool{}
	}
	for _, f := range files {
		data, err := regularfile.ReadFile(f, "agent card", sign.MaxCardSize)
		if errors.Is(err, regularfile.ErrTooLarge) {
			return fmt.Errorf("card %s: larger than %d KiB; a card holds a few keys", f, sign.MaxCardSize>>10)
		}
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := c.AddCard(data, f); err != nil {
			return err
		}
	}
	return nil
}
