// Package prsource is the bundle's pr/sources.json: where each member of the pr/ section came from. A pull
// request payload in a bundle is either GitHub's answer to this run, GitHub's earlier answer kept in the ETag
// cache and confirmed unchanged by a 304 Not Modified, or an offline copy read from .sdd/pr, which an agent or a
// person wrote and GitHub never vouched for. The signature covers the bytes either way; this member says which,
// so that a verified bundle never presents an offline copy as GitHub's answer. Package bundle writes it
// (Marshal), package verify reads it (Parse) and holds it against the pr/ members the archive holds, and git
// bernstein view shows it beside each pull request.
//
// # pr/sources.json, v 1
//
// Written only when the bundle holds pull request payloads, and then listed in the manifest (section "pr") like
// every member, so the manifest's signature covers it; upstream's verifier sees one more listed file. One JSON
// object in UTF-8, written with two-space indentation, no HTML escaping and a final newline (package jsonout),
// with exactly these members, in this order:
//
//	v        integer   always 1 (Version)
//	members  [member]  one for every other member of pr/ (pr/pr_<N>.json, pr/pr_<N>.reviews.json), sorted by
//	                   arcname (byte order); never one for pr/sources.json itself
//
// A member is an object with exactly these members, in this order:
//
//	arcname   string         the pr/ member it describes
//	source    string         "fetched": every request below was answered 200 by GitHub in this run;
//	                         "cache": at least one was answered 304 Not Modified and its body taken from the ETag
//	                         cache (package github, "ETag cache"); "offline": read from .sdd/pr, not from GitHub
//	path      string or null offline: ".sdd/pr/<file name>" (the folder the bundle's --sdd named, spelled .sdd);
//	                         null otherwise
//	requests  [request]      fetched and cache: every GET whose body is in the member, in order (the reviews of a
//	                         pull request are paged); offline: empty
//
// A request is an object with exactly these members, in this order:
//
//	url        string         the URL that answered (after any redirect), with no user information; the token
//	                          is never in a URL (it goes in the Authorization header)
//	source     string         "fetched" (a 200 in this run) or "cache" (a 304 for the cached ETag)
//	etag       string or null the ETag of the answer: GitHub's for a 200 that carried one, else null; for cache,
//	                          the cached ETag GitHub confirmed (never empty)
//	cached_at  string or null cache: when the cached body was received from GitHub, "YYYY-MM-DDTHH:MM:SSZ" (UTC,
//	                          as the manifest's created_at); null for fetched
//
// A member's source is "cache" exactly when one of its requests is, else "fetched" (or "offline", with no
// requests).
//
// # Reading
//
// Parse reads strictly, as package manifest reads manifest.json (strictjson.Decode): valid UTF-8, one
// object, no member name twice at any depth, every member above present with its type and no other; arcnames
// pass manifest.CheckName, start with "pr/", are distinct and are not pr/sources.json; sources, paths, URLs
// and times as above. A "v" other than 1 is ErrUnsupported (a newer format: the verifier calls it unusable,
// exit 2); anything else wrong is ErrMalformed (FAILED: a signed member no writer of v 1 makes).
//
// # What the verifier says
//
// Package verify's pr-sources check runs when the bundle has a pr/ member. It FAILs when pr/sources.json does
// not parse or does not name exactly the pr/ members the archive holds (one it names is missing, or one present
// is not named). Otherwise it PASSes when every member is fetched or cache, listing each with its source (the
// cache's ETag and cached_at), and WARNs (VERIFIED, exit 3 under --strict) when a member is offline ("pr/pr_7.json:
// offline copy from .sdd/pr/pr_7.json, not from GitHub") or when the bundle has pr/ members but no
// pr/sources.json (made before it existed, or by upstream's writer: "sources not recorded", since such a member
// may be an offline copy too).
//
// sources.schema.json beside this file is the document in JSON Schema (draft 2020-12); tests hold what bundle
// writes to it (internal/schematest).
package prsource
