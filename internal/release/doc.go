// Package release builds a git-bernstein release that proves itself, and checks one. It never prints.
//
// # Files
//
// A release folder (`make release` writes build/release) holds:
//
//	git-bernstein-<os>-<arch>[.exe]       the front, for each target: linux, darwin, windows × amd64, arm64
//	git-bernstein-full-<os>-<arch>[.exe]  every command, for each target (.exe: windows)
//	git-bernstein.cdx.json           CycloneDX SBOM of the modules linked into the binaries
//	SHA256SUMS                       "<sha256 hex>  <name>" for each file above, sorted by name
//	SHA256SUMS.sig                   SSHSIG over SHA256SUMS, namespace git-bernstein (ssh-keygen -Y verify)
//	provenance.intoto.jsonl          in-toto Statement v1, SLSA provenance v1, in a DSSE envelope (keyid: kid)
//	provenance.sigstore.json         the same envelope in a Sigstore bundle v0.3 (package attest)
//
// A target's two binaries are installed side by side as git-bernstein and git-bernstein-full (package front).
// The Windows binaries have no O_NOFOLLOW or flock(2): extract and lineage v2 append use build-tagged
// equivalents there (Targets says which); the unix builds keep theirs.
//
// # Reproducible
//
// Every binary is `go build -trimpath -buildvcs=auto -ldflags '-s -w -buildid= …'` with CGO_ENABLED=0: no
// paths of the machine, an empty Go build id, and no cgo toolchain, so two builds of one commit with one Go
// toolchain give the same bytes. The version stamp is the Makefile's (package buildinfo): VERSION=…, else what
// Go stamps from the clone, else the FALLBACK of a linked worktree; all of these name the commit, none a time.
// Nothing else in the folder carries a time either: the SBOM has no timestamp and a serial number derived
// from its content, the provenance has no startedOn/finishedOn, and Ed25519 signatures (RFC 8032) are
// deterministic, so the whole folder is byte-identical for one commit and one key (TestReproducible in
// cmd/release runs the tool twice and compares).
//
// # SBOM
//
// CycloneDX 1.6 JSON, written by package sbom with github.com/CycloneDX/cyclonedx-go (a package apart, so that
// git-bernstein, which imports this one for verify-release, does not link it). metadata.component is
// git-bernstein at the release version; components are the modules of the binaries' build information
// (debug/buildinfo: the union over every target, which one go.mod makes one set), each a library with its purl
// pkg:golang/<path>@<version> and its go.sum hash as the property go:module:sum (h1: hashes the module's file
// tree, not a file, so it is no CycloneDX hash); a replaced module is listed as its replacement. The Go
// toolchain is the metadata property go:toolchain. The module graph's edges are not in build information, so
// the one dependency entry says git-bernstein depends on every component.
//
// # Provenance
//
// An in-toto Statement v1 whose predicateType is https://slsa.dev/provenance/v1 and whose subjects are every
// file of SHA256SUMS and SHA256SUMS itself, each by name and sha256. The predicate (SLSA v1.0, provenance):
//
//	{"buildDefinition":{"buildType":"https://github.com/git-bernstein/git-bernstein/release/v1",
//	   "externalParameters":{"version":V,"targets":["linux/amd64",…]},
//	   "internalParameters":{"go":"go1.26.8","env":{"CGO_ENABLED":"0"},"flags":["-trimpath",…]},
//	   "resolvedDependencies":[{"uri":"git+https://github.com/git-bernstein/git-bernstein","digest":{"gitCommit":C}},
//	                           {"uri":"pkg:golang/<path>@<version>"},…]},
//	 "runDetails":{"builder":{"id":"https://github.com/git-bernstein/git-bernstein/make-release"}}}
//
// (shown wrapped; the payload is its JCS form, RFC 8785). The commit is the clone's HEAD; a build with
// uncommitted changes says so in externalParameters.dirty.
//
// # Checking a release
//
// Verify trusts only keys the caller gives (cards, allowed signers lines): every line of SHA256SUMS names a
// plain file of the folder whose sha256 is the one written, no other file is there besides the three
// signature files, SHA256SUMS.sig is a good SSHSIG by a given key over SHA256SUMS, and both provenance files
// open with a given key (package attest) and carry a statement whose subjects are exactly SHA256SUMS's files
// and SHA256SUMS, with the same digests. Any one failure fails the release: a binary that is not the one
// signed must not be run. The stock commands that do the same are in README, "Install".
package release
