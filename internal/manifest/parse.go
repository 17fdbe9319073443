package manifest

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-bernstein/git-bernstein/internal/strictjson"
)

// Parse outcomes, for errors.Is. A verifier maps ErrUnsupportedSchema to "unusable" (a newer format, nothing
// wrong with it) and ErrMalformed to "does not match what a writer of schema 1 makes".
var (
	// ErrMalformed: not strict JSON (duplicate keys, bad UTF-8, trailing data), or a schema 1 document with a
	// missing, unknown or wrongly typed field.
	ErrMalformed = errors.New("malformed manifest")
	// ErrUnsupportedSchema: schema_version is an integer other than SchemaVersion.
	ErrUnsupportedSchema = errors.New("unsupported manifest schema_version")
)

// maxSafeInt is the largest integer every JSON reader holds exactly (I-JSON, RFC 7493 section 2.2). The
// signature covers the JCS form, which goes through IEEE doubles: larger integers could share a canonical form.
const maxSafeInt = 1<<53 - 1

// Parse reads manifest.json strictly: exactly one JSON object of valid UTF-8, no duplicate member names at
// any depth, schema_version checked before anything else (so that a newer schema is reported as such, not as
// malformed), then every field of schema 1 present with its type, and nothing more. Entries must have safe,
// distinct arcnames and lower-case hex sha256. Errors say which field is wrong.
func Parse(data []byte) (*Manifest, error) {
	v, err := strictjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if err := noReplacement(v, "$"); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: want a JSON object, got %s", ErrMalformed, strictjson.Kind(v))
	}
	sv, ok := top["schema_version"]
	if !ok {
		return nil, fmt.Errorf("%w: \"schema_version\" is missing", ErrMalformed)
	}
	n, err := integer(sv, "schema_version")
	if err != nil {
		return nil, err
	}
	if n != SchemaVersion {
		if n > SchemaVersion {
			return nil, fmt.Errorf("%w: schema_version %d is newer than this program reads (%d); use a newer git-bernstein", ErrUnsupportedSchema, n, SchemaVersion)
		}
		return nil, fmt.Errorf("%w: schema_version %d; only %d exists", ErrUnsupportedSchema, n, SchemaVersion)
	}
	o := fields{strictjson.Fields{M: top, Where: "manifest", Err: ErrMalformed}}
	m := &Manifest{SchemaVersion: int(n)}
	if err := o.only("schema_version", "created_at", "bernstein_version", "tracker", "ticket_id", "files", "pr_number", "commits"); err != nil {
		return nil, err
	}
	if m.CreatedAt, err = o.Str("created_at"); err != nil {
		return nil, err
	}
	if m.BernsteinVersion, err = o.Str("bernstein_version"); err != nil {
		return nil, err
	}
	if m.Tracker, err = o.Str("tracker"); err != nil {
		return nil, err
	}
	if m.TicketID, err = o.Str("ticket_id"); err != nil {
		return nil, err
	}
	if m.PRNumber, err = o.optInt("pr_number"); err != nil {
		return nil, err
	}
	if m.Commits, err = o.StrList("commits"); err != nil {
		return nil, err
	}
	if m.Files, err = o.entries("files"); err != nil {
		return nil, err
	}
	return m, nil
}

// noReplacement refuses U+FFFD anywhere in v, names included: a manifest has no reason to carry one, and it may
// stand for bytes a writer replaced, which RFC 8785 signing would then cover as something else.
func noReplacement(v any, path string) error {
	switch t := v.(type) {
	case string:
		if strings.ContainsRune(t, utf8.RuneError) {
			return fmt.Errorf("%s: holds U+FFFD", path)
		}
	case []any:
		for i, e := range t {
			if err := noReplacement(e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range t {
			if strings.ContainsRune(k, utf8.RuneError) {
				return fmt.Errorf("%s: member name %q holds U+FFFD", path, k)
			}
			if err := noReplacement(e, path+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

// fields reads the members of one object with exact types; where names it in errors.
type fields struct{ strictjson.Fields }

func (o fields) only(names ...string) error {
	allowed := map[string]bool{}
	for _, n := range names {
		allowed[n] = true
		if _, ok := o.M[n]; !ok {
			return fmt.Errorf("%w: %s: %q is missing", ErrMalformed, o.Where, n)
		}
	}
	for k := range o.M {
		if !allowed[k] {
			return fmt.Errorf("%w: %s: unknown field %q (schema_version 1 has %s)", ErrMalformed, o.Where, k, strings.Join(names, ", "))
		}
	}
	return nil
}

func (o fields) optInt(name string) (*int, error) {
	if o.M[name] == nil {
		return nil, nil
	}
	n, err := integer(o.M[name], o.Where+": "+name)
	if err != nil {
		return nil, err
	}
	i := int(n)
	return &i, nil
}

func (o fields) entries(name string) ([]Entry, error) {
	list, ok := o.M[name].([]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s: %q must be a list of entries, got %s", ErrMalformed, o.Where, name, strictjson.Kind(o.M[name]))
	}
	out := make([]Entry, 0, len(list))
	seen := map[string]int{}
	for i, v := range list {
		where := fmt.Sprintf("%s: files[%d]", o.Where, i)
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: %s must be an object, got %s", ErrMalformed, where, strictjson.Kind(v))
		}
		e, err := entry(fields{strictjson.Fields{M: obj, Where: where, Err: ErrMalformed}})
		if err != nil {
			return nil, err
		}
		if j, dup := seen[e.Arcname]; dup {
			return nil, fmt.Errorf("%w: %s: arcname %q is also files[%d]", ErrMalformed, where, e.Arcname, j)
		}
		seen[e.Arcname] = i
		out = append(out, e)
	}
	return out, nil
}

func entry(o fields) (Entry, error) {
	var e Entry
	if err := o.only("arcname", "size_bytes", "sha256", "section"); err != nil {
		return e, err
	}
	var err error
	if e.Arcname, err = o.Str("arcname"); err != nil {
		return e, err
	}
	if err := CheckName(e.Arcname); err != nil {
		return e, fmt.Errorf("%w: %s: arcname: %v", ErrMalformed, o.Where, err)
	}
	if e.Arcname == Name {
		return e, fmt.Errorf("%w: %s: lists %s itself, which is never listed", ErrMalformed, o.Where, Name)
	}
	if e.SizeBytes, err = integer(o.M["size_bytes"], o.Where+": size_bytes"); err != nil {
		return e, err
	}
	if e.SizeBytes < 0 {
		return e, fmt.Errorf("%w: %s: size_bytes %d is negative", ErrMalformed, o.Where, e.SizeBytes)
	}
	if e.SHA256, err = o.Str("sha256"); err != nil {
		return e, err
	}
	if b, err := hex.DecodeString(e.SHA256); err != nil || len(b) != 32 || strings.ToLower(e.SHA256) != e.SHA256 {
		return e, fmt.Errorf("%w: %s: sha256 %.80q is not 64 lower-case hex digits", ErrMalformed, o.Where, e.SHA256)
	}
	if e.Section, err = o.Str("section"); err != nil {
		return e, err
	}
	return e, nil
}

// integer accepts only an integer literal (no fraction or exponent: 1.0 and 1e0 are refused) within
// ±(2^53-1), so that every reader and the JCS form agree on its value.
func integer(v any, what string) (int64, error) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%w: %s must be an integer, got %s", ErrMalformed, what, strictjson.Kind(v))
	}
	if strings.ContainsAny(string(num), ".eE") {
		return 0, fmt.Errorf("%w: %s is %s; write an integer without fraction or exponent", ErrMalformed, what, num)
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil || n > maxSafeInt || n < -maxSafeInt {
		return 0, fmt.Errorf("%w: %s %.40s is out of range (at most 2^53-1)", ErrMalformed, what, num)
	}
	return n, nil
}

// CheckName says whether name is safe as an archive member or arcname: a relative POSIX path of valid UTF-8
// whose parts are neither empty, "." nor "..", with no backslash, NUL or other control character, and no
// Windows drive prefix, and no part that is git's folder .git on some file system (dotgit.go). Extracting such a
// name can only write inside the target folder, on any system, and never into a repository's own files.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("empty name")
	case !utf8.ValidString(name):
		return fmt.Errorf("%q is not valid UTF-8", name)
	case strings.HasPrefix(name, "/"):
		return fmt.Errorf("%q is absolute", name)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("%q contains NUL", name)
	case strings.ContainsRune(name, '\\'):
		return fmt.Errorf("%q contains a backslash", name)
	case len(name) >= 2 && name[1] == ':' && (name[0]|0x20) >= 'a' && (name[0]|0x20) <= 'z':
		return fmt.Errorf("%q starts with a Windows drive", name)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("%q contains control character %U", name, r)
		}
	}
	for _, part := range strings.Split(name, "/") {
		switch part {
		case "..":
			return fmt.Errorf("%q contains \"..\"", name)
		case ".", "":
			return fmt.Errorf("%q is not a clean path (empty or \".\" part)", name)
		}
	}
	return checkDotGit(name)
}
