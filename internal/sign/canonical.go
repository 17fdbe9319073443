package sign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/gowebpki/jcs"
)

// Canonicalize returns the RFC 8785 (JCS) form of a JSON document: the bytes a bundle signature covers
// (doc.go, "Signature"). Duplicate keys, invalid UTF-8 and lone surrogates are errors, so two different documents
// never share a canonical form by accident.
func Canonicalize(manifestJSON []byte) ([]byte, error) {
	out, err := jcs.Transform(manifestJSON)
	if err != nil {
		return nil, fmt.Errorf("canonicalize JSON (RFC 8785): %w", err)
	}
	return out, nil
}

// LegacyCanonical returns what the upstream Python tool signed (doc.go, "Legacy payload"): json.dumps(obj, sort_keys=True,
// separators=(",", ":")) with the default ensure_ascii=True. It exists only so the verifier can check old
// bundles; new signatures always cover Canonicalize's output. The input must be strict JSON (as for
// Canonicalize); integers are kept exact, other numbers follow Python's float repr. Numbers beyond the float
// range (integers over 308 digits) are refused by that strict parser where Python would keep them; no
// manifest holds one.
func LegacyCanonical(manifestJSON []byte) ([]byte, error) {
	// JCS's parser is the strict gate (duplicate keys, bad UTF-8, lone surrogates, trailing data); its output
	// is not used because it rewrites integers as IEEE doubles, and Python keeps them exact.
	if _, err := jcs.Transform(manifestJSON); err != nil {
		return nil, fmt.Errorf("legacy canonical form: invalid JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(manifestJSON))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("legacy canonical form: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("legacy canonical form: data after the JSON value")
	}
	var b bytes.Buffer
	if err := writePython(&b, v); err != nil {
		return nil, fmt.Errorf("legacy canonical form: %w", err)
	}
	return b.Bytes(), nil
}

func writePython(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writePythonString(b, v)
	case json.Number:
		s, err := pythonNumber(string(v))
		if err != nil {
			return err
		}
		b.WriteString(s)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writePython(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// Python sorts str keys by code point; byte order of valid UTF-8 is the same order.
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writePythonString(b, k)
			b.WriteByte(':')
			if err := writePython(b, v[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("unexpected JSON value %T", v)
	}
	return nil
}

// writePythonString mirrors json.encoder.py_encode_basestring_ascii: only printable ASCII stays as is.
func writePythonString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	u := func(r rune) {
		b.WriteString(`\u`)
		b.WriteByte(hex[r>>12&0xf])
		b.WriteByte(hex[r>>8&0xf])
		b.WriteByte(hex[r>>4&0xf])
		b.WriteByte(hex[r&0xf])
	}
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r >= 0x20 && r <= 0x7e:
				b.WriteRune(r)
			case r >= 0x10000:
				hi, lo := utf16.EncodeRune(r)
				u(hi)
				u(lo)
			default:
				u(r)
			}
		}
	}
	b.WriteByte('"')
}

// pythonNumber renders a JSON number as Python's json.dumps would after json.loads: integers exactly, anything
// with a fraction or exponent as float repr.
func pythonNumber(s string) (string, error) {
	if !strings.ContainsAny(s, ".eE") {
		neg := strings.HasPrefix(s, "-")
		digits := strings.TrimPrefix(s, "-")
		if digits == "0" {
			return "0", nil // Python's int("-0") is 0
		}
		if neg {
			return "-" + digits, nil
		}
		return digits, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		// Python would write Infinity, which is not JSON; no valid legacy manifest holds one.
		return "", fmt.Errorf("number %.40s is out of range for a float", s)
	}
	return pythonFloatRepr(f), nil
}

// pythonFloatRepr is CPython's repr(float): the shortest digits that round-trip (as strconv's -1 precision),
// in fixed notation when the decimal exponent is in [-4, 16), otherwise d.ddde±XX with at least two exponent
// digits; fixed notation always shows a fractional part.
func pythonFloatRepr(f float64) string {
	sign := ""
	if math.Signbit(f) {
		sign = "-"
		f = -f
	}
	if f == 0 {
		return sign + "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // "d.dddde±XX"
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es = "-"
			exp = -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	var out string
	switch {
	case exp < 0:
		out = "0." + strings.Repeat("0", -exp-1) + digits
	case exp+1 >= len(digits):
		out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	default:
		out = digits[:exp+1] + "." + digits[exp+1:]
	}
	return sign + out
}
