package record

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"github.com/git-bernstein/git-bernstein/internal/lineage"
	"github.com/git-bernstein/git-bernstein/internal/lineage/checkpoint"
)

// lineageCheckpoint is the lineage v2 checkpoint one run packs into each of its bundles and notes beside each.
type lineageCheckpoint struct {
	data     []byte // the checkpoint file; nil when none was taken
	refs     []checkpoint.Ref
	sha256   string // its digest, for the note line
	warnings []string
}

// checkpointStore takes the checkpoint of <SDD>/lineage/v2 once per run, before any bundle reads the store, so
// each bundle's slice can be held against it (package lineage, "Checkpoints"). Its time is the bundles'
// created_at, so recording the same range again over the same store writes the same bytes and the same note
// line. A store that does not verify under the key is not checkpointed (a checkpoint would anchor what is
// wrong with it): the bundles are still written, each with a warning saying why.
func checkpointStore(opts Options, createdAt time.Time) lineageCheckpoint {
	key := opts.LineageKey
	if key.Bytes == nil {
		key = lineage.PublicKey()
	}
	store := lineage.Open(filepath.Join(opts.SDD, "lineage", "v2"), key)
	cp, _, err := store.TakeCheckpoint(createdAt)
	if err == nil {
		var data []byte
		if data, err = cp.Marshal(); err == nil {
			sum := sha256.Sum256(data)
			return lineageCheckpoint{data: data, refs: cp.Refs, sha256: hex.EncodeToString(sum[:])}
		}
	}
	return lineageCheckpoint{warnings: []string{fmt.Sprintf("lineage v2: no checkpoint in this bundle: %v (set $%s to the store's key file if it has a secret key)", err, lineage.KeyFileEnv)}}
}
