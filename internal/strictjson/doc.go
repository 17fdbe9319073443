// Package strictjson is the one reader of the JSON documents git-bernstein trusts: manifest.json,
// git/commits.json (package commitsjson), pr/sources.json (package prsource), agent cards, JWKs and JWKS, note
// lines, DSSE envelopes and in-toto statements, lineage v1's commit-files.json. encoding/json
// alone is lenient in ways that let two readers of one document see two different documents:
//
//   - a member given twice is read as the last one (Python's json too, but Go's map decoding as the first in
//     some readers, and a JCS canonicalizer refuses it);
//   - member names are matched to struct fields ignoring letter case (with Unicode simple folding, so
//     "\u212Aid" is "kid"), so {"agent_id":"a","AGENT_ID":"b"} binds to b for a struct reader and to a for a
//     reader that looks the exact name up;
//   - a lone surrogate escape becomes U+FFFD without an error; anything after the value is ignored by a
//     Decoder.
//
// Decode reads one JSON value and refuses all of that: invalid UTF-8, a member name twice in one object
// (after unescaping: "a" and "\u0061" collide), two names of one object that differ only in letter case
// (strings.EqualFold, the folding encoding/json matches with), a \u escape of half a surrogate pair, nesting
// deeper than MaxDepth, and anything but white space after the value. (A U+FFFD written as such is a
// character: encoding/json writes one for every invalid byte of a commit message, in commits.json.) Unmarshal decodes into a Go value after Decode and
// after checking that every member whose name encoding/json would match to a field of the target matches it
// exactly; UnmarshalKnown also refuses members the target has no field for. So a struct reader and a reader of
// exact names see one document.
//
// Errors name the member by its path from the document's root, "$.keys[0].kid", and say what is wrong;
// callers put the file's name in front.
package strictjson
