package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxDepth bounds nesting: the documents read here are a few levels deep, and deep nesting is only an attack on
// the parser.
const MaxDepth = 16

// Decode reads one JSON value strictly (doc.go) into map[string]any, []any, json.Number, string, bool or nil.
func Decode(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	if off := loneSurrogate(data); off >= 0 {
		return nil, fmt.Errorf("a lone surrogate escape at offset %d (%.6s), which encoding/json reads as U+FFFD and other readers refuse", off, data[off:])
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, "$", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}

// Unmarshal is json.Unmarshal into v after Decode's checks, and after checking that every member name that
// encoding/json would match to a field of v's type, ignoring case, is the field's exact name. Members with no
// field are ignored, as json.Unmarshal ignores them.
func Unmarshal(data []byte, v any) error { return unmarshal(data, v, false) }

// UnmarshalKnown is Unmarshal that also refuses a member v's type has no field for.
func UnmarshalKnown(data []byte, v any) error { return unmarshal(data, v, true) }

func unmarshal(data []byte, v any, known bool) error {
	tree, err := Decode(data)
	if err != nil {
		return err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strictjson: Unmarshal needs a non-nil pointer, got %T", v)
	}
	if err := checkNames(rv.Type().Elem(), tree, "$", known); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func decodeValue(dec *json.Decoder, path string, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("%s: nested more than %d levels", path, MaxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("empty document")
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := map[string]any{}
			folded := map[string]string{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("%s: %v", path, err)
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("%s: member name is not a string", path)
				}
				if _, dup := obj[k]; dup {
					return nil, fmt.Errorf("%s: duplicate member %q (two readers could see two different values)", path, k)
				}
				f := fold(k)
				if other, twin := folded[f]; twin {
					return nil, fmt.Errorf("%s: members %q and %q differ only in letter case (a reader that ignores case could take either)", path, other, k)
				}
				folded[f] = k
				v, err := decodeValue(dec, member(path, k), depth+1)
				if err != nil {
					return nil, err
				}
				obj[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
			return obj, nil
		case '[':
			list := []any{}
			for i := 0; dec.More(); i++ {
				v, err := decodeValue(dec, fmt.Sprintf("%s[%d]", path, i), depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
			return list, nil
		}
		return nil, fmt.Errorf("%s: unexpected %q", path, t)
	}
	return tok, nil
}

// member is the path of member k of the object at path: $.name, or $["a b"] when k is not a plain name.
func member(path, k string) string {
	plain := k != ""
	for _, r := range k {
		if !(r == '_' || r == '-' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			plain = false
			break
		}
	}
	if plain {
		return path + "." + k
	}
	return fmt.Sprintf("%s[%q]", path, k)
}

// loneSurrogate is the offset of the first \u escape of a UTF-16 surrogate that is not half of a pair (a high
// one followed by a low one), or -1. encoding/json turns such an escape into U+FFFD without an error, while
// RFC 8785 and other readers refuse it, so two readers would see two documents. A U+FFFD written as itself is
// a character like any other.
func loneSurrogate(data []byte) int {
	in := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case !in:
			in = c == '"'
		case c == '"':
			in = false
		case c == '\\' && i+1 < len(data):
			if data[i+1] != 'u' {
				i++
				continue
			}
			r, ok := hex4(data, i+2)
			switch {
			case !ok || r < 0xd800 || r > 0xdfff:
			case r >= 0xdc00:
				return i // a low half with no high half before it
			default:
				if lo, ok := hex4(data, i+8); i+7 >= len(data) || data[i+6] != '\\' || data[i+7] != 'u' || !ok || lo < 0xdc00 || lo > 0xdfff {
					return i
				}
				i += 6 // the low half is this pair's
			}
			i += 5
		}
	}
	return -1
}

// hex4 is the value of the four hex digits at data[i:], if there are four.
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// fold is encoding/json's foldName: two names fold alike exactly when bytes.EqualFold says they are equal,
// which is how it matches a member to a field.
func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			continue
		}
		b.WriteRune(unicode.ToUpper(unicode.ToLower(r)))
	}
	return b.String()
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// checkNames walks v (a Decode tree) beside t, the type it will be decoded into.
func checkNames(t reflect.Type, v any, path string, known bool) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || t.Kind() == reflect.Interface {
		return nil // json.RawMessage, time.Time, any: read as they are
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil // json.Unmarshal says what is wrong with the type
		}
		fields := jsonFields(t)
		for k, mv := range obj {
			if ft, ok := fields[k]; ok {
				if err := checkNames(ft, mv, member(path, k), known); err != nil {
					return err
				}
				continue
			}
			for name := range fields {
				if strings.EqualFold(name, k) {
					return fmt.Errorf("%s: member names are exact: write %q", member(path, k), name)
				}
			}
			if known {
				return fmt.Errorf("%s: unknown member", member(path, k))
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil
		}
		list, _ := v.([]any)
		for i, e := range list {
			if err := checkNames(t.Elem(), e, fmt.Sprintf("%s[%d]", path, i), known); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, _ := v.(map[string]any)
		for k, e := range obj {
			if err := checkNames(t.Elem(), e, member(path, k), known); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields maps each JSON member name encoding/json gives t's fields to the field's type: the tag's name,
// else the Go name; "-" left out; untagged embedded structs flattened (their fields shadowed by outer ones).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var embedded []reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				embedded = append(embedded, et)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	for _, et := range embedded {
		for name, ft := range jsonFields(et) {
			if _, shadowed := out[name]; !shadowed {
				out[name] = ft
			}
		}
	}
	return out
}

// Kind names the JSON type of a value Decode returned, for messages: "a string", "a list", "null", ….
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Fields reads the members of one object Decode returned, for a strict reader of a signed format: each error
// wraps Err (the reader's own "malformed" error) and names the object (Where) and the member.
type Fields struct {
	M     map[string]any
	Where string
	Err   error
}

// Str is member name as a string.
func (o Fields) Str(name string) (string, error) {
	s, ok := o.M[name].(string)
	if !ok {
		return "", fmt.Errorf("%w: %s: %q must be a string, got %s", o.Err, o.Where, name, Kind(o.M[name]))
	}
	return s, nil
}

// StrList is member name as a list of strings.
func (o Fields) StrList(name string) ([]string, error) {
	list, ok := o.M[name].([]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s: %q must be a list of strings, got %s", o.Err, o.Where, name, Kind(o.M[name]))
	}
	out := make([]string, 0, len(list))
	for i, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%w: %s: %s[%d] must be a string, got %s", o.Err, o.Where, name, i, Kind(v))
		}
		out = append(out, s)
	}
	return out, nil
}
