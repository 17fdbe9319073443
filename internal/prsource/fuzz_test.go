package prsource

import (
	"reflect"
	"testing"
)

// FuzzParse: Parse never panics, and whatever it accepts, Marshal writes back as a document Parse reads the same.
func FuzzParse(f *testing.F) {
	b, _ := sample().Marshal()
	f.Add(b)
	f.Add([]byte(`{"v":1,"members":[]}`))
	f.Add([]byte(`{"v":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatalf("Marshal refuses what Parse accepted: %v", err)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("Marshal wrote what Parse refuses: %v\n%s", err, out)
		}
		back, _ := again.Marshal()
		if !reflect.DeepEqual(out, back) {
			t.Fatalf("not stable:\n%s\n%s", out, back)
		}
	})
}
