#!/bin/sh
# Builds the demo repository that `make demo` runs git-bernstein on: work for ticket ENG-42 recorded every way
# teams record it (trailers, branch names, merges, a squash commit, a live branch), near misses that must not
# match (ENG-420), and the .sdd/ tree the Bernstein orchestrator leaves behind. Dates are pinned, so the commit
# hashes are the same on every machine.
set -eu
dir=${1:?usage: make-demo-repo.sh DIR}
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Ada Agent" GIT_AUTHOR_EMAIL="ada@agents.example"
export GIT_COMMITTER_NAME="Rita Reviewer" GIT_COMMITTER_EMAIL="rita@example.com"
t=1767225600
tick() { t=$((t + 3600)); export GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000"; }
commit() { tick; git add -A; git commit -q -m "$1"; }

git init -q -b main .
# The orchestrator's records file ENG-42 under the github tracker: say so, as a team would, so no command
# warns that ENG-42 looks like a Jira key filed under github by default.
git config bernstein.tracker github
printf '.sdd/\n*.tar.gz\n*.jws\n' > .gitignore
printf 'demo service\n' > README.md
commit "Initial commit"

git checkout -q -b feature/ENG-42-login
mkdir -p src
printf 'def login(): pass\n' > src/login.py
commit "Add login handler

Refs: ENG-7, ENG-42
Signed-off-by: Ada Agent <ada@agents.example>"
printf 'def login(): check()\n' > src/login.py
commit "Check credentials before login"
git checkout -q main
tick
git merge -q --no-ff -m "Merge branch 'feature/ENG-42-login'" feature/ENG-42-login
git branch -q -D feature/ENG-42-login
release=$(git rev-parse HEAD)

printf 'limit = 10\n' > src/ratelimit.conf
commit "Add rate limit (#17)

Fixes: eng-42"
ratelimit=$(git rev-parse HEAD)

printf 'Notes for ENG-420 only\n' > NOTES.md
commit "Document ENG-420 follow-up"

printf 'Ticket: ENG-42 is mentioned mid-message\n' > /dev/null
printf 'v2\n' > README.md
commit "Tidy README

Ticket: ENG-42

This paragraph follows, so the line above is not a trailer."

git checkout -q -b acme-ENG-42-audit
printf 'audit = on\n' > src/audit.conf
commit "Turn on audit logging"
git checkout -q main
tick
git merge -q --no-ff -m "Merge pull request #18 from acme/ENG-42-audit

Audit logging" acme-ENG-42-audit
git branch -q -D acme-ENG-42-audit

# A release line: 1.0 from the login merge, the rate limit backported to it with `cherry-pick -x` (commits
# groups the two, and the report's grid shows the fix on main and on release/1.0 with the first tag of each).
git tag -a -m "Release 1.1" v1.1
git checkout -q -b release/1.0 "$release"
git tag -a -m "Release 1.0" v1.0
tick
git cherry-pick -x "$ratelimit" >/dev/null
git tag -a -m "Release 1.0.1" v1.0.1
git checkout -q main

git checkout -q -b bugfix/eng-42-crash
printf 'def login():\n    if ok: check()\n' > src/login.py
commit "Fix crash on empty password"
git checkout -q main

# The orchestrator's artefacts: what the agents saw and did.
mkdir -p .sdd/transcripts .sdd/traces .sdd/lineage .sdd/audit
cat > .sdd/transcripts/coder-s1.jsonl <<'J'
{"role":"user","content":"Implement login for ENG-42","ticket":{"tracker":"github","id":"ENG-42"},"ts":"2026-01-01T01:10:00Z"}
{"role":"assistant","content":"Added src/login.py","ts":"2026-01-01T01:40:00Z"}
{"role":"user","content":"Also rate-limit ENG-42's login","ts":"2026-01-01T05:05:00Z"}
{"role":"assistant","content":"Added src/ratelimit.conf","ts":"2026-01-01T05:30:00Z"}
J
printf '{"role":"user","content":"Fix ENG-420"}\n' > .sdd/transcripts/coder-s2.jsonl
printf '{"span":"plan","task":"ENG-42","ms":120,"session":"coder-s1","ts":"2026-01-01T01:12:00Z"}\n{"span":"edit","task":"ENG-42","ms":640,"session":"coder-s1","ts":"2026-01-01T01:30:00Z"}\n{"span":"review","task":"ENG-42","ms":300,"session":"reviewer-s3","ts":"2026-01-01T08:20:00Z"}\n' > .sdd/traces/ENG-42-trace.jsonl
printf '{"span":"plan","task":"ENG-420","ms":90}\n' > .sdd/traces/ENG-420-trace.jsonl
cat > .sdd/lineage/tracker_audit.jsonl <<'J'
{"event":"ticket.opened","tracker_name":"github","ticket_id":"ENG-42","ts":"2026-01-01T01:00:00Z"}
{"event":"ticket.opened","tracker_name":"github","ticket_id":"ENG-420","ts":"2026-01-01T02:00:00Z"}
{"event":"ticket.closed","tracker_name":"github","ticket_id":"ENG-42","ts":"2026-01-01T09:00:00Z"}
J
printf '{"seq":1,"actor":"coder","action":"write","meta":{"tracker":"github","ticket":"ENG-42"},"ts":"2026-01-01T01:41:00Z"}\n' > .sdd/audit/2026-01-01.jsonl
echo "demo repository ready: $dir"
