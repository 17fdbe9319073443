// Package checkpoint is the lineage v2 checkpoint document: the head of a store at one moment, and the checks
// that a store, or a bundle's slice of one, still extends it; and a bundle's ticket refs (refs.go). It reads no
// files, so the bundle verifier (also compiled to WebAssembly for the browser page) can use it; package lineage
// takes checkpoints of a store on disk. checkpoint.schema.json beside this file is the document in JSON Schema
// (draft 2020-12).
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
package checkpoint
