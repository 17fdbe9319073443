// Package manifest is the ticket bundle's manifest.json, schema_version 1, and the bundle's layout. The
// Manifest struct is the schema: the bundle writer (package bundle) and the verifier (package verify) both use
// it, Marshal to write and Parse to read.
//
// # manifest.json, schema_version 1
//
// One JSON object (RFC 8259) in UTF-8 with exactly these members, written in this order (readers accept any
// order: the signature covers the manifest's canonical form, package sign, "Signature"):
//
//	schema_version     integer   always 1 (SchemaVersion)
//	created_at         string    "YYYY-MM-DDTHH:MM:SSZ", UTC, whole seconds (TimeFormat): --created-at, else
//	                             SOURCE_DATE_EPOCH, else the clock
//	bernstein_version  string    the writer's release (package buildinfo: the version set at link time, else
//	                             the module version `go install` records, else "dev")
//	tracker            string    the tracker the ticket id belongs to ("github", "jira", …)
//	ticket_id          string    the ticket id as the user gave it ("ENG-42", "123")
//	files              [entry]   every member of the archive but manifest.json, sorted by arcname (byte order)
//	pr_number          integer   the pull request that landed the work (latest merged_at, else the newest), or
//	                   or null   null when the bundle holds no pull request payload
//	commits            [string]  the full 40-hex-digit ids of the commits tied to the ticket, in the order of
//	                             git/commits.json (parents before children)
//
// An entry is an object with exactly these members, in this order:
//
//	arcname     string   the member's name in the archive (the name rules below)
//	size_bytes  integer  the member's length in bytes, >= 0
//	sha256      string   SHA-256 of the member's bytes, 64 lower-case hex digits
//	section     string   the member's first path component: transcripts, traces, lineage, audit, git or pr
//
// Marshal writes the object with encoding/json: two-space indentation, no HTML escaping ("<" stays "<"), a
// final newline. Files and commits are lists, never null, even when empty.
//
// Parse reads strictly, so that every reader sees the same document (errors wrap ErrMalformed unless said):
//   - package strictjson's Decode, the reader of every trusted document: valid UTF-8, one JSON value and nothing
//     after it, nested at most 16 levels, no member name twice in any object (compared after unescaping, so "a"
//     and "\u0061" collide) nor two that differ only in letter case, no U+FFFD in a string or name (Go's
//     decoder turns a lone surrogate escape into U+FFFD, and RFC 8785 refuses lone surrogates);
//   - schema_version is read first: an integer other than 1 is ErrUnsupportedSchema (a newer format, which the
//     verifier reports as unusable input, exit 2), not ErrMalformed;
//   - every member above present with its type, and no other member, at the top and in each entry;
//   - integers are literals without fraction or exponent ("1.0" and "1e0" are refused) within ±(2^53-1), the
//     range every JSON reader and the canonical form (which goes through IEEE doubles) hold exactly;
//   - arcnames pass CheckName, are distinct, and are never "manifest.json"; sha256 is 64 lower-case hex digits;
//     size_bytes is not negative.
//
// Parse does not check what writers promise beyond that: created_at's layout, the order of files, and whether
// section agrees with arcname. The verifier does: each section must be one of Sections and the top folder of
// its arcname, or the archive check fails (package verify, "Archive shape"). It holds the archive's members
// against files (package verify, "Checks"); section also groups the files for people (git bernstein view).
//
// # Member names
//
// CheckName is the rule for every arcname and every archive member name: a relative POSIX path ("/" between
// parts) of valid UTF-8, not empty, not starting with "/", with no part that is empty, "." or ".." (so no
// leading, trailing or doubled "/"), no backslash, no NUL or other control character (U+0000–U+001F, U+007F,
// U+0080–U+009F), no Windows drive prefix ("C:"), and no part that is git's own folder .git on some file system,
// by git's verify_path rules with core.protectHFS and core.protectNTFS on: ".git" in any letter case; ".git" or
// "git~1" followed only by dots and spaces, up to the end or a ":" (NTFS); ".git" with any of U+200C–U+200F,
// U+202A–U+202E, U+206A–U+206F, U+FEFF anywhere in it (HFS+). Extracting such a name can only write inside the
// target folder, on any system, and never a repository's config or hooks. Names that differ only in ways some file systems ignore (letter case, NFC and NFD) are
// allowed here; the verifier warns about them.
//
// # Bundle layout
//
// A bundle is <ticket>.tar.gz: one gzip member holding one tar stream, in the exact shape package verify
// describes ("Archive shape"), plus, when signed, the detached signature in <archive>.jws beside it (package
// sign). The tar members are regular files: manifest.json first, then every file of the manifest in the order
// files lists them, that is sorted by arcname. Every header has mtime 0, mode 0644, uid and gid 0 and no owner
// names; a PAX header carries the name only when it needs one (longer than ustar holds, or not ASCII). The gzip
// header has no file name, mtime 0 and OS 255. So the same inputs give the same bytes. The verifier requires
// manifest.json first and the other members to be exactly the listed ones; it does not require their order.
//
//	member                          section      where it comes from
//	manifest.json                   (unlisted)   this package
//	git/commits.json                git          what `git bernstein commits --json` prints for the ticket; always present
//	git/diff.patch                  git          a format-patch series of the tied non-merge commits, oldest first
//	                                             (package gitext/patch); absent when there is no such commit
//	pr/pr_<N>.json                  pr           pull request N exactly as GitHub's REST API returned it (package github)
//	pr/pr_<N>.reviews.json          pr           all its reviews, GitHub's own bytes joined into one JSON array (when
//	                                             they could be fetched)
//	pr/sources.json                 pr           where each other pr/ member came from: fetched, the ETag cache after a
//	                                             304, or an offline copy from .sdd/pr (package prsource); present
//	                                             when there are pr/ members
//	transcripts/<name>              transcripts  .sdd/transcripts/<name>, whole (upstream names them <agent>-<session>.jsonl)
//	traces/<name>                   traces       .sdd/traces/<name>, whole
//	lineage/<name>                  lineage      .sdd/lineage/<name>: whole, or for a .jsonl file chosen by its
//	                                             content the slice of its lines that name the ticket
//	audit/<name>                    audit        .sdd/audit/<name>, whole or sliced like lineage/
//	lineage/v2/parent.jsonl         lineage      with lineage v2 on: the parent refs of the ticket's tasks, a slice
//	                                             of .sdd/lineage/v2/parent.jsonl (package lineage)
//	lineage/v2/children/<hex>.jsonl lineage      the child files those refs point at, whole
//
// The .sdd folders are read one level deep, regular files only; which files belong to a ticket, and how a
// slice is cut (whole lines, byte for byte, in file order), is package bundle's to decide. A slice lists the
// slice's size and hash, not the file's. testdata/verify/good.tar.gz (with good.tar.gz.jws, signed by
// testdata/verify/test-only-key.pem) is a complete bundle of this layout.
//
// # Example
//
// The manifest of a signed bundle for github ticket ENG-42 with one tied commit, a transcript, and an audit log
// of which one line names the ticket:
//
//	{
//	  "schema_version": 1,
//	  "created_at": "2026-01-02T03:04:05Z",
//	  "bernstein_version": "dev",
//	  "tracker": "github",
//	  "ticket_id": "ENG-42",
//	  "files": [
//	    {
//	      "arcname": "audit/tracker.jsonl",
//	      "size_bytes": 57,
//	      "sha256": "e121ae27831c140a0ca45af8777f108f1690104bf41723f9b28e7eff0a7ad1df",
//	      "section": "audit"
//	    },
//	    {
//	      "arcname": "git/commits.json",
//	      "size_bytes": 613,
//	      "sha256": "276cea001bcfe489628b050fd4703746d026f6e9d0389442d9d28cc949c38904",
//	      "section": "git"
//	    },
//	    {
//	      "arcname": "git/diff.patch",
//	      "size_bytes": 359,
//	      "sha256": "c46d8f893dd906c199216a40c646d5a4cbba11104b99adba5fb83c8ca9e65a2a",
//	      "section": "git"
//	    },
//	    {
//	      "arcname": "transcripts/coder-ENG-42.jsonl",
//	      "size_bytes": 39,
//	      "sha256": "f4ec98d4bd54f1b21218eb80dfa8ae90fd163a2a1bea63f72ff550bec0af8646",
//	      "section": "transcripts"
//	    }
//	  ],
//	  "pr_number": null,
//	  "commits": [
//	    "67109f4b53712032d02d769f1c76fb52f95777a5"
//	  ]
//	}
//
// and the archive's members, in order: manifest.json, audit/tracker.jsonl, git/commits.json, git/diff.patch,
// transcripts/coder-ENG-42.jsonl.
//
// # JSON Schema
//
// manifest.schema.json beside this file states the schema 1 document in JSON Schema (draft 2020-12), for tools
// of others; tests hold the bundles we write to it (internal/schematest).
package manifest
