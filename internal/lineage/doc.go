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
// The chains say that nothing was changed inside them, not how long they were: anyone can cut records off
// the end of a file and leave a store that verifies, key or no key. A checkpoint records how long the chains
// were at one moment, so that a later cut shows. It is one file (package lineage/checkpoint), the canonical form
// above of
//
//	{"children":{"<hex>":{"count":<bodies>,"last_hmac":"<hmac of the last body>"},…},
//	 "created_at":"2026-01-02T03:04:05Z","format":"git-bernstein/lineage-v2-checkpoint",
//	 "key_class":"public-default"|"secret-file","parent":{"count":<refs>,"last_hmac":"<hmac of the last ref>"},"v":1}
//
// followed by one "\n" (one line; wrapped here). children has one member per file children/<hex>.jsonl in the
// store (64 lower-case hex digits), count >= 1; parent.count is the number of records of parent.jsonl and
// last_hmac is "" exactly when count is 0; created_at is UTC, whole seconds; key_class is the class of the key
// the store verified under when the checkpoint was taken (TakeCheckpoint verifies first and refuses a store
// that fails, rather than anchor what is wrong with it). Only these exact bytes are read back (checkpoint.Parse
// re-encodes and compares), so one checkpoint has one sha256: the digest notes carry. A signed checkpoint has
// beside it, as F.jws, the detached JWS of bundles (package sign: exact header, Ed25519) over the JCS form of
// the file, which for these ASCII-only members without fractions is the canonical form without the newline.
//
// A store extends a checkpoint when (CheckCheckpoint; records counted as Verify counts them, the non-empty
// lines of each file):
//
//   - parent.jsonl holds at least count records, and record count-1 has hmac last_hmac;
//   - each child file the checkpoint lists exists, holds at least count bodies, and body count-1 has hmac
//     last_hmac.
//
// Anything else fails, one Failure per file naming it and the position: "parent.jsonl holds 2 of the 3 parent
// refs the checkpoint counted: parent refs 2..2 (0-based) were cut", "... body 4 has hmac …, the checkpoint
// has …". Records appended since, and new child files, pass. Together with Verify this pins every checkpointed
// record: Verify makes each record's hmac cover its bytes and its prev_hmac, so a record with the checkpointed
// hmac at the checkpointed position fixes every record before it in its file. That holds under the public
// default key too (a different prefix with the same last hmac is an HMAC-SHA256 collision); the key decides
// only who can write records that verify, and so who could rewrite the store and a checkpoint that is not
// anchored where they cannot reach it.
//
// Where checkpoints live: `lineage v2 checkpoint --out F` (and F.jws); with lineage v2 enabled, `record` and
// the post-merge hook take one per run (its created_at the bundles' created_at), pack it into each bundle as
// lineage/v2/checkpoint.json (so the manifest signature covers it) and note its sha256 in each note line
// (package notes, lineage_v2_checkpoint_sha256). `lineage v2 verify --checkpoint F...` checks the store
// against files; `--since REV` against every digest noted on REV and its ancestors, each found in the recorded
// bundle (<bundle dir>/<tracker>/<ticket>/<file>, read by the verifier's tar reader, its sha256 held to the note)
// or among the --checkpoint files; a noted checkpoint that cannot be found fails.
//
// In a bundle the verifier (check lineage-v2, package verify) holds the slice against the bundle's own
// checkpoint, taken before the store was read for the slice. The slice is not the store: lineage/v2/parent.jsonl
// keeps only the refs of the ticket's tasks, so other tasks' refs are missing between kept lines and their
// prev_hmac links do not join, and a kept ref's position in the store is not in the slice. For child files:
// each packed child file the checkpoint lists must hold its checkpointed bodies with the checkpointed last hmac
// and join its prev_hmac links; each child file the checkpoint lists that a packed ref points at must be
// packed. A body cut, or a child file removed, between the checkpoint and the packing is FAIL.
//
// For parent refs the bundle carries, beside the checkpoint, its ticket refs, lineage/v2/checkpoint-refs.json
// (checkpoint.TicketRefs), in the canonical form above and a newline:
//
//	{"checkpoint_sha256":"<sha256 of checkpoint.json>","format":"git-bernstein/lineage-v2-checkpoint-refs",
//	 "refs":[{"hmac":"<hmac>","position":<0-based record of parent.jsonl>,"task_id":"<task>"},…],
//	 "tasks":["<task>",…],"v":1}
//
// tasks are the ticket's tasks (sorted, each once): those the slice took, and every task with refs at the
// checkpoint whose task_id names the ticket; refs are every parent ref the checkpoint counted (position <
// parent.count) whose task is one of them, by position, with its hmac, all from the read of the store that
// made the checkpoint (Checkpoint.Refs). The verifier (checkpoint.CheckRefs) requires: checkpoint_sha256 is the
// packed checkpoint's; a ref at position parent.count-1 has the checkpoint's last_hmac; every listed ref is in
// the slice with its hmac, in position order; every ref of the slice is of a listed task. So a parent ref of the
// ticket cut, replaced or moved between the checkpoint and the packing is FAIL naming its position and task
// ("lineage/v2/parent.jsonl lacks parent ref 2 of task "ENG-42-impl" (hmac …) that the checkpoint of … counted"),
// while another task's ref left out is not. The file is a bundle member, so the manifest signature covers it.
// What it cannot show: a task tied to the ticket only by its records' content (not its id) whose every ref was
// cut before packing, since the slice no longer names it (`lineage v2 verify --since` on the store catches that).
// Bundles made before ticket refs existed carry none: their parent refs are counted, not checked, as before.
// The check reads HMAC fields without the key; recomputing them needs the store's key (extract the bundle and
// run lineage v2 verify --root on its lineage/v2 with --key-file).
//
// What no checkpoint can show: a cut made before the first checkpoint was taken (the checkpoint then pins the
// cut store), and records appended after the last one and cut before the next. A checkpoint kept where the
// store's writers can change it proves nothing against them: anchor it in git notes that are pushed, or sign it
// with a key they do not hold.
//
// # Export
//
// ExportJSONL writes per parent ref {"_kind":"parent",…} and then its bodies as {"_kind":"child",…}, one a line,
// as json.dumps(…, sort_keys=True, separators=(",", ":")) with ensure_ascii=True (pyjson.Encoding{ASCII: true}). ExportSigstore writes a JSON list, json.dumps(indent=2,
// sort_keys=True), of one in-toto Statement v1 per ref: subject "bernstein-lineage-v2/<task>/<run>" with the
// child_sha's hex digest, predicateType https://slsa.dev/provenance/v0.3 with an SLSA 1.0 shaped predicate
// (buildType https://bernstein.dev/lineage/v2, builder https://bernstein.dev/runners/lineage-v2, the parent's
// prev_hmac, or 64 zeros, as a resolved dependency, each body's SHA-256 as a byproduct, startedOn from ts_ns as
// upstream's datetime rounds it). MarshalTimeline is show --output-json: [{"parent":{…},"bodies":[…]}], indent 2.
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
// # Lineage v1 log
//
// Bernstein's default lineage, read and checked by package logv1 (internal/lineage/logv1), never written here.
// Files, beneath the lineage folder (default <worktree root>/.sdd/lineage):
//
//	log.jsonl                                         one entry a line, each an agent's write of an artefact
//	signatures/<aa>/<sha256(artefact_path)>/<hex>.jws the entry's detached JWS; <hex> is the entry hash's
//	                                                  64 digits, <aa> the first two of the path's hash (hex
//	                                                  SHA-256 of the UTF-8 path); example packs name it
//	                                                  sha256_<hex>.jws, and both names are looked for, <hex> first
//
// Entry (upstream's LineageEntry): exactly these members, any order in memory, each required:
//
//	v               integer  1
//	artefact_path   string   non-empty; the artefact as the project names it (files: relative to the root, "/")
//	artefact_kind   string   one of file, sdd-runtime, mcp-result, config, tool-result, report, dataset,
//	                         action_log, ops_result, query-result, external, finding, coverage, blob
//	content_hash    string   "sha256:" + 64 lower-case hex: SHA-256 of the bytes written
//	parent_hashes   [string] entry hashes of the versions this one continues; [] for the first, two or more
//	                         for a merge entry
//	agent_id        string   non-empty, e.g. "agent:audit-helper"
//	agent_card_kid  string   non-empty: the kid of the agent's key that signed the entry
//	tool_call_id    string
//	span_id         string
//	ts_ns           integer  nanoseconds since the Unix epoch (64 bits)
//	operator_hmac   string   lower-case hex HMAC-SHA256 under the operator's secret (below)
//
// and optionally trust_class, activity_source, attachment_digests and model_ref (upstream drops them when unset;
// present, they are part of the canonical bytes as they are). Any other member, a missing one, a wrong type, or
// a parent hash that is not "sha256:" and 64 lower-case hex digits makes the line not an entry (stricter than
// upstream for hashes: a short content_hash could not name a file version anyway).
//
// Canonical form, entry hash, HMAC and signature:
//
//	canonical      = json.dumps(entry, ensure_ascii=False, separators=(",", ":"), sort_keys=True) as UTF-8
//	                 (package pyjson, the v2 canonical form above)
//	entry hash     = "sha256:" + hex SHA-256(canonical)
//	operator_hmac  = hex HMAC-SHA256(operator secret, canonical of the entry with operator_hmac "")
//	sidecar        = BASE64URL(header) + ".." + BASE64URL(Ed25519(BASE64URL(header) + "." + canonical)), with
//	                 header exactly {"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"<agent_card_kid>"} (package
//	                 sign: the bundle signature's JWS over the entry's canonical bytes)
//
// Agent cards: card files (package sign: flat cards and A2A cards with keys[]) read from DIR/*.json,
// DIR/<agent>/card.json and DIR/<agent>/<kid>/card.json. A card's agent is its agent_id (flat) or name (A2A);
// folder names do not count. Each key binds the pair (agent, kid).
//
// # Lineage v1 checks
//
// `git bernstein lineage verify` (logv1.Verify with cards, forks and the given options), in this order, one
// failure line per finding naming the line number, the artefact and the entry hash:
//
//   - the log ends in "\n" (else "no \"\\n\" after the last line"); it is split on "\n" only, never on "\r" or
//     other line breaks, so a terminator turned into "\r" leaves two records in one line, which fails ("not
//     one JSON object … a framing attack") and takes both records out of the log; empty lines are skipped;
//   - each line is JSON (pyjson.Parse), an object, an entry (above), and byte for byte its canonical form
//     ("non-canonical line bytes"); a line that is instead json.dumps(entry, sort_keys=True) with Python's
//     default ", " and ": " separators (ensure_ascii either way), as older packs wrote, is accepted with one
//     warning that counts such lines: its canonical form is what is hashed and signed;
//   - two cards binding one (agent, kid) to different keys ("conflicting agent cards"): the entries of that pair
//     fail too, whatever order the cards were read in;
//   - per entry: a card for its exact (agent_id, agent_card_kid) ("no agent card for … kid binding cannot be
//     established"); a sidecar at one of its two names ("missing signature sidecar": also what a changed entry
//     gives, since its hash, and so its sidecar's name, changed); the sidecar's header kid is the entry's kid
//     ("kid binding mismatch": a swapped sidecar or another key); the signature verifies under the card's key
//     ("invalid signature"); with --operator-key-file, operator_hmac ("operator HMAC mismatch"; the key file's
//     bytes less one trailing "\n" or "\r\n"); with --steward, a merge entry's agent is a steward;
//   - every parent hash names an entry of the log ("dangling parent");
//   - per artefact, one open tip (an entry no entry of the artefact names as a parent) ("N unresolved open
//     tips"), and every fork (entries of one artefact with the same single parent and different content_hash)
//     joined by a merge entry whose parents include all of them ("unresolved fork", on the parent's line).
//
// Exit 0 when nothing failed, 1 when something did, 2 for unusable input (no log.jsonl, an unreadable card
// folder or key file). Not checked, as upstream: ts_ns order, that a parent is older, or that content_hash is
// the artefact's current bytes; an entry removed from the end of the log, with its sidecar, is invisible unless
// a later entry named it.
//
// # Lineage v1 in bundles
//
// A bundle carries the lineage of the code it contains (package bundle, lineagev1.go), in section lineage:
//
//	lineage/v1/commit-files.json   {"v":1,"commits":[{"sha","files":[{"path","sha256","blob"}]}]}: each tied
//	                               non-merge commit, oldest first, and each regular file or symlink it added or
//	                               changed against its first parent, with the hex SHA-256 of its bytes and its
//	                               git object id (deletions and submodules have no content to attribute)
//	lineage/v1/log.jsonl           every entry whose artefact_path and content_hash are such a file version, and
//	                               its ancestors for that artefact, the original lines byte for byte in log order
//	lineage/v1/signatures/…        their sidecars, under the names they had
//
// With no .sdd/lineage/log.jsonl nothing is packed. `verify` and `view` then add a lineage check after the
// others: with --agent-cards DIR the packed entries are checked as above except forks and open tips (a bundle
// holds a slice, not the log), PASS when all pass (WARN when some lines are in the older spelling), FAIL when
// one does not, which makes the verdict FAILED; without --agent-cards it is a WARN and the verdict is the
// bundle's own. For each file of commit-files.json the report lists every entry with that path and content
// (agent, kid, tool call, time, signature status), or none. The cards come from the auditor, never from the
// bundle. What this proves and does not: README.md, "Lineage v1".
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
