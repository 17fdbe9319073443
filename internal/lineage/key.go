package lineage

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// DefaultKey is the HMAC key upstream's CLI always uses. It is public, so a chain under it catches accidents,
// never forgery.
const DefaultKey = "bernstein-lineage-v2-default-key"

// KeyFileEnv names a file holding a secret key, for writers and verifiers that share one.
const KeyFileEnv = "BERNSTEIN_LINEAGE_V2_KEY_FILE"

// KeyClass says whether anyone could have computed the HMACs.
type KeyClass string

const (
	KeyPublicDefault KeyClass = "public-default"
	KeySecretFile    KeyClass = "secret-file"
)

// Key is an HMAC key and where it came from.
type Key struct {
	Bytes  []byte
	Class  KeyClass
	Source string // the key file, or "" for the default
}

// PublicKey is upstream's default key.
func PublicKey() Key { return Key{Bytes: []byte(DefaultKey), Class: KeyPublicDefault} }

// LoadKeyFile reads a key file: its bytes, less one trailing newline so `echo secret > file` works. A file holding
// the public constant is classed as public: the class describes who can forge, not where the bytes came from.
func LoadKeyFile(path string) (Key, error) {
	// A key is a few dozen bytes; the bound keeps a key file pointed at /dev/zero from exhausting memory.
	data, err := regularfile.ReadFile(path, "lineage key file", 64<<10)
	if err != nil {
		return Key{}, err
	}
	if bytes.HasSuffix(data, []byte("\r\n")) {
		data = data[:len(data)-2]
	} else if bytes.HasSuffix(data, []byte("\n")) {
		data = data[:len(data)-1]
	}
	if len(data) == 0 {
		return Key{}, fmt.Errorf("lineage key file %s is empty: put the secret HMAC key in it", path)
	}
	class := KeySecretFile
	if string(data) == DefaultKey {
		class = KeyPublicDefault
	}
	return Key{Bytes: data, Class: class, Source: path}, nil
}

// ResolveKey picks the key file given on the command line, else the one named by $BERNSTEIN_LINEAGE_V2_KEY_FILE
// (getenv), else the public default.
func ResolveKey(keyFile string, getenv func(string) string) (Key, error) {
	if keyFile == "" && getenv != nil {
		keyFile = getenv(KeyFileEnv)
	}
	if keyFile == "" {
		return PublicKey(), nil
	}
	k, err := LoadKeyFile(keyFile)
	if errors.Is(err, os.ErrNotExist) {
		return Key{}, fmt.Errorf("%w (from --key-file or $%s)", err, KeyFileEnv)
	}
	return k, err
}
