package cli

import (
	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/lineage/logv1"
)

// agentCardsFlag is verify's and view's --agent-cards: the cards the bundle's lineage v1 entries are checked
// against, trusted like --card and never taken from the bundle.
func agentCardsFlag() ucli.Flag {
	return &ucli.StringSliceFlag{Name: "agent-cards", Usage: "agent cards `DIR` (repeatable) to check the bundle's lineage v1 entries against, as 'lineage verify --cards' reads them; " +
		"adds the lineage check and who wrote each file of the commits"}
}

// agentCards reads --agent-cards; nil when none was given. An unusable folder is exit 2.
func agentCards(c *ucli.Command) (*logv1.Cards, error) {
	return loadLineageCards(c, "agent-cards")
}
