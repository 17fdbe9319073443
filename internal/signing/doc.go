// Package signing is the one place where a key named by flags or configuration becomes a signer: bundle,
// record, the post-merge hook, lineage v2 checkpoints and lineage v2 export all resolve their key here, so a key
// that signs one of them signs them all, with the same kid.
//
// The key, first that applies:
//   - --sign-key (the flag wins over everything, and over bernstein.sign=false);
//   - git config bernstein.signingKey, unless bernstein.sign is false;
//   - git's own SSH signing setup, unless bernstein.sign is false: user.signingKey when gpg.format is ssh.
//
// A key is "key::ssh-ed25519 AAAA…" (the private half in ssh-agent), or a file (relative to the working folder;
// a leading ~/ is the home folder): an OpenSSH Ed25519 private key, an OpenSSH public key whose private half is
// in ssh-agent, or an unencrypted PKCS#8 Ed25519 PEM key (package sshsig reads them all).
//
// The kid: --sign-kid, else bernstein.signingKid, else, for an SSH key, its SHA256: fingerprint as
// `ssh-keygen -l` prints it. A PKCS#8 key has no default kid, and a kid without a key is a usage error.
package signing
