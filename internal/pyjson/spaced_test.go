package pyjson

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/pythontest"
)

// TestSpacedAgainstPython: Spaced is json.dumps(v, sort_keys=True) with Python's default separators, with and
// without ensure_ascii, as older lineage v1 packs wrote their lines.
func TestSpacedAgainstPython(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 7))
	var in [][]byte
	var want [][2][]byte
	for i := 0; i < 200; i++ {
		v := randomValue(rng, 0)
		text, err := Encoding{ASCII: true}.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Encoding{ASCII: true, Spaced: true}.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Encoding{Spaced: true}.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, text)
		want = append(want, [2][]byte{a, u})
	}
	script := `import json,sys
for line in sys.stdin:
    v = json.loads(line)
    sys.stdout.write(json.dumps([json.dumps(v, sort_keys=True), json.dumps(v, sort_keys=True, ensure_ascii=False)]) + "\n")`
	lines := pythontest.Lines(t, script, in)
	for i, l := range lines {
		var py [2]string
		if err := json.Unmarshal([]byte(l), &py); err != nil {
			t.Fatal(err)
		}
		if py[0] != string(want[i][0]) || py[1] != string(want[i][1]) {
			t.Errorf("value %d:\n go %q\n    %q\n py %q", i, want[i][0], want[i][1], py)
		}
	}
}
