package gitext

import (
	"encoding/hex"

	"github.com/go-git/go-git/v5/plumbing"
)

// Hash is an object id: the 20 bytes of a SHA-1. It is an alias of go-git's plumbing.Hash, not a type of our
// own, on purpose: it is a plain [20]byte value with String and IsZero, and every object read inside gitext
// (the object store, the pack and commit-graph readers, the graph's index) keys by it, so a type of our own
// would be converted back and forth on the hottest paths and in every slice and map gitext hands out
// ([]Hash, map[Hash]bool), for no change in what callers can do with it. Callers spell it gitext.Hash, make one
// with ParseHash and never import go-git.
type Hash = plumbing.Hash

// RefName is a full ref name (refs/heads/main, refs/notes/bernstein, HEAD). Like Hash it is an alias of
// go-git's string type (plumbing.ReferenceName), for the same reason: gitext passes it to the ref store on
// every read and write. Callers convert from a string (gitext.RefName("refs/…")) and use String and Short.
type RefName = plumbing.ReferenceName

// HEAD is the ref of the checked-out commit.
const HEAD RefName = plumbing.HEAD

// BranchRef is the full ref name of local branch name: refs/heads/<name>.
func BranchRef(name string) RefName { return plumbing.NewBranchReferenceName(name) }

// ShortName is n as git shows it (main, origin/main, v1.0, notes/commits): what go-git's Short gives for every
// valid ref name, without its fmt.Sscanf per rule, which was 4% of a warm commits on Kafka (every branch and
// tag named, each run).
func ShortName(n RefName) string {
	s := string(n)
	for _, p := range [...]string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
		if len(s) > len(p) && s[:len(p)] == p {
			return s[len(p):]
		}
	}
	if len(s) > len("refs/") && s[:len("refs/")] == "refs/" {
		return s[len("refs/"):]
	}
	return s
}

// ParseHash reads a full object id in hex, of either case; ok is false for anything else.
func ParseHash(s string) (h Hash, ok bool) {
	if len(s) != 2*len(h) {
		return Hash{}, false
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash{}, false
	}
	return h, true
}

// NewHash reads hex as an object id the way go-git's plumbing.NewHash does (what does not decode is left
// zero): for ids the caller knows are whole (a constant, or one git itself printed); ParseHash checks.
func NewHash(s string) Hash { return plumbing.NewHash(s) }

// ObjectType is an object's type (commit, tree, blob, tag; String prints it as git does). An alias of go-git's
// plumbing.ObjectType for the reason Hash is one: ReadObject hands out what the pack readers decode, and
// gitext/patch and gitext/patch/apply read objects through functions of that shape.
type ObjectType = plumbing.ObjectType

// The object types a caller tells apart.
const (
	CommitObject = plumbing.CommitObject
	TreeObject   = plumbing.TreeObject
	BlobObject   = plumbing.BlobObject
	TagObject    = plumbing.TagObject
)

// ErrObjectNotFound is wrapped by reads of an object the repository lacks (go-git's error, so that errors.Is
// holds for what gitext's store and go-git's return alike).
var ErrObjectNotFound = plumbing.ErrObjectNotFound

// IsHash says whether s is a full object id in hex (of either case).
func IsHash(s string) bool {
	_, ok := ParseHash(s)
	return ok
}
