package lineage

import (
	"github.com/git-bernstein/git-bernstein/internal/pyjson"

	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Export formats, as upstream names them.
const (
	FormatJSONL    = "jsonl"
	FormatSigstore = "sigstore"
)

// in-toto and SLSA identifiers upstream stamps on each statement.
const (
	StatementType = "https://in-toto.io/Statement/v1"
	PredicateType = "https://slsa.dev/provenance/v0.3"
	BuildType     = "https://bernstein.dev/lineage/v2"
	BuilderID     = "https://bernstein.dev/runners/lineage-v2"
	SubjectPrefix = "bernstein-lineage-v2/"
	zeroDigestHex = "0000000000000000000000000000000000000000000000000000000000000000"
)

var (
	encCompactASCII = pyjson.Encoding{ASCII: true}
	encIndentASCII  = pyjson.Encoding{ASCII: true, Indent: "  "}
)

// ExportJSONL is upstream's export_jsonl: per parent ref a {"_kind":"parent",…} line, then its bodies as
// {"_kind":"child",…} lines, compact with sorted keys and json.dumps' default ensure_ascii=True (doc.go,
// "Export"). Empty for an unknown task.
func ExportJSONL(timeline []Entry) ([]byte, error) {
	var out []byte
	add := func(m map[string]any, kind string) error {
		m["_kind"] = kind
		b, err := encCompactASCII.Marshal(m)
		if err != nil {
			return err
		}
		out = append(append(out, b...), '\n')
		return nil
	}
	for _, e := range timeline {
		if err := add(e.Parent.Map(), "parent"); err != nil {
			return nil, err
		}
		for _, b := range e.Bodies {
			if err := add(b.Map(), "child"); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Statements is upstream's export_sigstore: one in-toto Statement v1 per parent ref, whose subject is the child's
// content address and whose predicate has the SLSA 1.0 shape (buildDefinition, runDetails) under upstream's
// v0.3 predicateType.
func Statements(timeline []Entry) ([]any, error) {
	out := make([]any, 0, len(timeline))
	for _, e := range timeline {
		ref := e.Parent
		byproducts := make([]any, 0, len(e.Bodies))
		for i, b := range e.Bodies {
			c, err := b.Canonical()
			if err != nil {
				return nil, err
			}
			sum := sha256.Sum256(c)
			byproducts = append(byproducts, map[string]any{
				"name":   "child_body[" + strconv.Itoa(i) + "]",
				"digest": map[string]any{"sha256": hex.EncodeToString(sum[:])},
			})
		}
		prev := ref.PrevHMAC
		if prev == "" {
			prev = zeroDigestHex
		}
		predicate := map[string]any{
			"buildDefinition": map[string]any{
				"buildType": BuildType,
				"externalParameters": map[string]any{
					"task_id": ref.TaskID, "child_run_id": ref.ChildRunID,
					"parent_call_id": ref.ParentCallID, "summary": ref.Summary,
				},
				"internalParameters": map[string]any{"lineage_version": int64(Version)},
				"resolvedDependencies": []any{
					map[string]any{"name": "parent_ref.prev_hmac", "digest": map[string]any{"sha256": prev}},
				},
			},
			"runDetails": map[string]any{
				"builder":    map[string]any{"id": BuilderID},
				"metadata":   map[string]any{"invocationId": ref.ChildRunID, "startedOn": nsToISO(ref.TsNs)},
				"byproducts": byproducts,
			},
		}
		out = append(out, map[string]any{
			"_type": StatementType,
			"subject": []any{map[string]any{
				"name":   SubjectPrefix + ref.TaskID + "/" + ref.ChildRunID,
				"digest": map[string]any{"sha256": strings.TrimPrefix(ref.ChildSHA, "sha256:")},
			}},
			"predicateType": PredicateType,
			"predicate":     predicate,
		})
	}
	return out, nil
}

// ExportSigstore is the statements as upstream's CLI prints them: json.dumps(indent=2, sort_keys=True).
func ExportSigstore(timeline []Entry) ([]byte, error) {
	st, err := Statements(timeline)
	if err != nil {
		return nil, err
	}
	return encIndentASCII.Marshal(st)
}

// Timeline is one task's parent refs in append order, each with its child's bodies (Store.Replay).
type Timeline []Entry

// Show is lineage v2 show: Task's timeline in the store at root, read under the public key as upstream's show
// reads it. It does not check the HMACs (Store.Verify does).
func Show(root, task string) (Timeline, error) {
	return Open(root, PublicKey()).Replay(task)
}

// Marshal is show --output-json: [{"parent":{…},"bodies":[…]}] as json.dumps(indent=2, sort_keys=True).
func (timeline Timeline) Marshal() ([]byte, error) {
	out := make([]any, 0, len(timeline))
	for _, e := range timeline {
		bodies := make([]any, 0, len(e.Bodies))
		for _, b := range e.Bodies {
			bodies = append(bodies, b.Map())
		}
		out = append(out, map[string]any{"parent": e.Parent.Map(), "bodies": bodies})
	}
	return encIndentASCII.Marshal(out)
}

// nsToISO reproduces upstream's datetime.fromtimestamp(ts_ns / 1e9, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"):
// the int division is correctly rounded to a double, and fromtimestamp rounds the fraction half-even to whole
// microseconds, which can carry into the next second. Plain integer division would differ near second edges.
func nsToISO(tsNs int64) string {
	if tsNs <= 0 {
		return "1970-01-01T00:00:00Z"
	}
	t, _ := new(big.Rat).SetFrac(big.NewInt(tsNs), big.NewInt(1e9)).Float64()
	sec := math.Floor(t)
	if math.RoundToEven((t-sec)*1e6) >= 1e6 {
		sec++
	}
	return time.Unix(int64(sec), 0).UTC().Format("2006-01-02T15:04:05Z")
}
