#!/usr/bin/env python3
"""Write canonical_vectors.json: what CPython's json module makes of each input text.

Upstream Bernstein hashes and HMACs json.dumps(d, ensure_ascii=False, separators=(",", ":"), sort_keys=True,
allow_nan=False) encoded as UTF-8; export uses the ASCII default and show --output-json uses indent=2. The Go
port must produce the same bytes, so this script asks Python itself. Run from this folder, or through
`go test ./internal/lineage -run TestCanonicalVectors -update`. Deterministic: a fixed seed, no clock.
"""

import json
import random
import struct
import sys


def canonical(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False).encode("utf-8")


def ascii_compact(v):
    return json.dumps(v, separators=(",", ":"), sort_keys=True)


def indented(v):
    return json.dumps(v, indent=2, sort_keys=True)


FIXED = [
    ("empty object", "{}"),
    ("empty array", "[]"),
    ("empty containers nested", '{"a":{},"b":[],"c":[{}, []],"d":{"e":{}}}'),
    ("scalars", '{"t":true,"f":false,"n":null,"s":"x","i":1,"z":0}'),
    ("top-level scalars in array", '[true,false,null,"",0,-0,1,-1]'),
    ("nested deep", '{"a":{"b":{"c":{"d":{"e":[1,[2,[3,[4,{"f":"g"}]]]]}}}}}'),
    ("key order ascii", '{"b":1,"a":2,"B":3,"A":4,"_":5,"a0":6,"a":7}'),
    ("key order code points", '{"\\u00e9":1,"e":2,"\\ud83d\\ude00":3,"\\uffff":4,"\\ue000":5,"z":6,"\\u0100":7}'),
    ("key order prefix", '{"ab":1,"a":2,"a\\u0000":3,"a\\u007f":4,"abc":5}'),
    ("control characters", '"' + "".join("\\u%04x" % i for i in range(0x20)) + '\\u007f"'),
    ("short escapes", '"\\n\\r\\t\\b\\f\\"\\\\\\/"'),
    ("html characters kept", '"<script>&amp;\'</script>"'),
    ("line separators kept", '"\\u2028\\u2029\\u0085\\u00a0"'),
    ("non-ascii raw", '"caf\\u00e9 \\u4e2d\\u6587 \\u0444 \\ud83d\\ude00 \\udbff\\udfff \\ufeff \\uffff"'),
    ("raw utf-8 input", '{"k":"caf\u00e9 \u4e2d \U0001f600"}'),
    ("lone high surrogate", '"\\ud800"'),
    ("lone low surrogate", '"\\udc00"'),
    ("reversed surrogates", '"\\udc00\\ud800"'),
    ("escaped backslash before u", '"\\\\ud800"'),
    ("float 0.1", "0.1"),
    ("float 1e-07", "1e-7"),
    ("float 1e22", "1e22"),
    ("float 3.0", "3.0"),
    ("float -0.0", "-0.0"),
    ("float 1e16", "1e16"),
    ("float 1e15", "1e15"),
    ("float 9999999999999998", "9999999999999998.0"),
    ("float 0.0001", "0.0001"),
    ("float 0.00001", "0.00001"),
    ("float 1.5e-5", "1.5e-5"),
    ("float 123456.789", "123456.789"),
    ("float 1E+2", "1E+2"),
    ("float 1.0e2", "1.0e2"),
    ("float min subnormal", "5e-324"),
    ("float max", "1.7976931348623157e308"),
    ("float min normal", "2.2250738585072014e-308"),
    ("float underflow", "1e-400"),
    ("float overflow", "1e400"),
    ("float negative overflow", "-1e400"),
    ("float long input", "0.1000000000000000055511151231257827"),
    ("float halfway", "9007199254740993.0"),
    ("float 2^53", "9007199254740992.0"),
    ("float 1/3", "0.3333333333333333"),
    ("float 2/3", "0.6666666666666666"),
    ("float 100", "100.0"),
    ("float 1e100", "1e100"),
    ("float -1.5e-300", "-1.5e-300"),
    ("int 2^53+1", "9007199254740993"),
    ("int 2^64", str(2**64)),
    ("int -2^100", str(-(2**100))),
    ("int -0", "-0"),
    ("int 4300 digits", "9" * 4300),
    ("int 4301 digits", "9" * 4301),
    ("payload mix", '{"kind":"tool.call","payload":{"args":["-v",1.25,null],"cost":0.0001,"ok":true,"n":12345678901234567890}}'),
    ("duplicate keys last wins", '{"a":1,"a":2}'),
    ("whitespace around", ' \n\t{ "a" : [ 1 , 2 ] }\r\n '),
]


def random_string(r):
    pools = [
        "abcXYZ019 _-",
        "".join(chr(i) for i in range(0x20)) + "\x7f\"\\/",
        "\u00e9\u00fc\u4e2d\u6587\u2028\u2029\ufeff\uffff\ue000",
        "\U0001f600\U0001f680\U0010ffff\U00010000",
    ]
    return "".join(r.choice(r.choice(pools)) for _ in range(r.randint(0, 8)))


def random_float(r):
    pick = r.random()
    if pick < 0.5:
        while True:
            f = struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
            if f == f and f not in (float("inf"), float("-inf")):
                return f
    if pick < 0.8:
        return float("%de%d" % (r.randint(-(10**r.randint(0, 17)), 10 ** r.randint(0, 17)), r.randint(-30, 30)))
    return r.choice([0.5, 0.25, 1.1, 2.675, 1e-4, 1e-5, 1e15, 1e16, 1e17, 0.1 + 0.2, 1 / 3, 2**-1074])


def random_value(r, depth):
    pick = r.random()
    if depth > 3 or pick < 0.45:
        kind = r.randint(0, 5)
        if kind == 0:
            return random_float(r)
        if kind == 1:
            return r.randint(-(2**r.randint(1, 130)), 2 ** r.randint(1, 130))
        if kind == 2:
            return random_string(r)
        return r.choice([True, False, None, 0, -1, ""])
    if pick < 0.7:
        return [random_value(r, depth + 1) for _ in range(r.randint(0, 4))]
    return {random_string(r): random_value(r, depth + 1) for _ in range(r.randint(0, 5))}


def main():
    r = random.Random(20240601)
    inputs = list(FIXED)
    for i in range(400):
        f = random_float(r)
        inputs.append(("random float %d repr" % i, repr(f)))
        if i % 4 == 0:
            inputs.append(("random float %d %%.25e" % i, "%.25e" % f))
    for i in range(120):
        inputs.append(("random value %d" % i, json.dumps(random_value(r, 0), ensure_ascii=r.random() < 0.5)))

    vectors = []
    for name, text in inputs:
        vec = {"name": name, "input": text}
        try:
            v = json.loads(text)
            vec["canonical"] = canonical(v).decode("utf-8")
            vec["ascii"] = ascii_compact(v)
            vec["indent"] = indented(v)
        except (ValueError, UnicodeEncodeError) as exc:
            vec["error"] = type(exc).__name__
        vectors.append(vec)
    out = {
        "generator": "gen_vectors.py",
        "python": "%d.%d" % sys.version_info[:2],
        "vectors": vectors,
    }
    sys.stdout.write(json.dumps(out, indent=1, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
