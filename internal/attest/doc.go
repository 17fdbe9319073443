// Package attest writes and reads in-toto attestations in DSSE envelopes: the <archive>.intoto.jsonl beside a
// bundle, the same envelope in the Sigstore bundle <archive>.sigstore.json, and the signed form of `lineage v2
// export --format sigstore`. It signs with any Ed25519
// crypto.Signer (a key file or ssh-agent, package sshsig) and checks against trusted keys (package sign). It
// never prints.
//
// # DSSE
//
// An envelope (github.com/secure-systems-lab/dsse, protocol.md and envelope.md) is one JSON object:
//
//	{"payload":"<base64(payload)>","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"<kid>","sig":"<base64(sig)>"}]}
//
// base64 is the standard alphabet with padding (RFC 4648 section 4). The signature is Ed25519 (RFC 8032) over
// the pre-authentication encoding, PAE:
//
//	"DSSEv1" SP LEN(payloadType) SP payloadType SP LEN(payload) SP payload
//
// where SP is one space and LEN is the byte length as ASCII decimal without leading zeros; the payload is
// signed as bytes, never re-serialized. keyid is the bundle's kid (the JWS's): a verifier picks its key by it
// (a card's kid, or an allowed signers principal or SHA256: fingerprint). Seal writes the members in the order
// above, no whitespace, HTML characters not escaped, and one final newline: one line of a JSON Lines file.
// Open reads one envelope (whitespace around it allowed, no unknown members, payload in strict base64, at
// least one signature, at most 24 MiB) and accepts it when some signature's keyid picks a trusted key that
// accepts PAE; every signature of 64 bytes is tried.
//
// # Statement
//
// The payload is an in-toto Statement v1 (github.com/in-toto/attestation, spec/v1) in its RFC 8785 (JCS)
// form, so the same bundle gives the same bytes:
//
//	{"_type":"https://in-toto.io/Statement/v1",
//	 "predicate":<manifest.json in JCS form>,
//	 "predicateType":"https://github.com/git-bernstein/git-bernstein/bundle-manifest/v1",
//	 "subject":[{"digest":{"sha256":"<hex of the archive file>"},"name":"<archive file name>"}]}
//
// (shown wrapped; JCS sorts the members and writes no whitespace). The subject is the archive file: its base
// name and the lower-case hex SHA-256 of all its bytes; with an OCI store, the archive's OCI manifest follows
// it (below). The predicate is the manifest (package manifest, schema_version 1), which predicateType names
// with its version. CheckBundle holds a statement against an archive: payloadType, _type and predicateType
// exactly these, no other members, a first subject whose sha256 is the archive's, at most one more subject and
// that one an OCI manifest subject, and a predicate whose JCS form is the manifest's. A subject name other than
// the archive's file name is a warning only (archives are renamed; the digest binds).
//
// # OCI manifest subject
//
// In an OCI store (package store) the archive is an artifact whose image manifest package ociartifact builds
// from what the note says and the archive's size alone, so its digest is known when the archive is written.
// cosign verify-attestation HOST/REPOSITORY@sha256:<manifest> wants a statement about that manifest, so when
// bundle, record or the hook attest with an oci:// bernstein.store configured, the statement has a second
// subject:
//
//	{"digest":{"sha256":"<hex of the manifest>"},"name":"oci://HOST[:PORT]/REPOSITORY@sha256:<hex of the manifest>"}
//
// HOST[:PORT]/REPOSITORY is the first oci:// store configured (the digest is the same in every registry).
// The name is exactly oci://, a DNS name or a bracketed IPv6 address, an optional port, /, a repository in the
// distribution specification's grammar (lower-case components), @sha256: and 64 lower-case hex digits, at most
// 600 characters; the digest has exactly one member, sha256, equal to the name's. One signature then covers
// the archive and its manifest: the .intoto.jsonl and .sigstore.json beside the archive carry it, and the
// Sigstore bundle, pushed as the manifest's referrer of type application/vnd.dev.sigstore.bundle.v0.3+json,
// is what cosign finds. CheckBundle accepts that one extra subject, after the archive's, and reports its name
// (package verify says it on the attestation line); any other extra subject, a second OCI one, or one whose
// name and digest differ is ErrMismatch. It does not recompute the manifest (that needs the note, and a
// renamed archive has another title): cosign checks the digest against the registry, and the archive's own
// subject still binds the statement to these bytes.
//
// <archive>.intoto.jsonl holds one envelope line. `git bernstein verify` checks it when it is beside the
// archive (package verify, "Attestation").
//
// # Sigstore bundle
//
// With --attest, bundle also writes <archive>.sigstore.json: the .intoto.jsonl's envelope (same payload, same
// signature) in a Sigstore bundle v0.3, which cosign v3 (`verify-blob-attestation --bundle`), gh attestation,
// sigstore-go and sigstore-js read where they no longer take a bare envelope. It is the protobuf JSON mapping
// (lowerCamelCase names, bytes as base64) of dev.sigstore.bundle.v1.Bundle, in github.com/sigstore/protobuf-specs
// protos/sigstore_bundle.proto, envelope.proto and sigstore_common.proto, one line and a final newline:
//
//	{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json",
//	 "verificationMaterial":{"publicKey":{"hint":"<kid>"},"tlogEntries":[]},
//	 "dsseEnvelope":{"payload":"<base64(statement)>","payloadType":"application/vnd.in-toto+json",
//	                 "signatures":[{"sig":"<base64(sig)>"}]}}
//
// (shown wrapped). The key is out of band, as the card's (cosign: --key with the card's public_key_pem), and
// publicKey.hint, an unauthenticated hint, is the kid. There are no transparency log entries and no timestamps:
// cosign needs --insecure-ignore-tlog, and nothing reaches the network. tlogEntries is written, empty, because
// sigstore-js refuses a bundle without it (protojson readers take either).
//
// The signature carries no keyid, unlike the .intoto.jsonl's. DSSE verifiers skip a signature whose keyid is
// not the one they expect (go-securesystemslib dsse/verify.go: a keyid on both sides that differs is skipped),
// and each expects its own: go-securesystemslib, with the key loaded from the card's PEM
// (signerverifier.LoadKey), the SHA-256 of its own JSON key form; sigstore-go and cosign, which hand over the
// key without a keyid, its OpenSSH SHA256: fingerprint. No keyid is the one form every one of them checks. The
// .intoto.jsonl keeps the kid as its keyid, since existing verifiers pick the key by it; cosign's older
// `verify-blob-attestation --signature` form (v2, and v3's deprecated flag) checks it all the same, since it
// hands go-securesystemslib a verifier without its public key (pkg/cosign verifyOCIAttestation), so no keyid
// is computed and no signature skipped. (protobuf-specs' comment on Bundle.verification_material asks that a
// key hint and the envelope's keyid be "exactly the same": we read that as binding when a keyid is given, and
// give none, since sigstore-go, and cosign v3 with it, refuses the bundle whose keyid is the hint.)
//
// OpenSigstore reads the file strictly (package strictjson: exact member names, none unknown, so a bundle with
// a certificate, timestamps or a transparency log entry is refused as not ours; tlogEntries empty or left out;
// payload in strict base64; at least one signature; at most MaxSigstoreBundle) and checks it as Open does, the
// hint standing for the keyid: it picks the trusted keys, and a signature with no keyid, the hint, or the picked
// key's SHA256: fingerprint is tried. The statement is then held to the archive by CheckBundle, as the
// .intoto.jsonl's is. sigstore-bundle.schema.json beside this file is the same form in JSON Schema (draft
// 2020-12).
//
// # Lineage
//
// `lineage v2 export --format sigstore --sign-key KEY` writes, instead of upstream's JSON list, one envelope
// line per statement (package lineage, Statements), each statement in JCS form, payloadType as above, keyid
// the kid.
//
// # Test vectors
//
// PAE("http://example.com/HelloWorld", "hello world") is "DSSEv1 29 http://example.com/HelloWorld 11 hello
// world" (the DSSE specification's example; TestPAE). testdata/verify_dsse.py is an independent check that
// shares no code with this package: PAE written out from the specification, Ed25519 by Python's
// cryptography package or else `openssl pkeyutl -verify -rawin`, the subject's sha256 and the predicate
// against the archive read with Python's tarfile. The tests run it on our envelopes (and skip, saying so,
// without python3 or any Ed25519 implementation). go-securesystemslib's DSSE verifier (a test dependency),
// given the key from a card's PEM, checks the .sigstore.json's envelope (TestSigstoreBundleGoSecureSystemsLib),
// and real cosign v3 and v2 check both files offline behind the cosign build tag (internal/cli, `make
// test-cosign`).
package attest
