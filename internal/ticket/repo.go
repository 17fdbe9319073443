package ticket

// Repo is the "owner/name" InRepo scoped the ticket to; "" when none (every repository's references count).
// git/commits.json records it, so that `verify --repo` applies the same rule.
func (t Ticket) Repo() string { return t.repo }
