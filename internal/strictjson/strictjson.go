// Package strictjson decodes JSON the way a verifier must read signed documents: exactly one value of valid
// UTF-8, no duplicate member names at any depth (after unescaping), no lone surrogate escapes, bounded nesting,
// nothing after the value. Two readers of such a document cannot see two different values. manifest.json and
// git/commits.json are read through it.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting: a manifest is three levels deep, commits.json six, and deep nesting is only an
// attack on the parser.
const maxDepth = 16

// Decode decodes one JSON value with json.Number numbers, refusing duplicate member names (after
// unescaping, so "a" and "\u0061" collide), lone surrogate escapes, deep nesting and anything after the value.
func Decode(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
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

func decodeValue(dec *json.Decoder, path string, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: nested more than %d levels", path, maxDepth)
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
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("%s: %v", path, err)
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("%s: member name is not a string", path)
				}
				if err := checkString(k); err != nil {
					return nil, fmt.Errorf("%s: member name %q: %v", path, k, err)
				}
				if _, dup := obj[k]; dup {
					return nil, fmt.Errorf("%s: duplicate member %q (two readers could see two different values)", path, k)
				}
				v, err := decodeValue(dec, path+"."+k, depth+1)
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
	case string:
		if err := checkString(t); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	return tok, nil
}

// checkString refuses U+FFFD. encoding/json turns a lone surrogate escape (\ud800) into U+FFFD silently, so
// a decoded U+FFFD may stand for bytes that RFC 8785 refuses; a manifest has no reason to carry one.
func checkString(s string) error {
	if strings.ContainsRune(s, utf8.RuneError) {
		return errors.New("holds U+FFFD or a lone surrogate escape")
	}
	return nil
}
