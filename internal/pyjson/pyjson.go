// Package pyjson writes JSON byte for byte as CPython's json.dumps does, and reads it as json.loads does, for the
// formats that upstream Bernstein (Python) hashes, HMACs or signs: lineage records' canonical form
// (json.dumps(d, ensure_ascii=False, separators=(",",":"), sort_keys=True, allow_nan=False)), lineage exports
// (ensure_ascii=True, compact or indent=2) and the legacy bundle-signature payload (ensure_ascii=True, compact,
// sorted). Integers stay exact (Python ints are unbounded, up to CPython's 4,300-digit limit); other numbers print
// as CPython's float repr. What Python could read but not write back (invalid UTF-8, lone surrogates) is refused.
// Test vectors made by python3 itself are in testdata/canonical_vectors.json (go generate rebuilds them).
package pyjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Encoding is one of the json.dumps settings upstream uses. The zero value is the canonical form that HMACs and
// child_sha are computed over: json.dumps(d, ensure_ascii=False, separators=(",",":"), sort_keys=True,
// allow_nan=False). Keys are always sorted.
type Encoding struct {
	// ASCII escapes every character outside ' '..'~' as \uXXXX (surrogate pairs above U+FFFF), like
	// ensure_ascii=True, the default upstream uses for export and --output-json.
	ASCII bool
	// Indent, when not empty, reproduces json.dumps(indent=len(Indent)): one item a line, ": " after keys.
	Indent string
	// Spaced, without Indent, writes Python's default separators (", " and ": "), as json.dumps(sort_keys=True)
	// does with no separators argument: the spelling of older lineage v1 packs.
	Spaced bool
}

// maxIntDigits is CPython's default int_max_str_digits (3.11+): json.loads refuses longer integers and
// json.dumps cannot print them, so a Go port must refuse them too or it would accept records Python cannot read.
const maxIntDigits = 4300

// Canonical returns the canonical bytes of v (see Encoding). v is built from nil, bool, string, json.Number,
// int, int64, uint64, float64, map[string]any and []any, as Parse returns them.
func Canonical(v any) ([]byte, error) {
	return Encoding{}.Marshal(v)
}

// Marshal encodes v the way Python's json.dumps does with these settings, byte for byte.
func (e Encoding) Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := e.encode(&buf, v, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (e Encoding) encode(buf *bytes.Buffer, v any, depth int) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case string:
		return e.encodeString(buf, x)
	case json.Number:
		s, err := pyNumber(string(x))
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case int:
		buf.WriteString(strconv.Itoa(x))
	case int64:
		buf.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		buf.WriteString(strconv.FormatUint(x, 10))
	case float64:
		s, err := pyFloatRepr(x)
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case map[string]any:
		if len(x) == 0 {
			buf.WriteString("{}")
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// Python sorts str keys by code point. For valid UTF-8 (encodeString refuses anything else) byte order
		// is code point order; UTF-16 order, which JCS uses, would differ above U+FFFF.
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.comma(buf)
			}
			e.newline(buf, depth+1)
			if err := e.encodeString(buf, k); err != nil {
				return err
			}
			buf.WriteByte(':')
			if e.Indent != "" || e.Spaced {
				buf.WriteByte(' ')
			}
			if err := e.encode(buf, x[k], depth+1); err != nil {
				return fmt.Errorf("key %q: %w", k, err)
			}
		}
		e.newline(buf, depth)
		buf.WriteByte('}')
	case []any:
		if len(x) == 0 {
			buf.WriteString("[]")
			return nil
		}
		buf.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				e.comma(buf)
			}
			e.newline(buf, depth+1)
			if err := e.encode(buf, item, depth+1); err != nil {
				return fmt.Errorf("index %d: %w", i, err)
			}
		}
		e.newline(buf, depth)
		buf.WriteByte(']')
	default:
		return fmt.Errorf("cannot encode %T as lineage JSON", v)
	}
	return nil
}

// comma writes the item separator: "," (compact, or indent where Python's default item separator is ","
// since 3.4), or ", " when Spaced.
func (e Encoding) comma(buf *bytes.Buffer) {
	buf.WriteByte(',')
	if e.Spaced && e.Indent == "" {
		buf.WriteByte(' ')
	}
}

func (e Encoding) newline(buf *bytes.Buffer, depth int) {
	if e.Indent == "" {
		return
	}
	buf.WriteByte('\n')
	for range depth {
		buf.WriteString(e.Indent)
	}
}

const hexDigits = "0123456789abcdef"

// encodeString follows CPython's c_encode_basestring(_ascii): the five short escapes plus \" and \\, every other
// control character as lowercase \u00xx, and nothing else escaped unless ASCII is set (no HTML escaping, U+2028
// kept raw).
func (e Encoding) encodeString(buf *bytes.Buffer, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("string %q is not valid UTF-8: Python could not write it", s)
	}
	buf.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || (e.ASCII && r > '~' && r <= 0xffff):
				writeU(buf, r)
			case e.ASCII && r > 0xffff:
				r -= 0x10000
				writeU(buf, 0xd800|(r>>10)&0x3ff)
				writeU(buf, 0xdc00|r&0x3ff)
			default:
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
	return nil
}

func writeU(buf *bytes.Buffer, r rune) {
	buf.WriteString(`\u`)
	buf.WriteByte(hexDigits[r>>12&0xf])
	buf.WriteByte(hexDigits[r>>8&0xf])
	buf.WriteByte(hexDigits[r>>4&0xf])
	buf.WriteByte(hexDigits[r&0xf])
}

// pyNumber prints a JSON number literal the way Python prints what json.loads made of it: an int keeps its
// digits exactly (Python ints are unbounded), anything with a fraction or exponent becomes a float.
func pyNumber(lit string) (string, error) {
	if !validNumber(lit) {
		return "", fmt.Errorf("%q is not a JSON number", lit)
	}
	if strings.ContainsAny(lit, ".eE") {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			// Only overflow gets here: Python's float() gives inf, which allow_nan=False then refuses.
			return "", fmt.Errorf("number %s is out of range for a float (Python refuses inf with allow_nan=False)", lit)
		}
		return pyFloatRepr(f)
	}
	digits := strings.TrimPrefix(lit, "-")
	if len(digits) > maxIntDigits {
		return "", fmt.Errorf("integer of %d digits exceeds Python's limit of %d digits", len(digits), maxIntDigits)
	}
	if digits == "0" {
		return "0", nil // "-0" is the int 0
	}
	return lit, nil
}

// validNumber checks the RFC 8259 number grammar, so a hand-built json.Number cannot smuggle other bytes in.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// pyFloatRepr is CPython's float_repr: the shortest digits that round-trip (Go and CPython both pick the
// nearest such string), printed positionally when the decimal point falls in -4 < decpt <= 16 and in exponent
// form otherwise (Python/pystrtod.c, format_float_short with mode 'r').
func pyFloatRepr(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("float %v is not JSON (Python's allow_nan=False refuses it)", f)
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0", nil
		}
		return "0.0", nil
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±dd
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expPart, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, err := strconv.Atoi(expPart)
	if err != nil {
		return "", fmt.Errorf("format float %v: %w", f, err)
	}
	decpt := exp + 1
	if decpt <= -4 || decpt > 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		esign := "+"
		if exp < 0 {
			esign, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, esign, exp), nil
	}
	switch {
	case decpt <= 0:
		return sign + "0." + strings.Repeat("0", -decpt) + digits, nil
	case decpt >= len(digits):
		return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0", nil
	default:
		return sign + digits[:decpt] + "." + digits[decpt:], nil
	}
}

// Parse decodes one JSON value the way json.loads would, keeping numbers as json.Number so integers stay
// exact. It refuses what Python would read but could not write back as UTF-8 (invalid UTF-8, lone surrogate
// escapes) and integers longer than Python accepts, so everything it returns is canonicalisable apart from
// floats that overflow.
func Parse(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: extra data after the value")
	}
	if err := checkInts(v); err != nil {
		return nil, err
	}
	return v, nil
}

// checkSurrogates rejects \uD800-\uDFFF escapes that are not a high+low pair. Go would turn them into U+FFFD
// silently; Python keeps them and then fails to encode, so the only faithful answer is to refuse.
func checkSurrogates(data []byte) error {
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		if i+1 >= len(data) || data[i+1] != 'u' {
			i++ // skip the escaped byte, which may itself be a backslash
			continue
		}
		r, ok := hex4(data, i+2)
		if !ok {
			return nil // malformed escape: the decoder reports it
		}
		switch {
		case r >= 0xd800 && r <= 0xdbff:
			lo, ok := rune(0), false
			if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
				lo, ok = hex4(data, i+8)
			}
			if !ok || lo < 0xdc00 || lo > 0xdfff {
				return fmt.Errorf("lone surrogate \\u%04x: not representable in UTF-8", r)
			}
			i += 11
		case r >= 0xdc00 && r <= 0xdfff:
			return fmt.Errorf("lone surrogate \\u%04x: not representable in UTF-8", r)
		default:
			i += 5
		}
	}
	return nil
}

func hex4(data []byte, at int) (rune, bool) {
	if at+4 > len(data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(data[at:at+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}

func checkInts(v any) error {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") && len(strings.TrimPrefix(s, "-")) > maxIntDigits {
			return fmt.Errorf("integer of %d digits exceeds Python's limit of %d digits", len(strings.TrimPrefix(s, "-")), maxIntDigits)
		}
	case map[string]any:
		for _, item := range x {
			if err := checkInts(item); err != nil {
				return err
			}
		}
	case []any:
		for _, item := range x {
			if err := checkInts(item); err != nil {
				return err
			}
		}
	}
	return nil
}

// Int reads a JSON integer that must fit an int64 (record fields such as ts_ns and seq).
func Int(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok || strings.ContainsAny(string(n), ".eE") {
		return 0, false
	}
	b, ok := new(big.Int).SetString(string(n), 10)
	if !ok || !b.IsInt64() {
		return 0, false
	}
	return b.Int64(), true
}
