// Package sshsig lets bundles be signed with the SSH keys developers already have and checked with the
// OpenSSH tools auditors already have: OpenSSH key files and ssh-agent as signing keys, SSHSIG signatures over
// an archive's bytes, and allowed signers files as trusted keys. It uses golang.org/x/crypto/ssh and
// golang.org/x/crypto/ssh/agent for keys, the agent protocol and signature checks; it implements only the
// SSHSIG framing, the allowed signers syntax and OpenSSH's pattern matching. It never prints.
//
// # Signing keys
//
// LoadKey reads what --sign-key, bernstein.signingKey or git's user.signingKey (with gpg.format=ssh) name:
//
//   - "key::ssh-ed25519 AAAA…" (git's literal form): the public key; the private half must be in ssh-agent.
//   - a file beginning "-----BEGIN OPENSSH PRIVATE KEY-----": an OpenSSH private key (ssh-keygen's format,
//     PROTOCOL.key). Unencrypted, it signs itself. Encrypted, it is used through ssh-agent when the agent
//     holds it (its public half is stored in the clear), as `ssh-keygen -Y sign` does; otherwise the error
//     says to ssh-add it or use an unencrypted key. git-bernstein never asks for a passphrase.
//   - another PEM file: a PKCS#8 Ed25519 key (package sign, "Keys"), as before.
//   - anything else is read as an OpenSSH public key line ("ssh-ed25519 AAAA… comment", a .pub file); the
//     private half must be in ssh-agent.
//
// The agent is the one at SSH_AUTH_SOCK, spoken to with x/crypto/ssh/agent; the key is found by its public
// key blob among the agent's identities. Only ssh-ed25519 keys can sign: an agent's Ed25519 signature is
// the plain 64-byte RFC 8032 signature of the bytes it was given, so a bundle signed through the agent has
// exactly the JWS (package sign) and DSSE envelope (package attest) a file key would make, and verifiers that
// know nothing of SSH (upstream's Python, the browser page) check it with the card made from the same key.
// Every other type is refused with what to do: RSA and ECDSA ("make one with ssh-keygen -t ed25519"),
// certificates, and security keys (sk-ssh-ed25519@openssh.com, sk-ecdsa-…), whose signatures cover the
// authenticator's flags and counter as well as the message and so are not plain Ed25519. Every signature is
// checked against the public key before it is used, so a misbehaving agent gives an error, never a bad
// signature.
//
// LoadPublicKey reads the public half the same ways (from a private key file, the public key stored in the
// clear, so encrypted keys work too) for `keygen --ssh-key`, which writes the flat card of an SSH key: the
// same Ed25519 key as a SubjectPublicKeyInfo PEM (package sign, "Agent cards"), which `ssh-keygen -e -m
// PKCS8` cannot write for Ed25519.
//
// The default kid of an SSH key is its fingerprint as `ssh-keygen -l -E sha256` prints it: "SHA256:" and the
// unpadded standard base64 of the SHA-256 of the public key blob (Fingerprint).
//
// # SSHSIG
//
// <archive>.sig is an SSHSIG signature (OpenSSH PROTOCOL.sshsig) over the archive file's bytes, as
// `ssh-keygen -Y sign -n git-bernstein` would make it, so that
//
//	ssh-keygen -Y verify -f allowed_signers -I <principal> -n git-bernstein -s ENG-42.tar.gz.sig < ENG-42.tar.gz
//
// checks it. The blob, in SSH wire encoding (RFC 4251 section 5: uint32 big-endian, string = uint32 length
// and bytes):
//
//	byte[6] "SSHSIG"
//	uint32  1                  version
//	string  public key         the signer's key blob (RFC 8709 for ssh-ed25519)
//	string  "git-bernstein"    namespace (Namespace)
//	string  ""                 reserved
//	string  "sha512"           hash algorithm
//	string  signature          an SSH signature: string "ssh-ed25519", string the 64-byte signature
//
// The key signs, not the archive, but:
//
//	byte[6] "SSHSIG"
//	string  "git-bernstein"
//	string  ""
//	string  "sha512"
//	string  SHA-512(archive bytes)
//
// The file is the blob in standard base64 (RFC 4648 section 4, padded), in lines of 70 characters, between
// "-----BEGIN SSH SIGNATURE-----" and "-----END SSH SIGNATURE-----" lines, with a final newline. Verify reads
// any line length, CRLF line ends and whitespace around the armour; it accepts hash "sha256" too (the
// specification allows it), any key type x/crypto/ssh verifies (a third party's RSA .sig can be checked), but
// never the SHA-1 "ssh-rsa" signature, and refuses another namespace as its own error (ErrNamespace): a
// signature made for git commits ("git") or files ("file") is not one over a bundle.
//
// # Allowed signers
//
// Trusted keys in the format of ssh-keygen(1), "ALLOWED SIGNERS" (git's gpg.ssh.allowedSignersFile),
// ParseAllowedSigners: one key per line; empty lines and lines whose first non-blank character is "#" are
// ignored. A line is
//
//	principals [options] keytype base64-key [comment]
//
// where:
//
//   - principals: a comma-separated list of patterns (below), up to the first space, tab, CR or LF; a double
//     quote starts a run that the next double quote ends (the quotes are removed), as OpenSSH's strdelimw
//     reads it. Empty principals ("") are refused.
//   - options, up to the first space or tab outside double quotes (sshkey_advance_past_options), separated by
//     commas, names in any letter case: cert-authority; namespaces="pattern-list"; valid-after="time";
//     valid-before="time". Values are in double quotes, \" inside standing for a quote (opt_dequote). As in
//     sshsig.c's sshsigopt_parse: an empty option between commas is stepped over, a comma at the end, any other
//     option, a value not in quotes or text after the closing quote makes the line unreadable, and so does an
//     option given twice (OpenSSH refuses namespaces=, valid-after= and valid-before= twice; we refuse
//     cert-authority twice too), never "the last one wins". namespaces="" is a list no namespace matches: the
//     key may sign in no namespace (ssh-keygen refuses it), not in any.
//   - time: YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, digits only, in UTC when followed by "Z" or "UTC" (any
//     case), else in local time read as the zone's standard time (OpenSSH's parse_absolute_time calls mktime
//     with tm_isdst 0: a local 12:00 in a Berlin summer is 11:00 UTC); after 1970-01-01T00:00:00Z (OpenSSH
//     refuses earlier times, and the time 0 itself); valid-before later than valid-after. A date the calendar
//     lacks (February 30, which mktime would roll into March) is refused.
//   - the key: a key type name, the key in padded base64 holding exactly one key of that type
//     (sshkey_read), an optional comment.
//
// TestAllowedSignersAgreesWithSSHKeygen holds this against `ssh-keygen -Y verify` for every form above: we
// trust a line only when ssh-keygen does; the few lines it trusts and we refuse are named there.
//
// A line that cannot be read is an error naming file and line (the CLI then refuses to go on, exit 2): a
// trust file is not guessed at. Lines with keys of other types are read and kept; they cannot vouch for an
// Ed25519 JWS or attestation, but can for a .sig.
//
// A line lets its key sign in namespace N at time T (Usable) unless: it is cert-authority (it trusts
// certificates signed by the key, and bundles carry no certificates); namespaces= is given and N does not
// match it; T is before valid-after; or T is after valid-before (T equal to either bound is inside, as in
// sshsig.c). The namespace is always git-bernstein, for the JWS and the attestation too: a line restricted
// to namespaces="git" lets the key sign commits, not bundles. T is the manifest's created_at, which the
// signature covers, as git holds a key's validity against the signed commit's own date. Like a commit date,
// it is the signer's word: valid-before limits what an honest key holder signs, it does not stop a stolen
// key from backdating; to revoke a key, remove its line.
//
// Patterns (OpenSSH match.c, match_pattern_list, without lower-casing): "*" matches any run of bytes, "?" one
// byte, everything else itself; a list matches when some pattern matches and no pattern preceded by "!" does.
// A subpattern of 1023 bytes or more never matches. Matching takes time linear in the text for each pattern.
//
// How the verifier uses a line (package verify): for the JWS and the attestation, a kid (keyid) picks the
// lines whose principals match it, or whose key's fingerprint is it; for a .sig, the key in the signature
// picks the lines with that key, whatever their principals.
//
// # Test vectors
//
// The tests use the tools themselves as the oracle: keys from `ssh-keygen -t ed25519`, a real ssh-agent,
// `ssh-keygen -Y verify` and `-Y check-novalidate` on our signatures, `ssh-keygen -Y sign` output read by
// Verify, and allowed signers lines judged by both `ssh-keygen -Y verify -Overify-time=…` and Usable
// (TestAllowedSignersAgreesWithSSHKeygen). Tests skip, saying so, when OpenSSH is not installed. Fuzz tests:
// FuzzParseAllowedSigners, FuzzVerify, and FuzzMatchPatternList, which holds the linear matcher to match.c's
// recursive one.
package sshsig
