// Package logv1 reads and checks Bernstein's lineage v1 log (.sdd/lineage/log.jsonl, one signed entry per agent
// write of an artefact) and joins it to the files a ticket's commits wrote. It works on bytes (the log, its
// sidecars), so the same checks run on a project's .sdd and inside a bundle; it never prints.
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
package logv1
