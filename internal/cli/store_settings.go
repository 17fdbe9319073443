package cli

import (
	"fmt"

	ucli "github.com/urfave/cli/v3"

	"github.com/git-bernstein/git-bernstein/internal/store"
)

// Uses of the stores: what get reads needs no retention settings; what push and the hook write does.
const (
	readStores = iota
	writeStores
	writeStoresNoRetention // push --no-retention: S3 stores write no retention and accept a bucket without Object Lock
)

// stores opens every git config bernstein.store, in the order configured, for use.
func (s *session) stores(c *ucli.Command, use int) ([]store.Store, error) {
	set, err := s.settings(c)
	if err != nil {
		return nil, err
	}
	if len(set.Stores) == 0 {
		return nil, nil
	}
	var ret store.Retention
	if use != readStores {
		if ret, err = store.ParseRetention(set.Retention, set.RetentionMode); err != nil {
			return nil, usageError("%v", err)
		}
		if err := set.Err("bernstein.legalHold"); err != nil {
			return nil, usageError("git config bernstein.legalHold: %v", err)
		}
		ret.LegalHold = set.LegalHold
		ret.None = use == writeStoresNoRetention
	}
	var out []store.Store
	for _, raw := range set.Stores {
		st, err := store.Open(raw, store.Options{Getenv: s.env.getenv, Retention: ret, Now: s.env.now})
		if err != nil {
			return nil, fmt.Errorf("%v", err)
		}
		out = append(out, st)
	}
	return out, nil
}
