package lineage

import (
	"errors"
	"strings"
	"testing"
)

// AppendOne writes the reference vector's records from flag values, chains a second body onto the child with
// ChildSHA, and refuses a payload or child sha it cannot take as Unusable, naming the flag, before it asks
// where the store is.
func TestAppendOne(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	where := func() (string, Key, error) { return root, PublicKey(), nil }
	req := AppendRequest{Where: where, Task: "T", Run: "r1", Call: "call", Summary: "s", Kind: "subagent.started",
		Payload: "{}", TsNs: 1}
	got, err := AppendOne(req)
	if err != nil || got.ChildSHA != "sha256:"+refChildHex || got.Seq != 0 {
		t.Fatalf("AppendOne = %+v, %v; want the reference child at seq 0", got, err)
	}
	more := req
	more.ChildSHA, more.Kind, more.Payload, more.TsNs = refChildHex, "subagent.finished", `{"ok":true}`, 2
	if got, err = AppendOne(more); err != nil || got.ChildSHA != "sha256:"+refChildHex || got.Seq != 1 {
		t.Fatalf("AppendOne with ChildSHA = %+v, %v; want seq 1 of the same child", got, err)
	}
	s := Open(root, PublicKey())
	if res := s.Verify(VerifyOptions{}); !res.OK || res.ParentCount != 1 || res.ChildCount != 2 {
		t.Errorf("the store after two appends: %+v", res)
	}

	asked := false
	noStore := func() (string, Key, error) { asked = true; return "", Key{}, errors.New("no store") }
	for _, tc := range []struct {
		name, payload, childSHA, want string
	}{
		{"not JSON", "{", "", "--payload: "},
		{"not an object", "[1]", "", "--payload must be a JSON object"},
		{"bad child sha", "{}", "sha256:../x", "--child-sha: "},
	} {
		bad := req
		bad.Payload, bad.ChildSHA = tc.payload, tc.childSHA
		if tc.childSHA == "" {
			bad.Where = noStore
		}
		_, err := AppendOne(bad)
		var unusable *Unusable
		if !errors.As(err, &unusable) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want Unusable starting %q", tc.name, err, tc.want)
		}
	}
	if asked {
		t.Error("a bad payload asked where the store is")
	}
	if _, err := AppendOne(AppendRequest{Where: noStore, Payload: "{}"}); err == nil || err.Error() != "no store" {
		t.Errorf("a store that cannot be found: %v", err)
	}
}
