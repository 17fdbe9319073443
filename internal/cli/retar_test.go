package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/sign"
)

// tarMember is one member of an archive a test rebuilds: its name and bytes.
type tarMember struct {
	name string
	data []byte
}

// pythonTarWriter writes the members a JSON file lists ([name, path] pairs) with Python's tarfile, as upstream
// Bernstein writes bundles (and as the red team rebuilt them).
const pythonTarWriter = `
import io, json, sys, tarfile
out, members = sys.argv[1], json.load(open(sys.argv[2]))
with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT) as tar:
    for name, path in members:
        data = open(path, "rb").read()
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime, info.uid, info.gid, info.uname, info.gname = len(data), 0o644, 0, 0, 0, "", ""
        tar.addfile(info, io.BytesIO(data))
`

// pythonTar writes members, in order, to the tar.gz out with Python's tarfile; without python3 the test skips.
func pythonTar(t *testing.T, out string, members []tarMember) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the review rebuilt archives with Python's tarfile")
	}
	dir := t.TempDir()
	var list [][2]string
	for i, m := range members {
		p := filepath.Join(dir, fmt.Sprintf("m%d", i))
		if err := os.WriteFile(p, m.data, 0o644); err != nil {
			t.Fatal(err)
		}
		list = append(list, [2]string{m.name, p})
	}
	lj, _ := json.Marshal(list)
	listFile := filepath.Join(dir, "members.json")
	if err := os.WriteFile(listFile, lj, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(python, "-c", pythonTarWriter, out, listFile).CombinedOutput(); err != nil {
		t.Fatalf("python3 tarfile: %v\n%s", err, b)
	}
}

// signManifest writes archive.jws, the bundles' detached JWS over manifestJSON's JCS form, with the PKCS#8 key
// file key as kid: what a producer who lies (or edits a bundle before signing it) does.
func signManifest(t *testing.T, archive, key, kid string, manifestJSON []byte) {
	t.Helper()
	sk, err := sign.LoadPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := sign.Canonicalize(manifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := sign.SignDetached(sk, kid, canon)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(archive+".jws", []byte(jws), 0o644); err != nil {
		t.Fatal(err)
	}
}
