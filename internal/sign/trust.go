package sign

import (
	"fmt"
)

// TrustSet gathers the keys of every card the user gave. One kid must pick one key across all of them, as it
// must inside one card: if two cards gave one kid two different keys, which one a signature is checked against
// (and which signer the report names) would depend on the order of --card flags.
type TrustSet struct {
	keys []TrustedKey
}

// Add adds one card's keys. A kid already bound to a different key by an earlier card is an error naming both
// sources; the same key under the same kid in two cards is fine.
func (s *TrustSet) Add(keys []TrustedKey) error {
	for _, k := range keys {
		for _, prev := range s.keys {
			if prev.Kid == k.Kid && !prev.Public.Equal(k.Public) {
				return fmt.Errorf("kid %q names two different keys: one in %s, another in %s; a kid must pick one key: "+
					"keep only the card you got from the signer", k.Kid, prev.Source, k.Source)
			}
		}
	}
	s.keys = append(s.keys, keys...)
	return nil
}

// Keys returns the keys added so far.
func (s *TrustSet) Keys() []TrustedKey { return s.keys }
