package patch

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// Vectors are lines git itself wrote (git diff --binary); the bytes are those lines decoded (git deflates at
// level 1, hence the 78 01 zlib header).
func TestEncode85GitVectors(t *testing.T) {
	cases := []struct {
		deflated []byte
		want     string
	}{
		{[]byte{0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01}, "cmV?d00001"},                              // "" (literal 0)
		{[]byte{0x78, 0x01, 0xab, 0x60, 0xa8, 0x04, 0x00, 0x01, 0xe4, 0x00, 0xf2}, "cmb<ms0083<N)#j"},       // "x\0y"
		{[]byte{0x78, 0x01, 0xab, 0xaa, 0x62, 0xa8, 0x04, 0x00, 0x03, 0xd3, 0x01, 0x6e}, "cmb=bVyFZF1JeO+"}, // "zz\0y"
		{[]byte{0xff, 0xff, 0xff, 0xff}, "|NsC0"},                                                           // 2^32-1
		{[]byte{0, 0, 0, 0}, "00000"},
	}
	for _, tc := range cases {
		if got := string(encode85(nil, tc.deflated)); got != tc.want {
			t.Errorf("encode85(% x) = %q, want %q", tc.deflated, got, tc.want)
		}
	}
}

// TestBase85LineLengths checks the length characters at the 26/27 and 52 byte boundaries.
func TestBase85LineLengths(t *testing.T) {
	for _, n := range []int{1, 26, 27, 52, 53, 104, 130} {
		var out bytes.Buffer
		w := bufio.NewWriter(&out)
		l := &base85Lines{w: w}
		l.Write(bytes.Repeat([]byte{7}, n))
		l.flush()
		w.Flush()
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		total := 0
		for i, line := range lines {
			size := int(line[0]-'A') + 1
			if line[0] >= 'a' {
				size = int(line[0]-'a') + 27
			}
			if i < len(lines)-1 && size != 52 {
				t.Errorf("n=%d: line %d carries %d bytes, want 52", n, i, size)
			}
			if want := (size + 3) / 4 * 5; len(line)-1 != want {
				t.Errorf("n=%d: line %d has %d base85 characters, want %d", n, i, len(line)-1, want)
			}
			total += size
		}
		if total != n {
			t.Errorf("n=%d: lines carry %d bytes", n, total)
		}
	}
}

// TestEncode85AgainstPython uses Python's base64.b85encode, which shares git's alphabet and, with pad=True,
// its zero padding of a short last group, as an independent judge.
func TestEncode85AgainstPython(t *testing.T) {
	if testing.Short() {
		t.Skip("a long check against git, Python or a large corpus: make test runs it, go test -short skips it")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	data := []byte(randomBytes(7, 999))
	cmd := exec.Command("python3", "-c", "import base64,sys; sys.stdout.write(base64.b85encode(sys.stdin.buffer.read(), pad=True).decode())")
	cmd.Stdin = bytes.NewReader(data)
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := encode85(nil, data); !bytes.Equal(got, want) {
		t.Errorf("encode85 differs from Python's b85encode:\n%s\n%s", got, want)
	}
}
