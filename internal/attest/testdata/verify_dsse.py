#!/usr/bin/env python3
"""An independent DSSE + in-toto check of a git-bernstein attestation, sharing no code with it.

usage: verify_dsse.py ENVELOPE.intoto.jsonl PUBLIC_KEY.pem [ARCHIVE.tar.gz]
       verify_dsse.py BUNDLE.sigstore.json PUBLIC_KEY.pem [ARCHIVE.tar.gz]

A .sigstore.json is a Sigstore bundle v0.3 (protobuf-specs, sigstore_bundle.proto): its media type, a public
key hint and no transparency log entries are checked, then its dsseEnvelope as an envelope.

PAE is written out from the DSSE specification (protocol.md); the Ed25519 signature is checked with the
`cryptography` package when installed, else with `openssl pkeyutl -verify -rawin`. With ARCHIVE, the
statement's first subject must be its sha256 (a second one, if any, an OCI manifest: oci://HOST/REPO@sha256:<hex>)
and its predicate the archive's manifest.json. Prints OK and exits 0, or
prints why and exits 1; exits 3 when neither cryptography nor openssl can check Ed25519.
"""
import base64, hashlib, json, os, re, subprocess, sys, tarfile, tempfile

LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
COMPONENT = r"[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*"
OCI_NAME = re.compile(r"oci://(?:%s(?:\.%s)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?/%s(?:/%s)*@sha256:([0-9a-f]{64})\Z"
                      % (LABEL, LABEL, COMPONENT, COMPONENT))


def pae(payload_type: bytes, payload: bytes) -> bytes:
    return b"DSSEv1 %d %s %d %s" % (len(payload_type), payload_type, len(payload), payload)


def ed25519_ok(pem: bytes, msg: bytes, sig: bytes) -> bool:
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.serialization import load_pem_public_key
    except ImportError:
        pass
    else:
        try:
            load_pem_public_key(pem).verify(sig, msg)
            return True
        except InvalidSignature:
            return False
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, data in (("pub.pem", pem), ("msg", msg), ("sig", sig)):
            paths[name] = os.path.join(d, name)
            with open(paths[name], "wb") as f:
                f.write(data)
        try:
            r = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", paths["pub.pem"], "-rawin",
                                "-in", paths["msg"], "-sigfile", paths["sig"]], capture_output=True)
        except FileNotFoundError:
            print("neither the cryptography package nor openssl is available to check Ed25519")
            sys.exit(3)
        return r.returncode == 0


def main():
    env_path, pem_path = sys.argv[1], sys.argv[2]
    lines = [l for l in open(env_path, "rb").read().splitlines() if l.strip()]
    if len(lines) != 1:
        sys.exit(print("want one envelope line, got %d" % len(lines)) or 1)
    env = json.loads(lines[0])
    hint = None
    if "mediaType" in env:
        if env["mediaType"] != "application/vnd.dev.sigstore.bundle.v0.3+json":
            sys.exit(print("mediaType %r" % env["mediaType"]) or 1)
        material = env["verificationMaterial"]
        hint = material["publicKey"]["hint"]
        if material.get("tlogEntries", []):
            sys.exit(print("transparency log entries") or 1)
        env = env["dsseEnvelope"]
    payload = base64.b64decode(env["payload"], validate=True)
    ptype = env["payloadType"].encode()
    if ptype != b"application/vnd.in-toto+json":
        sys.exit(print("payloadType %r" % ptype) or 1)
    pem = open(pem_path, "rb").read()
    if not any(ed25519_ok(pem, pae(ptype, payload), base64.b64decode(s["sig"], validate=True)) for s in env["signatures"]):
        sys.exit(print("no signature verifies over PAE") or 1)
    st = json.loads(payload)
    if st["_type"] != "https://in-toto.io/Statement/v1":
        sys.exit(print("_type %r" % st["_type"]) or 1)
    if len(sys.argv) > 3:
        archive = sys.argv[3]
        digest = hashlib.sha256(open(archive, "rb").read()).hexdigest()
        subjects = st["subject"]
        if not subjects or subjects[0]["digest"]["sha256"] != digest:
            sys.exit(print("subject %r is not the archive's sha256 %s" % (subjects, digest)) or 1)
        # At most one more: the archive's OCI manifest, oci://HOST[:PORT]/REPOSITORY@sha256:<hex>, digest that hex.
        for s in subjects[1:2]:
            m = OCI_NAME.match(s["name"])
            if not m or s["digest"] != {"sha256": m.group(1)}:
                sys.exit(print("second subject %r is not an OCI manifest" % s) or 1)
            print("OCI manifest %s" % s["name"])
        if len(subjects) > 2:
            sys.exit(print("%d subjects" % len(subjects)) or 1)
        with tarfile.open(archive) as tf:
            manifest = json.load(tf.extractfile("manifest.json"))
        if st["predicate"] != manifest:
            sys.exit(print("predicate is not the archive's manifest") or 1)
    if hint is not None:
        print("OK hint=%s" % hint)
    else:
        print("OK keyid=%s" % env["signatures"][0]["keyid"])


if __name__ == "__main__":
    main()
