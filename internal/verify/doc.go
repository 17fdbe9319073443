// Package verify checks a ticket bundle: it reads the tar.gz once, as a stream and in memory only, holds every
// member against the manifest, and checks the manifest's detached signature against keys the user trusts. Its
// answer is a Report with Tracekit's verdicts. It never prints and never extracts anything itself; a Sink
// receives the members' bytes from the same read for callers that show or extract them (view, extract).
//
// # Archive shape
//
// A bundle is one gzip member (RFC 1952) holding one tar stream. The verifier accepts exactly one shape of
// both, the shape that GNU tar, bsdtar, Python's tarfile and Go's archive/tar all read the same way, and
// refuses everything else as FAILED (exit 1) with the reason. The point is that what an auditor unpacks with
// any of those tools is what was verified; headers that some tools read differently are where forgeries hide.
//
// gzip:
//   - magic 1f 8b, one member read to its end (CRC-32 and length checked), nothing after it: not a second
//     member, not padding;
//   - FLG may have FTEXT, FHCRC and FNAME (upstream's Python writer stores the file name); FEXTRA, FCOMMENT
//     and the reserved bits are refused: they are bytes no signature covers.
//
// tar: a sequence of members, then the end-of-archive marker (two zero blocks), then only zero bytes (writers
// pad to a record size). Each member is an optional PAX extended header followed by one regular-file header,
// then its content, then zero padding to the next 512-byte block. Every 512-byte header block (POSIX.1-1988
// ustar field layout, as POSIX.1-2001 pax uses it):
//   - magic "ustar\0", version "00" (not GNU's "ustar  \0", not V7's empty magic);
//   - checksum: six octal digits, NUL, space, equal to the unsigned byte sum with the field as spaces;
//   - typeflag '0' for a member, 'x' for its PAX header; nothing else ('\0', '1'–'7', 'g', GNU 'L', 'K', 'S', …);
//   - mode, uid, gid, size, mtime: one or more octal digits, then only NUL or space (no sign, no leading
//     spaces, no base-256); mode has permission bits only (no setuid, setgid or sticky); uid and gid are 0;
//   - name, linkname, uname, gname, prefix: NUL-padded with nothing after the first NUL; linkname, uname and
//     gname empty; devmajor and devminor empty or zero; bytes 500–511 zero;
//   - the name is prefix + "/" + name when prefix is set, else name; a PAX path record replaces it, and the
//     ustar name and prefix are then not judged (every reader above prefers the path; Python's tarfile fills
//     them with a lossy ASCII copy of it, Go's with a truncated one).
//
// A PAX header ('x', at most 5 KiB) is followed directly by its member's '0' header (never a second 'x'),
// and holds records "<len> <key>=<value>\n" whose decimal length is exact and has no leading zero, each key at
// most once, keys only:
//   - path: UTF-8 without NUL: the member's name (long or non-ASCII names);
//   - mtime: decimal seconds, optionally with a fraction (Python's tarfile writes one for a float mtime).
//
// Any other record (size, linkpath, uid, uname, comment, GNU.sparse.*, …) is refused: readers apply them
// differently, or they carry bytes no one signed.
//
// Names: at most MaxNameLength (4096) bytes and MaxNameDepth (32) "/"-separated parts each, and
// Limits.MaxNamesSize in all, counted as each header is read, before any name is kept; then relative, clean,
// UTF-8, no backslash, NUL, control character or drive letter, and no part that is git's folder .git on any file
// system git guards (".git" in any case; NTFS's ".git." ".git " ".git:stream" and "git~1"; HFS+'s ".git" with
// ignorable code points such as U+200C: manifest.CheckName, git's verify_path rules), distinct, with
// manifest.json the first member. Layout: every other member sits in the folder of a section the format defines
// (git, pr, transcripts, traces, lineage, audit: manifest.Sections), and the manifest, read as soon as it is the
// first member and before any other member is handed on, lists each file in the section that is its top
// folder; no member name is a folder of another's (transcripts/a beside transcripts/a/b: a file system holds
// one, and GNU tar and Python each lose one). Each of these is FAILED at archive. Names that are distinct here
// but not on other file systems (letter case; NFC and NFD spellings; either of those making one name a folder
// of another; names Windows cannot create, such as CON, a.txt:ads or "trail.") are warnings (exit 3 under
// --strict).
//
// How it is enforced: shapeReader (tarshape.go) reads the inflated stream beneath archive/tar and judges every
// byte as it passes; a byte outside the shape makes the read that would deliver it fail, so archive/tar never
// parses a header outside the shape. archive/tar's reading of each member is then held against the shape
// check's (name and size), a second line of defence that cannot differ inside the shape.
//
// # Checks
//
// In this order, one line each: archive (above), manifest (strict JSON, schema_version 1, package manifest),
// files (every listed file present with its size and sha256, nothing else), signature, trust, sshsig and
// attestation (below, when their files are given), commits (below), and, when asked, note (the archive's sha256 equals a digest git-bernstein noted on a commit for the ticket), and, when asked,
// repository (below), and, when the bundle carries lineage/v2/checkpoint.json, lineage-v2 (the packed lineage v2
// slice extends that checkpoint; package lineage, "Checkpoints"), and, when the bundle has a pr/ member,
// pr-sources (below). A failed archive or manifest check stops there; a failed files check does not stop the
// signature check.
//
// # Pull request sources
//
// pr/sources.json (package prsource) says where each pr/ member came from: fetched from GitHub, GitHub's answer
// from the ETag cache after a 304, or an offline copy from .sdd/pr. The pr-sources check reads it strictly and
// holds it against the pr/ members of the archive; Report.PRSources (--json "pr_sources") carries it.
//
//	PASS  it names exactly the pr/ members present, each fetched or cache (each listed with its URLs, and the
//	      cache's ETag and cached_at with its age at created_at)
//	WARN  a member is an offline copy ("pr/pr_7.reviews.json: offline copy from .sdd/pr/pr_7.reviews.json, not
//	      from GitHub"): an agent or a person wrote it, and the signature says only that the bundler packed it;
//	      or the bundle has pr/ members and no pr/sources.json ("sources not recorded": older bundles and
//	      upstream's, which verify as before). VERIFIED, exit 3 under --strict: VERIFIED must not read as
//	      GitHub having said what an agent wrote
//	FAIL  it is not strict JSON of v 1, or names a member the archive lacks, or a pr/ member is not named
//	FAIL  (unusable, exit 2) a newer "v", or larger than 16 MiB
//
// # Commits
//
// When the bundle has git/commits.json, or its manifest lists commits, the commits check holds the document to
// itself and to the signed manifest, reading no git (it runs in the browser too). The document is read as the
// manifest is (package commitsjson: strict JSON, no duplicate keys at any depth, exact member names and types),
// then: every sha once in commits; when it has details, one details entry for each listed commit and none for
// another; the manifest's commits exactly the document's (same shas, order and count), and its tracker and
// ticket_id the document's. Two entries for one sha would let one reader (view, the first) show what another
// (a map, the last) did not check; a manifest commit the document does not describe is signed but unbacked.
//
//	PASS  all of that holds
//	FAIL  anything else, each named, or the manifest lists commits and the bundle has no git/commits.json
//
// It runs after trust so that the first failure of an edited manifest is still the signature's.
//
// # Repository
//
// Options.Repository (verify --repo) holds the bundle's git section against a repository the user has. This
// package reads no git (it also runs as WebAssembly in the browser page): it keeps git/commits.json and
// git/diff.patch (and the git/patchids/ members, MaxRepoPatchIDsSize together) from its one read of the archive
// and hands them to RepoCheck.Check (RepoMembers), which the CLI fills in
// (package repocheck: every listed commit is in the repository with the parents, author, committer, subject
// and cherry_picked_from it records; each part of diff.patch, applied in memory by gitext/patch/apply, turns
// its commit's first parent's tree into the commit's tree; one part per listed non-merge commit that changes
// its tree). It then finds the ticket again in the repository at the state git/commits.json's discovery records
// (the rules' version, settings and every tip walked), reading no index or cache: a commit tied there that the
// bundle lacks, or a matched_by, patch_id or landed_on other than the one found, is a difference; later ties and
// what cannot be judged (tips the clone lacks, a shallow side, other rules, binary patch ids, a bundle without
// discovery) are notices (RepoResult.Notices). Each git/patchids/pr_<N>.json head's fork point and patch id are
// computed again: a difference is a difference, a head the clone lacks a notice (RepoResult.PatchIDHeads counts
// those found equal, for the PASS line). The check runs on the bytes read, whether or not the files check passed.
//
//	PASS  every listed commit is there and everything matches, and the bundle is complete at its recorded state
//	WARN  the same, with notices: what could not be judged, and commits tied only since (exit 3 under --strict)
//	FAIL  any difference, each listed (FAILED): what the bundle says of the code is not what the repository holds
//	FAIL  (unusable, exit 2) a listed commit, or the parent a part needs, is not in the repository (a clone made
//	      before the work, a history rewritten since): nothing can be said of it; also no repository, no
//	      git/commits.json, or an object that cannot be read
//
// A difference outranks a missing commit: the check is then FAIL and lists both.
//
// # Signature
//
// A detached compact JWS (RFC 7515 appendix F) with an unencoded payload (RFC 7797) in <archive>.jws: the
// protected header is exactly {"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"<kid>"}, the payload is the
// manifest's JCS form (RFC 8785), and the key is Ed25519 (package sign). A signature over upstream's legacy
// Python form (json.dumps with sorted keys and compact separators) passes with a warning. Trust comes only from
// what the user gives: cards (--card) and allowed signers files (--allowed-signers, or git's
// gpg.ssh.allowedSignersFile; below); one kid must name one key across all of them, never from the bundle.
//
// # Allowed signers
//
// Options.AllowedSigners are the lines of the user's allowed signers files (package sshsig, "Allowed
// signers"). For the JWS, the kid picks the lines whose principals match it (OpenSSH patterns) or whose key's
// SHA256: fingerprint is it; each such line whose key is ssh-ed25519, not cert-authority, allowed for
// namespace git-bernstein (namespaces=) and valid (valid-after, valid-before) at the manifest's created_at
// becomes a trusted key of that kid, named "<file>:<line> (allowed signers, principal P, SHA256:…)". Several
// lines may give one principal several keys (a key rotation): any of them may vouch. A card and a line that
// give one kid two different keys are refused (trust unusable, exit 2), as two cards are. When a line matched
// the kid but may not sign (namespace, validity, cert-authority), the trust line says which and why. The
// VERIFIED sentence is unchanged: the manifest is signed by a key the user trusts as that kid.
//
// # SSH signature
//
// When <archive>.sig is given (Options.SSHSig; the CLI reads it when it is beside the archive), the sshsig
// check follows trust: an SSHSIG (package sshsig, "SSHSIG") over all of the archive file's bytes, hashed in
// the same single read that checks the archive (after the archive check passed, nothing is left to read).
//
//	PASS  it verifies, in namespace git-bernstein, with the key it carries, and that key is in an allowed
//	      signers line usable for the namespace at created_at (any principal), or is a card's key
//	WARN  it verifies, but by a key the user did not give: the bytes are intact, the signer unknown
//	FAIL  it does not verify over these bytes (FAILED even with no key given: the key travels in the
//	      signature, so the archive is not what that key signed), or it was made for another namespace, or
//	      its key is in the user's allowed signers but not usable for the namespace at created_at
//	FAIL  (unusable, exit 2) the file is not an armored SSHSIG
//
// # Attestation
//
// When <archive>.intoto.jsonl is given (Options.Attestation), the attestation check follows: a DSSE envelope
// holding an in-toto Statement (package attest). The statement must describe this archive (a first subject
// with the archive file's sha256, predicate the manifest, exact types), else FAIL whether or not a key checked
// the envelope. One more subject is allowed, the archive's OCI manifest in an OCI store (package attest, "OCI
// manifest subject"), and the line then names it ("it also names the OCI manifest oci://…@sha256:…"); any
// other extra subject is FAIL. The envelope's keyid picks trusted keys as the JWS's kid does (cards, allowed signers lines).
//
//	PASS  it describes this archive and a trusted key of its keyid accepts PAE (WARN when only the subject's
//	      name differs from the archive's file name: renamed)
//	WARN  it describes this archive, but no key was given, or none for its keyid
//	FAIL  it describes other bytes or another manifest, or the trusted key of its keyid rejects it
//	FAIL  (unusable, exit 2) not a DSSE envelope
//
// # Sigstore bundle
//
// When <archive>.sigstore.json is given (Options.SigstoreBundle), the sigstore-bundle check follows: the same
// statement in a Sigstore bundle v0.3 (package attest, "Sigstore bundle"), held to the archive by the same code
// as the attestation check, with the bundle's publicKey.hint in the keyid's place: it picks the trusted keys
// (cards, allowed signers lines), and the key a bundle might carry is never trusted (it carries none: a
// certificate or another form is not read). PASS, WARN and FAIL as for the attestation; FAIL (unusable, exit 2)
// when it is not a bundle of the form git-bernstein writes.
//
// The verdict still needs the JWS: an archive with a good .sig or attestation and no .jws is UNVERIFIABLE,
// since VERIFIED keeps its one meaning (the manifest, and through it every member, signed by a key you trust).
// A failed sshsig or attestation check makes the bundle FAILED like any other failed check.
//
// # Verdicts and exit codes
//
//	0 VERIFIED      every check present and passed, the signature checked against a key the user gave
//	1 FAILED        something does not match what was signed, or the archive is outside the shape
//	2 UNVERIFIABLE  no signature or no trusted key (the archive is still checked), or unusable input
//	3               VERIFIED with warnings, under --strict only
//
// Each check's status (Check.Status, "status" in --json) is pass, warn, fail (a mismatch, FAILED) or unusable
// (CannotCheck: the check could not be made, UNVERIFIABLE, no sign of tampering); the text report shows it as
// [PASS], [WARN], [FAIL] or [UNUSABLE]. Report.Failures names the checks that are fail or unusable.
//
// # Limits
//
// Every size is counted on the bytes read, never taken from a header: members (Limits.MaxEntries), one member,
// all inflated bytes, the manifest, all names. Passing one is unusable input (exit 2). One name's length
// (MaxNameLength) and depth (MaxNameDepth, 32 parts) are fixed bounds of the shape instead, FAILED when passed:
// no bundle writer comes near them (the deepest member is lineage/v2/children/<hex>.jsonl, 4 parts), and a name
// thousands of folders deep only makes every extractor slow.
package verify
