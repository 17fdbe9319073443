package strictjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecode: Decode never panics, and what it accepts encoding/json reads as the same value.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"A":2}`, `{"a":{"b":[1,"\ud83d\ude00"]}}`, `"\ud800"`, `[1,2] x`, `{"k":"\u212A"}`, `{"\u212Aid":1,"kid":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		if err != nil {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var w any
		if err := dec.Decode(&w); err != nil {
			t.Fatalf("Decode accepted %q, encoding/json refuses it: %v", data, err)
		}
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("%q: Decode %#v, encoding/json %#v", data, v, w)
		}
	})
}
