package sign

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/pythontest"
)

var update = flag.Bool("update", false, "rewrite testdata/legacy/*.golden from python3's json.dumps")

// pythonDumps is the upstream tool's canonical form, computed by Python itself.
const pythonDumps = `import json, sys
obj = json.loads(sys.stdin.buffer.read())
sys.stdout.write(json.dumps(obj, sort_keys=True, separators=(",", ":")))`

func python(t *testing.T, input []byte) []byte {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil
	}
	cmd := exec.Command(py, "-c", pythonDumps)
	cmd.Stdin = bytes.NewReader(input)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	return out
}

// Golden files hold python3's output for each input; the test checks our output against them, and when
// python3 is on PATH (and not under -short: a Python start per vector), that the golden files still match Python.
func TestLegacyCanonicalGolden(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob("testdata/legacy/*.json")
	if len(inputs) == 0 {
		t.Fatal("no vectors in testdata/legacy")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			input, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			goldenPath := strings.TrimSuffix(in, ".json") + ".golden"
			var py []byte
			if !testing.Short() || *update {
				py = python(t, input)
			}
			if *update {
				if py == nil {
					t.Fatal("-update needs python3")
				}
				if err := os.WriteFile(goldenPath, py, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			golden, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run go test -update with python3 on PATH)", err)
			}
			if py != nil && !bytes.Equal(py, golden) {
				t.Errorf("%s is stale: python3 now gives\n%s", goldenPath, py)
			}
			got, err := LegacyCanonical(input)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("LegacyCanonical:\n got %s\nwant %s", got, golden)
			}
		})
	}
}

// For ASCII strings and integer numbers the legacy form is the JCS form (doc.go, "Legacy payload").
func TestLegacyEqualsJCSForPlainManifests(t *testing.T) {
	input, err := os.ReadFile("testdata/legacy/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := LegacyCanonical(input)
	if err != nil {
		t.Fatal(err)
	}
	jcs, err := Canonicalize(input)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(legacy, jcs) {
		t.Errorf("legacy %s\n   jcs %s", legacy, jcs)
	}
}

func TestCanonicalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{ "b" : 1, "a" : [1.0, 2e2, "\u00e9", "\u2028<&>"] }`, "{\"a\":[1,200,\"é\",\"\u2028<&>\"],\"b\":1}"},
		// RFC 8785 3.2.3: keys sort by UTF-16 code units, so U+10000 (D800 DC00) sorts before U+E000.
		{"{\"\ue000\":1,\"\U00010000\":2}", "{\"\U00010000\":2,\"\ue000\":1}"},
		{`{"n":123456789012345678901234567890}`, `{"n":1.2345678901234568e+29}`},
	} {
		got, err := Canonicalize([]byte(tc.in))
		if err != nil {
			t.Errorf("Canonicalize(%s): %v", tc.in, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("Canonicalize(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestCanonicalFormsRejectAmbiguousInput(t *testing.T) {
	for name, in := range map[string]string{
		"duplicate key":  `{"a":1,"a":2}`,
		"invalid UTF-8":  "{\"a\":\"\xff\"}",
		"lone surrogate": `{"a":"\ud800"}`,
		"trailing data":  `{} {}`,
		"not JSON":       `{a:1}`,
		"empty":          ``,
	} {
		if _, err := Canonicalize([]byte(in)); err == nil {
			t.Errorf("Canonicalize accepted %s", name)
		}
		if _, err := LegacyCanonical([]byte(in)); err == nil {
			t.Errorf("LegacyCanonical accepted %s", name)
		}
	}
	if _, err := LegacyCanonical([]byte(`[1e400]`)); err == nil {
		t.Errorf("LegacyCanonical accepted a float overflow (Python would write Infinity, not JSON)")
	}
	big := "-" + strings.Repeat("9", 300)
	if got, err := LegacyCanonical([]byte("[" + big + "]")); err != nil || string(got) != "["+big+"]" {
		t.Errorf("300-digit integer: got %s, %v; want it exact", got, err)
	}
}

// A seeded batch of random documents (floats from random bits, strings from random code points) goes through
// one python3 process; every line must match LegacyCanonical.
func TestLegacyCanonicalMatchesPythonRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var docs [][]byte
	for range 300 {
		var f float64
		for {
			f = math.Float64frombits(rng.Uint64())
			if !math.IsInf(f, 0) && !math.IsNaN(f) {
				break
			}
		}
		var s strings.Builder
		for range rng.IntN(8) {
			r := rune(rng.IntN(0x110000))
			if r >= 0xd800 && r <= 0xdfff {
				r = 'x'
			}
			s.WriteRune(r)
		}
		doc, err := json.Marshal(map[string]any{
			"f":        f,
			"small":    float64(rng.IntN(1_000_000)) / 1000,
			"i":        rng.Int64() - math.MaxInt64/2,
			s.String(): []any{s.String(), nil, true},
		})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	lines := pythontest.Lines(t, `import json, sys
for line in sys.stdin.buffer:
    print(json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")))`, docs)
	for i, doc := range docs {
		got, err := LegacyCanonical(doc)
		if err != nil {
			t.Fatalf("LegacyCanonical(%s): %v", doc, err)
		}
		if string(got) != lines[i] {
			t.Errorf("document %s\n ours   %s\n python %s", doc, got, lines[i])
		}
	}
}
