// Package lineage reads, verifies, exports and writes Bernstein's lineage v2 store: an HMAC-chained parent
// timeline (parent.jsonl) whose refs point by content address at HMAC-chained child body files
// (children/<hex>.jsonl). Every byte it writes or checks is what upstream's Python writer writes, so both can
// share one store; what follows is that format as this package implements it.
//
// # Store
//
// A store is a folder, by default <worktree root>/.sdd/lineage/v2 (Bernstein writes it when
// BERNSTEIN_LINEAGE_V2=1 or bernstein.yaml sets lineage.version: 2):
//
//	parent.jsonl              one ParentRef a line, in append order, for every task
//	children/<hex>.jsonl      one ChildBody a line: the bodies of one child run, where <hex> is the 64
//	                          lower-case hex digits of the child_sha of the file's first body
//
// Both are JSON Lines: each record is its canonical form (below) followed by "\n". Readers strip the newlines
// at the end of a file and skip empty lines; a file that does not end in "\n" is torn (a crash cut its last
// append short, or only its newline was lost). A missing parent.jsonl is an empty store; a missing child file
// reads as no bodies. Every store file is read through package regularfile: it must be a regular file (a FIFO
// or device is an error naming it, never a hang), opened without blocking, at most 1 GiB (MaxFileSize). A
// child_sha that is not "sha256:" plus 64 lower-case hex digits names no file (ChildPath), so a record cannot
// steer a path outside the store.
//
// # Records
//
// ParentRef, a line of parent.jsonl: a light pointer from a task's timeline to one child run.
//
//	v               integer  2 (Version)
//	task_id         string   non-empty
//	child_run_id    string   non-empty
//	parent_call_id  string   the tool call that spawned the child (may be empty)
//	summary         string   short, for people (may be empty)
//	child_sha       string   "sha256:<hex>": the content address of the child file
//	ts_ns           integer  nanoseconds since the Unix epoch
//	prev_hmac       string   the hmac of the previous line of parent.jsonl, "" on the first
//	hmac            string   this record's HMAC
//
// ChildBody, a line of a child file: one event of a child run.
//
//	v               integer  2
//	task_id         string   non-empty
//	child_run_id    string   non-empty
//	seq             integer  >= 0; AppendBody numbers a body by the count of bodies already in its file
//	kind            string   non-empty, e.g. "subagent.started"
//	payload         object   any JSON object
//	ts_ns           integer
//	prev_hmac       string   the hmac of the previous body in the same file, "" on the first
//	hmac            string
//
// Integers must fit 64 bits. Decoding is stricter than upstream's int()/str() coercions: a missing member, a
// wrong type or a failed check above makes a line undecodable, reported with the Python exception upstream
// would raise for it (KeyError, TypeError, ValueError, JSONDecodeError); a value Python would coerce is caught
// there by the canonical-bytes check instead, so both reject the line. As upstream, a missing or non-object
// payload reads as {} (and the line then fails the canonical-bytes check).
//
// # Canonical form
//
// The bytes of a record, of its HMAC input and of its content address are Python's
//
//	json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False)
//
// encoded as UTF-8 (package pyjson: pyjson.Canonical, Encoding's zero value). In detail: no whitespace; object members sorted by code
// point (byte order of UTF-8; not RFC 8785's UTF-16 order, which differs above U+FFFF); strings escape only `"`,
// `\`, the short forms \n \r \t \b \f and other characters below U+0020 as \u00xx in lower-case hex, and write
// everything else as UTF-8 (no HTML escaping, "/" and U+2028 as they are); integers keep all their digits (at
// most 4300, CPython's int_max_str_digits; "-0" is 0); any number with a fraction or exponent is a float,
// written as CPython's repr (the shortest digits that round-trip, positional when the decimal exponent is
// between -4 and 16, else d.ddde±XX: 1e+16, 1e-05, 0.0001, -0.0); NaN and infinities are refused. Input that
// Python could read but not write back as UTF-8 (invalid UTF-8, a lone surrogate escape) is refused by
// pyjson.Parse. The committed vectors are internal/pyjson/testdata/canonical_vectors.json, made by CPython itself
// with its gen_vectors.py: for each input, the canonical form, the ensure_ascii form and the indent=2 form.
//
// # HMACs and content addresses
//
// Both layers are hash chains of HMAC-SHA256 (RFC 2104):
//
//	hmac       = lower-case hex HMAC-SHA256(key, canonical(record with hmac ""))
//	prev_hmac  = the previous record's hmac in the same chain, "" for the first
//	child_sha  = "sha256:" + lower-case hex SHA-256(canonical(first body with hmac "" and prev_hmac ""))
//
// The parent chain is parent.jsonl, across all tasks; each child file is a chain of its own. prev_hmac is part
// of the HMAC input, so a record cannot be removed, reordered or inserted without breaking the next link; the
// content address leaves the chain fields out, so it is known before the body is chained.
//
// Keys: the public default "bernstein-lineage-v2-default-key" (DefaultKey, the key upstream's CLI always uses:
// anyone can recompute its HMACs, so the chains catch accidents, never forgery), or a secret from a key file
// given with --key-file or $BERNSTEIN_LINEAGE_V2_KEY_FILE (ResolveKey, in that order): the file's bytes less one
// trailing "\n" or "\r\n", not empty, at most 64 KiB. A key file that holds the public constant is classed
// public-default: the class (KeyClass, "public-default" or "secret-file") says who could have written the HMACs,
// not where the bytes came from.
//
// # Writing
//
// Append records a new child's first body and its parent ref; AppendBody adds a body to an existing child file
// and leaves parent.jsonl alone. Both take flock(LOCK_EX) on parent.jsonl, the lock Python's fcntl.flock takes,
// creating the folders (0755) and parent.jsonl (0600) when missing; they read the chain tips, refuse to extend
// a file whose last line is torn or unreadable (upstream would chain from "" and fork the chain), and write
// each line with one write followed by fsync (and an fsync of the folder for a new file). The child line is
// written before the parent line, so a crash in between leaves an orphan child file (reported below), never a
// ref to nothing. As upstream, a first body whose content address already has a file is chained onto it.
// Store files are opened with O_NOFOLLOW|O_NONBLOCK and must be regular files. On Windows (lock_windows.go) the
// lock is LockFileEx on one byte far past the end of parent.jsonl (Windows locks are mandatory, so no byte a
// reader reads), and a store file that is a reparse point (symbolic link, junction) is refused, the file opened
// being held to the entry looked at before and after the open (os.SameFile). Upstream's fcntl.flock has no
// Windows form, so the two lock alike on unix only.
//
// # Verify
//
// Verify checks, in upstream's order and wording, and is total (any input gives a verdict, never a crash):
//
//   - each line of parent.jsonl: decodable ("parent[i] undecodable record (KeyError)"); exactly its canonical
//     form ("non-canonical bytes"); not a torn last line; its hmac under the key ("hmac mismatch"); its
//     prev_hmac equal to the previous decodable line's hmac ("prev_hmac break");
//   - the child file it points at: present ("missing child file"), readable, not empty, and each of its bodies
//     decodable, canonical, not torn, with the right hmac and prev_hmac; the first body's content address equal
//     to the ref's child_sha ("child_sha mismatch");
//   - every regular file children/<name>.jsonl that no ref names ("orphan child file sha256:<name>");
//   - with Strict (lineage v2 verify --strict): a store checked under the public default key fails, since anyone
//     can forge it.
//
// Each Failure names the file and record, and a repair where there is one: truncate a torn line to the last
// "\n" (the byte count is given), append the newline a whole last record lost, remove an orphan child file,
// restore a missing child file from a copy.
// Verify does not check what no record commits to: seq numbering, ts_ns order, that a body's task_id matches
// its ref's, or how many bodies a child file has (cutting whole trailing bodies off a multi-body child file is
// invisible, by upstream's design; so is cutting the newest parent refs together with their child files).
// Checkpoints (below) make both visible. Replay, show and export read without verifying.
//
// # Checkpoints
//
// A checkpoint records how long every chain of the store was; its format, how a store is checked against
// one, and a bundle's ticket refs are in package checkpoint's doc.go.
//
// # Export
//
// ExportJSONL writes per parent ref {"_kind":"parent",…} and then its bodies as {"_kind":"child",…}, one a line,
// as json.dumps(…, sort_keys=True, separators=(",", ":")) with ensure_ascii=True (pyjson.Encoding{ASCII: true}). ExportSigstore writes a JSON list, json.dumps(indent=2,
// sort_keys=True), of one in-toto Statement v1 per ref: subject "bernstein-lineage-v2/<task>/<run>" with the
// child_sha's hex digest, predicateType https://slsa.dev/provenance/v0.3 with an SLSA 1.0 shaped predicate
// (buildType https://bernstein.dev/lineage/v2, builder https://bernstein.dev/runners/lineage-v2, the parent's
// prev_hmac, or 64 zeros, as a resolved dependency, each body's SHA-256 as a byproduct, startedOn from ts_ns as
// upstream's datetime rounds it). Timeline.Marshal is show --output-json: [{"parent":{…},"bodies":[…]}], indent 2.
//
// # Reference vector
//
// Under the default key, task "T", run "r1", call "call", summary "s", ts_ns 1, one body of kind
// "subagent.started" with payload {} and seq 0 give exactly these two files (reference_test.go):
//
//	children/3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b.jsonl:
//	{"child_run_id":"r1","hmac":"46e4b1dec76b55ca30f20529ba3a21c0d2bdd9d0d6206ec02842906a84ee2ede","kind":"subagent.started","payload":{},"prev_hmac":"","seq":0,"task_id":"T","ts_ns":1,"v":2}
//
//	parent.jsonl:
//	{"child_run_id":"r1","child_sha":"sha256:3c99e1ac3544ed3dd607a160441535c907c7fd854f513d5f106f0f826f0c702b","hmac":"a20e714596a40542ef979653d803a19780ca835318b5f831636be91ae003db95","parent_call_id":"call","prev_hmac":"","summary":"s","task_id":"T","ts_ns":1,"v":2}
//
// # Lineage v1
//
// Bernstein's default lineage, the v1 log (.sdd/lineage/log.jsonl), its checks and how bundles carry it are
// in package logv1's doc.go.
//
// # Other lineage files and bundles
//
// The flat JSONL files directly in .sdd/lineage other than log.jsonl (such as the demo's tracker_audit.jsonl)
// have no reader, writer or check here: package bundle packs them as opaque
// records, whole or as the slice of lines that name the ticket (--whole-files keeps them whole, so any chain in
// them stays checkable by upstream's tools), and `git bernstein view` shows them as tables. With lineage v2
// enabled, a bundle also holds lineage/v2/parent.jsonl, the slice of the parent refs of the ticket's tasks (each
// line byte for byte, so each line's hmac still checks; prev_hmac links hold only where no other task's line was
// left out between two kept lines), and the child files they point at, whole, so every child chain checks;
// with a checkpoint, also lineage/v2/checkpoint.json and lineage/v2/checkpoint-refs.json ("Checkpoints").
package lineage
