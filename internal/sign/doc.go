// Package sign makes and checks the detached Ed25519 JWS that signs a ticket bundle's manifest, and reads the
// keys and agent cards it needs. It never prints; every error names its input.
//
// # Signature
//
// A bundle <archive> is signed by <archive>.jws beside it: a compact JWS (RFC 7515) with a detached payload
// (RFC 7515 appendix F) that is not base64url-encoded (RFC 7797), signed with Ed25519 (RFC 8032; "EdDSA" in
// JOSE, RFC 8037). The file holds the token alone, without a final newline; readers ignore whitespace around it
// (a newline an editor added), nowhere else.
//
// Token:
//
//	BASE64URL(protected header) || ".." || BASE64URL(signature)
//
// The middle part is empty: the payload travels in the archive, not in the token. BASE64URL is RFC 4648 section
// 5 without padding, in its one canonical spelling (no "=", no line breaks, no non-zero trailing bits).
//
// Protected header: exactly these bytes, where <kid> is the signing key's kid as a JSON string in its RFC 8785
// form (only `"`, `\` and control characters escaped; other characters as UTF-8):
//
//	{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"<kid>"}
//
// ExpectedHeader builds them. A verifier compares the decoded header with these bytes, byte for byte: another
// alg, "b64" true or missing, another crit, a missing or empty kid, any other member ("typ", "jwk", …), a member
// twice, whitespace, another member order or another escaping are all a refused header (ErrHeader), which the
// verifier reports as a forgery (FAILED), never as merely damaged. A signer refuses kids that JSON encoders
// could spell differently (CheckKid: empty, over 200 bytes, not UTF-8, control characters, `"`, `\`, `<`, `>`,
// `&`, U+2028, U+2029), so every writer produces the same header.
//
// Signing input (RFC 7797 section 3, for b64 false):
//
//	ASCII(BASE64URL(protected header)) || "." || payload
//
// Signature: the 64-byte Ed25519 signature of the signing input.
//
// Payload: the RFC 8785 (JCS) canonical form of manifest.json's bytes as the archive stores them (Canonicalize;
// the manifest itself, package manifest, is indented for people). JCS sorts members by UTF-16 code units, writes
// no whitespace, writes strings with the fewest escapes and numbers as ECMAScript does; the manifest's integers
// are within ±(2^53-1), so they keep their digits. Invalid UTF-8, a lone surrogate, a member name twice or data
// after the document give no canonical form, so two different documents never share one by accident.
//
// # Legacy payload
//
// Upstream's Python tool signed json.dumps(manifest, sort_keys=True, separators=(",", ":")) with the default
// ensure_ascii=True (LegacyCanonical): every character outside printable ASCII (U+0020–U+007E) escaped as
// \uXXXX (lower-case hex, UTF-16 surrogate pairs above U+FFFF), the short escapes \" \\ \n \r \t \b \f, keys
// sorted by code point, integers exact, other numbers as Python's float repr. For a manifest whose strings hold
// only ASCII below U+007F this is the JCS form byte for byte (testdata/legacy/manifest.json); the two differ
// when a string (an arcname, the ticket id) holds U+007F or above, which JCS writes as it is and Python escapes.
//
// Nothing here signs the legacy form. The verifier (package verify, checkSignature) tries it only after the JCS
// form failed with ErrBadSignature under a trusted key of the header's kid, and only when the two forms differ:
// if the legacy form then verifies, the signature check passes with a warning that names it (VERIFIED, exit 0;
// exit 3 under --strict). Everything else about the token (header, kid, key) is judged as above.
//
// # Verifying
//
// VerifyDetached takes the token, the payload and the trusted keys, and answers with one of:
//
//	ErrHeader        the header is readable and not exactly ExpectedHeader(kid); judged first, so a foreign
//	                 token (alg none with no signature, an HMAC, an attached payload) is called a forgery
//	ErrMalformed     not <protected>..<signature> (part count, a payload part, bad base64url, a signature
//	                 that is not 64 bytes, a token over 16 KiB)
//	ErrNoKeys        no trusted key was given
//	ErrUnknownKid    no trusted key has the header's kid (kids compare exactly, case and spaces included)
//	ErrBadSignature  the trusted keys with that kid all reject it
//
// A signature passes only when go-jose and crypto/ed25519 both accept it, with the key the kid picks.
//
// # Keys
//
// A signing key is an unencrypted PKCS#8 (RFC 5208, RFC 8410) Ed25519 private key in one PEM block "BEGIN
// PRIVATE KEY" (what `openssl genpkey -algorithm ed25519` and `git bernstein keygen` write; keygen creates it
// with mode 0600), at most 64 KiB of file, nothing but whitespace after the block. An encrypted key, an OpenSSH
// key, a public key, a PEM with a Proc-Type header or a key of another algorithm is refused with an error that
// says which it is. Public keys are SubjectPublicKeyInfo (RFC 5280, RFC 8410) PEM, "BEGIN PUBLIC KEY".
// Fingerprint is the key's RFC 7638 JWK thumbprint (SHA-256, base64url), which keygen prints.
//
// Keys held elsewhere: SignDetachedWith signs with any crypto.Signer whose public key is Ed25519 and whose
// Sign returns the raw RFC 8032 signature of the message it is given, such as an OpenSSH key file or a key in
// ssh-agent (package sshsig, "Signing keys"). It writes ExpectedHeader(kid) itself and checks the token with
// VerifyDetached before returning it, so the token is byte for byte the one SignDetached would make with the
// same private key (Ed25519 is deterministic). HeaderKid reads the kid of a token whose header is exactly
// ours, without checking the signature, for verifiers that pick keys by kid (allowed signers principals).
//
// # Agent cards
//
// Verifiers trust only keys the user gives, as card files (--card, repeatable). A card file is at most 1 MiB
// (MaxCardSize) of strict JSON (package strictjson: valid UTF-8, no lone surrogate, no member twice, no two
// member names that differ only in letter case, nothing after the document) holding one object, read once
// (ReadCard) by exact member names: the agent it names (agent_id, else an A2A card's name, both strings when
// present) and its keys come from that one reading. Its shape is the first of these members it has:
//
//   - "public_key_pem": a flat agent card, one key. keygen writes
//     {"protocolVersion":"a2a/1.0","agent_id":…,"kid":…,"public_key_pem":…} (MarshalCard: indented, final
//     newline). kid (a non-blank string) and public_key_pem (an Ed25519 SubjectPublicKeyInfo PEM, one block) are
//     required. agent_id, protocolVersion and protocol_version are optional and must be strings when present;
//     the version's value is not checked. A card without a version, as upstream's `bundle verify --card`
//     documents it ({"agent_id","kid","public_key_pem"}), is read as a2a/1.0 (CardProtocolVersion), as
//     upstream reads it; only protocolVersion and protocol_version that disagree are refused. Other members
//     are ignored.
//   - "keys": a non-empty array of JWKs (below). With "protocolVersion" or "name" beside it the file is an A2A
//     agent card (its other members, such as url, capabilities and signatures, are ignored), else a JWKS
//     (RFC 7517 section 5); the two differ only in how reports name the key ("card.json keys[1] (A2A card)").
//   - "kty": a single JWK.
//
// A JWK is an Ed25519 public key as RFC 8037 writes it: kty "OKP" and crv "Ed25519" (anything else, RSA, EC
// or X25519, is refused), a non-blank kid, and the key as "x" (32 bytes, base64url without padding) or "pem"
// (SubjectPublicKeyInfo PEM, as A2A cards carry it) or both, which must then be the same key. "alg", when
// present, is "EdDSA"; "use", when present, is "sig"; a "d" (a private key) is refused, with advice to treat
// the key as leaked.
//
// One kid picks one key. Inside a card, two entries may repeat a kid only with the same key. Across cards,
// TrustSet refuses a kid that an earlier card bound to another key, naming both cards; otherwise the key a
// signature is checked against, and the signer a report names, would depend on the order of --card flags.
//
// # Limits
//
//	card file     1 MiB (MaxCardSize)
//	key file      64 KiB
//	token         16 KiB (the CLI reads at most 64 KiB of .jws file)
//	kid           200 bytes, signing only (CheckKid)
//
// # Test vectors
//
//   - RFC 7797 section 4.2 (HS256 over "$.02", b64 false, detached): the signing recipe and the signing input
//     give the RFC's token (TestRFC7797Section4_2).
//   - RFC 8037 appendix A: the A.1 key through the PEM round trip signs A.4's example exactly, and Fingerprint
//     gives A.3's thumbprint (TestRFC8037A4).
//   - The same A.1 key (seed nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A) with kid "bernstein-2025" over the
//     payload {"a":1,"b":"x.y"} gives the header above and, Ed25519 being deterministic, this token:
//     eyJhbGciOiJFZERTQSIsImI2NCI6ZmFsc2UsImNyaXQiOlsiYjY0Il0sImtpZCI6ImJlcm5zdGVpbi0yMDI1In0..YDjFQg_YkwZ4jR4XJWOikM90sR7rZ8oMXbVnogxOlvultQHbg2PzK-Rpnx5VsAQdVct-82SXZEDWDD-kMDNMCQ
//     (TestSignDetachedShape checks the header and that the token verifies).
//   - Headers that must be refused, one defect each: TestVerifyDetachedRejectsForgedHeaders; tokens that are
//     malformed: TestVerifyDetachedRejectsMalformedTokens; card shapes accepted and refused: TestParseCardShapes.
//   - testdata/legacy/<name>.json and <name>.golden: inputs and python3's json.dumps output for them, the
//     legacy form's vectors (go test -update rewrites the golden files from python3).
//   - testdata/verify/ at the repository root: whole bundles, good and bad, with their signatures, signed by the
//     public test-only key test-only-key.pem whose card is test-only.card.json; index.json gives each case's
//     verdict (good.tar.gz and good-legacy.tar.gz are the JCS and legacy signatures of an intact bundle).
//
// card.schema.json beside this file is the flat agent card in JSON Schema (draft 2020-12); tests hold the cards
// keygen writes to it (internal/schematest).
package sign
