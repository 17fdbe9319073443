package lineage

import (
	"strings"

	"github.com/git-bernstein/git-bernstein/internal/pyjson"
	"github.com/git-bernstein/git-bernstein/internal/unusable"
)

// Unusable is a value the store cannot take as given (exit 2 in the CLI): a payload that is not a JSON object,
// a child sha that is not one, a signature with no file to go to. The message names the flag.
type Unusable = unusable.Error

// AppendRequest is lineage v2 append: one body of Kind with Payload (a JSON object's text) for Task's child run
// Run at TsNs; a new child with its parent ref (Call, Summary), or with ChildSHA one more body of that child.
// Where gives the store's root and key; it is asked once the payload parses, so that a bad --payload is
// reported before a store that cannot be found.
type AppendRequest struct {
	Where                          func() (root string, key Key, err error)
	Task, Run, Call, Summary, Kind string
	Payload                        string
	ChildSHA                       string
	TsNs                           int64
}

// Appended is where the body went: its child's sha ("sha256:<hex>") and its seq in the child file.
type Appended struct {
	ChildSHA string
	Seq      int64
}

// AppendOne parses the payload, opens the store and appends (Store.Append, or Store.AppendBody with ChildSHA).
func AppendOne(req AppendRequest) (*Appended, error) {
	v, err := pyjson.Parse([]byte(req.Payload))
	if err != nil {
		return nil, unusable.New("--payload: " + err.Error())
	}
	payload, ok := v.(map[string]any)
	if !ok {
		return nil, unusable.New(`--payload must be a JSON object, like {"tool":"grep"}`)
	}
	root, key, err := req.Where()
	if err != nil {
		return nil, err
	}
	store := Open(root, key)
	body := ChildBody{V: Version, TaskID: req.Task, ChildRunID: req.Run, Kind: req.Kind, Payload: payload, TsNs: req.TsNs}
	if req.ChildSHA != "" {
		if _, err := store.ChildPath(req.ChildSHA); err != nil {
			return nil, unusable.New("--child-sha: " + err.Error())
		}
		sha := "sha256:" + strings.TrimPrefix(req.ChildSHA, "sha256:")
		if body, err = store.AppendBody(sha, body); err != nil {
			return nil, err
		}
		return &Appended{ChildSHA: sha, Seq: body.Seq}, nil
	}
	ref := ParentRef{V: Version, TaskID: req.Task, ChildRunID: req.Run, ParentCallID: req.Call, Summary: req.Summary,
		TsNs: req.TsNs}
	if ref, body, err = store.Append(ref, body); err != nil {
		return nil, err
	}
	return &Appended{ChildSHA: ref.ChildSHA, Seq: body.Seq}, nil
}
