package logv1

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// Sidecars returns the bytes of a signature sidecar by its path relative to the log's folder
// ("signatures/<aa>/<sha256(artefact_path)>/<entry hex>.jws"), or an error wrapping fs.ErrNotExist.
type Sidecars func(rel string) ([]byte, error)

// SidecarNames are where an entry's signature may be, relative to the log's folder, in the order looked at:
// upstream's writer names it <entry hex>.jws, the example packs sha256_<entry hex>.jws.
func SidecarNames(e *Entry) []string {
	sum := sha256.Sum256([]byte(e.ArtefactPath))
	full := hex.EncodeToString(sum[:])
	dir := "signatures/" + full[:2] + "/" + full + "/"
	return []string{dir + e.Hex() + ".jws", dir + "sha256_" + e.Hex() + ".jws"}
}

// Options say which checks run besides parsing, the canonical bytes and parent resolution.
type Options struct {
	// Cards, when set, checks every entry's signature under the card of its (agent_id, agent_card_kid).
	Cards    *Cards
	Sidecars Sidecars
	// OperatorKey, when set, checks every entry's operator_hmac.
	OperatorKey []byte
	// Stewards, when set, are the only agents that may write merge entries (two or more parents).
	Stewards []string
	// Forks checks that each artefact has one open tip and that every fork is joined by a merge entry. It is a
	// property of the whole log; a bundle's slice leaves it out.
	Forks bool
}

// Signature is an entry's signature status.
type Signature string

const (
	SigVerified  Signature = "verified"   // the sidecar verifies under the card of the entry's agent and kid
	SigUnchecked Signature = "unverified" // no cards were given
	SigFailed    Signature = "failed"     // missing, refused or not verifying
)

// Result is the gate's answer: OK when Failures is empty.
type Result struct {
	Log        *Log
	Failures   []Problem
	Warnings   []string
	Signatures map[*Entry]Signature
	Forks      []Fork
}

// OK says whether every check passed.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// Verify runs the checks of package lineage's doc ("Lineage v1 log", "Checks") on a parsed log, in that order:
// the log's own problems, then per entry its signature, operator HMAC and steward, then parents, then forks.
func Verify(l *Log, opts Options) *Result {
	r := &Result{Log: l, Signatures: map[*Entry]Signature{}}
	r.Failures = append(r.Failures, l.Problems...)
	if l.Spaced > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d of %d entries are written with \", \" and \": \" separators (older packs), not their canonical form; "+
			"accepted by re-canonicalising, as upstream verifies such packs: the signatures cover the canonical bytes", l.Spaced, len(l.Entries)))
	}
	if opts.Cards != nil {
		for _, m := range opts.Cards.Conflicts() {
			r.Failures = append(r.Failures, Problem{Message: m})
		}
	}
	stewards := map[string]bool{}
	for _, s := range opts.Stewards {
		stewards[s] = true
	}
	for _, e := range l.Entries {
		fail := func(format string, a ...any) {
			r.Failures = append(r.Failures, Problem{Line: e.Line, Artefact: e.ArtefactPath, Entry: e.Hash, Message: fmt.Sprintf(format, a...)})
		}
		if opts.Cards == nil {
			r.Signatures[e] = SigUnchecked
		} else if msg := checkSignature(e, opts.Cards, opts.Sidecars); msg != "" {
			r.Signatures[e] = SigFailed
			fail("%s", msg)
		} else {
			r.Signatures[e] = SigVerified
		}
		if opts.OperatorKey != nil {
			m := hmac.New(sha256.New, opts.OperatorKey)
			m.Write(e.HMACInput())
			if want := hex.EncodeToString(m.Sum(nil)); !hmac.Equal([]byte(want), []byte(e.OperatorHMAC)) {
				fail("operator HMAC mismatch: operator_hmac is %.16s…, the operator key gives %.16s…: the entry was changed, or another key (or operator) wrote it", e.OperatorHMAC, want)
			}
		}
		if opts.Stewards != nil && len(e.ParentHashes) >= 2 && !stewards[e.AgentID] {
			fail("merge entry written by %q, who is not an allowed steward (--steward)", e.AgentID)
		}
	}
	for _, e := range l.Entries {
		for _, p := range e.ParentHashes {
			if l.ByHash(p) == nil {
				r.Failures = append(r.Failures, Problem{Line: e.Line, Artefact: e.ArtefactPath, Entry: e.Hash,
					Message: fmt.Sprintf("dangling parent %s: no entry of the log has that hash", p)})
			}
		}
	}
	if opts.Forks {
		r.Forks = Forks(l)
		r.Failures = append(r.Failures, forkProblems(l, r.Forks)...)
	}
	return r
}

// checkSignature returns "" when e's sidecar verifies under its card, else what is wrong.
func checkSignature(e *Entry, cards *Cards, sidecars Sidecars) string {
	key, why := cards.lookup(Pair{e.AgentID, e.AgentCardKid})
	if why != "" {
		return why
	}
	if sidecars == nil {
		return "missing signature sidecar: no signatures folder"
	}
	names := SidecarNames(e)
	var token []byte
	var err error
	for _, n := range names {
		if token, err = sidecars(n); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("missing signature sidecar %s: no signature is named for this entry's hash (the entry's bytes changed after it was signed, or its sidecar was removed)", names[0])
	}
	if err != nil {
		return fmt.Sprintf("cannot read the signature sidecar: %v", err)
	}
	kid, err := sign.VerifyDetached(string(token), e.Canonical, []sign.TrustedKey{key})
	switch {
	case err == nil:
		return ""
	case errors.Is(err, sign.ErrUnknownKid):
		return fmt.Sprintf("kid binding mismatch: the entry says kid %q, its signature's header kid %q (a sidecar of another entry or key)", e.AgentCardKid, kid)
	case errors.Is(err, sign.ErrBadSignature):
		return fmt.Sprintf("invalid signature: the key of (agent_id %q, kid %q) in %s rejects it: the entry's bytes changed after signing, or the sidecar belongs to another entry",
			e.AgentID, e.AgentCardKid, key.Source)
	}
	return fmt.Sprintf("signature sidecar refused: %v", err)
}

// Fork is a parent that two or more entries of one artefact continue with different content.
type Fork struct {
	Artefact string
	Parent   *Entry // nil when the parent hash names no entry
	ParentID string
	Children []*Entry
	Resolved bool // a merge entry lists every child among its parents
}

// Forks finds upstream's forks: entries of one artefact with the same single parent and different
// content_hash. Re-recording the same content is not a fork.
func Forks(l *Log) []Fork {
	var forks []Fork
	type key struct{ path, parent string }
	children := map[key][]*Entry{}
	var order []key
	for _, e := range l.Entries {
		if len(e.ParentHashes) != 1 {
			continue
		}
		k := key{e.ArtefactPath, e.ParentHashes[0]}
		if _, ok := children[k]; !ok {
			order = append(order, k)
		}
		children[k] = append(children[k], e)
	}
	for _, k := range order {
		kids := children[k]
		contents := map[string]bool{}
		for _, c := range kids {
			contents[c.ContentHash] = true
		}
		if len(contents) < 2 {
			continue
		}
		f := Fork{Artefact: k.path, Parent: l.ByHash(k.parent), ParentID: k.parent, Children: kids}
		for _, m := range l.Entries {
			if len(m.ParentHashes) < 2 {
				continue
			}
			all := true
			for _, c := range kids {
				all = all && slices.Contains(m.ParentHashes, c.Hash)
			}
			if all {
				f.Resolved = true
				break
			}
		}
		forks = append(forks, f)
	}
	return forks
}

// OpenTips returns, per artefact in log order, the entries no entry of the same artefact names as a parent.
func OpenTips(l *Log) ([]string, map[string][]*Entry) {
	parents := map[string]map[string]bool{}
	var paths []string
	for _, e := range l.Entries {
		if parents[e.ArtefactPath] == nil {
			parents[e.ArtefactPath] = map[string]bool{}
			paths = append(paths, e.ArtefactPath)
		}
		for _, p := range e.ParentHashes {
			parents[e.ArtefactPath][p] = true
		}
	}
	tips := map[string][]*Entry{}
	for _, e := range l.Entries {
		if !parents[e.ArtefactPath][e.Hash] {
			tips[e.ArtefactPath] = append(tips[e.ArtefactPath], e)
		}
	}
	return paths, tips
}

func forkProblems(l *Log, forks []Fork) []Problem {
	var out []Problem
	paths, tips := OpenTips(l)
	for _, p := range paths {
		if t := tips[p]; len(t) > 1 {
			out = append(out, Problem{Artefact: p, Message: fmt.Sprintf("%d unresolved open tips: %s; two versions of the artefact and no merge entry that joins them", len(t), entryList(t))})
		}
	}
	for _, f := range forks {
		if f.Resolved {
			continue
		}
		line := 0
		if f.Parent != nil {
			line = f.Parent.Line
		}
		out = append(out, Problem{Line: line, Artefact: f.Artefact, Entry: f.ParentID,
			Message: fmt.Sprintf("unresolved fork: %s both continue this entry with different content, and no merge entry joins them", entryList(f.Children))})
	}
	return out
}

func entryList(es []*Entry) string {
	var s []string
	for _, e := range es {
		s = append(s, fmt.Sprintf("line %d by %s (entry %s)", e.Line, e.AgentID, e.Hash))
	}
	return strings.Join(s, " and ")
}
