#!/usr/bin/env python3
"""Writes one audit scenario per testdata/script/audit_<name>.txtar and the fake GitHub's answers for it under
internal/github/testdata/api/repos/acme/<repo>/. Each scenario is a repository made with the git CLI under the
transcripts' pinned identity and dates (so the commit ids are the ones the fixtures name): init, a topic branch
with the pull request's commits, and the merge onto main. Run from the repository root: python3 <this file>."""
import json, os, subprocess, tempfile, shutil

ROOT = os.getcwd()
ENV = {"HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Ada Agent", "GIT_AUTHOR_EMAIL": "ada@agents.example",
       "GIT_COMMITTER_NAME": "Rita Reviewer", "GIT_COMMITTER_EMAIL": "rita@example.com", "GIT_AUTHOR_DATE": "@1767225600 +0000",
       "GIT_COMMITTER_DATE": "@1767225600 +0000", "GIT_EDITOR": "true", "GIT_MERGE_AUTOEDIT": "no", "TZ": "UTC", "LC_ALL": "C",
       "PATH": os.environ["PATH"]}
PEOPLE = {"dev": ("Dev One", "dev@example.com"), "carol": ("Carol Coder", "carol@example.com"), "ada": ("Ada Agent", "ada@agents.example")}

def user(login, id, typ="User"):
    return {"login": login, "id": id, "node_id": "U_%d" % id, "url": "https://api.github.com/users/" + login,
            "html_url": "https://github.com/" + login, "type": typ, "site_admin": False}
USERS = {"dev": user("dev-one", 7001), "rita": user("rita-reviewer", 7002), "carol": user("carol-coder", 7003),
         "cy": user("cy-lead", 7004), "bot": user("review-bot[bot]", 7005, "Bot"), "queue": user("github-merge-queue[bot]", 9919, "Bot"),
         "ada": None}

def steps(sc):
    """The transcript's repository commands, as (testscript line, shell argv or None, env changes)."""
    t, n = sc["ticket"], sc["pr"]
    out = [("mkdir repo", None), ("cd repo", None),
           ("exec git init -q -b main", ["git", "init", "-q", "-b", "main"]),
           ("exec git config bernstein.tracker github", ["git", "config", "bernstein.tracker", "github"]),
           ("exec git remote add origin https://github.com/acme/%s.git" % sc["repo"], ["git", "remote", "add", "origin", "https://github.com/acme/%s.git" % sc["repo"]]),
           ("exec git commit -q --allow-empty -m init", ["git", "commit", "-q", "--allow-empty", "-m", "init"])]
    if sc.get("codeowners"):
        # The base commit holds the CODEOWNERS file bundle --controls reads from git.
        out += [("mkdir .github", ("mkdir", ".github")), ("cp ../CODEOWNERS .github/CODEOWNERS", ("write", ".github/CODEOWNERS", sc["codeowners"])),
                ("exec git add .github/CODEOWNERS", ["git", "add", ".github/CODEOWNERS"]),
                ("exec git commit -q -m 'Add CODEOWNERS'", ["git", "commit", "-q", "-m", "Add CODEOWNERS"])]
    out.append(("exec git checkout -q -b topic", ["git", "checkout", "-q", "-b", "topic"]))
    for i, c in enumerate(sc["commits"]):
        name, email = PEOPLE[c["who"]]
        # A person commits their own work; an agent's commit is committed by Rita, who ran it, unless "by" names
        # another committer.
        cname, cemail = (name, email) if c["who"] != "ada" else PEOPLE.get(c.get("by"), ("Rita Reviewer", "rita@example.com"))
        out.append(("env 'GIT_AUTHOR_NAME=%s' GIT_AUTHOR_EMAIL=%s 'GIT_COMMITTER_NAME=%s' GIT_COMMITTER_EMAIL=%s" % (name, email, cname, cemail),
                    ("env", {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": cname, "GIT_COMMITTER_EMAIL": cemail})))
        out.append(("cp ../f%d.txt f%d.txt" % (i, i), ("write", "f%d.txt" % i, c["file"])))
        out.append(("exec git add f%d.txt" % i, ["git", "add", "f%d.txt" % i]))
        out.append(("exec git commit -q -m '%s' -m 'Refs: #%d'" % (c["subject"], t), ["git", "commit", "-q", "-m", c["subject"], "-m", "Refs: #%d" % t]))
    if sc.get("rebased"):
        # The commits were reviewed, then main moved on and the topic was rebased onto it (a force push): the
        # old commits stay in this clone, as they do in the clone of whoever pushed them.
        out.append(("exec git checkout -q main", ["git", "checkout", "-q", "main"]))
        out.append(("cp ../news.txt news.txt", ("write", "news.txt", sc["rebased"])))
        out.append(("exec git add news.txt", ["git", "add", "news.txt"]))
        out.append(("exec git commit -q -m 'Update news'", ["git", "commit", "-q", "-m", "Update news"]))
        out.append(("exec git checkout -q topic", ["git", "checkout", "-q", "topic"]))
        out.append(("exec git rebase -q main", ["git", "rebase", "-q", "main"]))
    out.append(("env 'GIT_AUTHOR_NAME=Ada Agent' GIT_AUTHOR_EMAIL=ada@agents.example 'GIT_COMMITTER_NAME=Rita Reviewer' GIT_COMMITTER_EMAIL=rita@example.com",
                ("env", {"GIT_AUTHOR_NAME": "Ada Agent", "GIT_AUTHOR_EMAIL": "ada@agents.example", "GIT_COMMITTER_NAME": "Rita Reviewer", "GIT_COMMITTER_EMAIL": "rita@example.com"})))
    out.append(("exec git checkout -q main", ["git", "checkout", "-q", "main"]))
    kind = sc["merge"]
    if kind in ("merge", "queue"):
        out.append(("exec git merge -q --no-ff -m 'Merge pull request #%d from acme/topic' -m 'Refs: #%d' topic" % (n, t),
                    ["git", "merge", "-q", "--no-ff", "-m", "Merge pull request #%d from acme/topic" % n, "-m", "Refs: #%d" % t, "topic"]))
    elif kind == "squash":
        out.append(("exec git merge -q --squash topic", ["git", "merge", "-q", "--squash", "topic"]))
        out.append(("exec git commit -q -m '%s (#%d)' -m 'Refs: #%d'" % (sc["commits"][0]["subject"], n, t),
                    ["git", "commit", "-q", "-m", "%s (#%d)" % (sc["commits"][0]["subject"], n), "-m", "Refs: #%d" % t]))
    elif kind == "rebase":
        # GitHub writes the commits again on main: same author and date, its own committer and time.
        out.append(("env GIT_COMMITTER_NAME=GitHub GIT_COMMITTER_EMAIL=noreply@github.com 'GIT_COMMITTER_DATE=@1767229200 +0000'",
                    ("env", {"GIT_COMMITTER_NAME": "GitHub", "GIT_COMMITTER_EMAIL": "noreply@github.com", "GIT_COMMITTER_DATE": "@1767229200 +0000"})))
        out.append(("exec git cherry-pick main..topic", ["git", "cherry-pick", "main..topic"]))
    return out

def build(sc):
    d = tempfile.mkdtemp()
    env = dict(ENV)
    for line, act in steps(sc):
        if act is None:
            continue
        if isinstance(act, tuple) and act[0] == "env":
            env.update(act[1])
        elif isinstance(act, tuple) and act[0] == "write":
            open(os.path.join(d, act[1]), "w").write(act[2])
        elif isinstance(act, tuple) and act[0] == "mkdir":
            os.makedirs(os.path.join(d, act[1]), exist_ok=True)
        else:
            subprocess.run(act, cwd=d, env=env, check=True, capture_output=True)
    rev = lambda r: subprocess.run(["git", "rev-parse", r], cwd=d, env=env, check=True, capture_output=True, text=True).stdout.strip()
    lines = lambda *a: subprocess.run(["git"] + list(a), cwd=d, env=env, check=True, capture_output=True, text=True).stdout.split()
    topic = lines("rev-list", "--reverse", "topic")
    shas = {"init": topic[0], "main": rev("main"), "topic": topic[1:], "base": topic[0]}
    if sc.get("codeowners"):
        shas["base"], shas["topic"] = topic[1], topic[2:]
    if sc.get("rebased"):
        # topic@{1} is the topic before the rebase: the commits that were reviewed.
        shas["base"] = rev("main^1")
        shas["topic"] = lines("rev-list", "--reverse", shas["base"] + "..topic")
        shas["old"] = lines("rev-list", "--reverse", shas["init"] + "..topic@{1}")
    shutil.rmtree(d)
    return shas

def fixtures(sc, shas):
    A = os.path.join(ROOT, "internal/github/testdata/api/repos/acme", sc["repo"])
    def w(path, v):
        p = os.path.join(A, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "w").write(json.dumps(v, separators=(",", ":")))
    n, t = sc["pr"], sc["ticket"]
    head, merge, init = shas["topic"][-1], shas["main"], shas["base"]
    at = lambda m: "2026-01-01T%02d:%02d:00Z" % (m // 60, m % 60)
    merged_at = at(sc.get("merged_at", 60))
    commits, tl = [], []
    for i, c in enumerate(sc["commits"]):
        name, email = PEOPLE[c["who"]]
        u = USERS.get(c["who"]) if c["who"] in USERS else None
        parent = init if i == 0 else shas["topic"][i - 1]
        cname, cemail, cu = (name, email, u) if c["who"] != "ada" else ("Rita Reviewer", "rita@example.com", USERS["rita"])
        if c["who"] == "ada" and c.get("by"):
            cname, cemail, cu = PEOPLE[c["by"]] + (USERS[c["by"]],)
        gc = {"sha": shas["topic"][i], "node_id": "C_%d" % i, "commit": {"author": {"name": name, "email": email, "date": "2026-01-01T00:00:00Z"},
              "committer": {"name": cname, "email": cemail, "date": "2026-01-01T00:00:00Z"},
              "message": "%s\n\nRefs: #%d" % (c["subject"], t)}, "author": u, "committer": cu, "parents": [{"sha": parent}]}
        commits.append(gc)
    reviews = []
    events = []  # (minute, event) for the timeline, commits placed at their push minute
    reviewed = shas.get("old", shas["topic"])
    for i, gc in enumerate(commits):
        pushed = dict(gc)
        if "old" in shas:
            pushed = dict(gc, sha=shas["old"][i], parents=[{"sha": shas["init"] if i == 0 else shas["old"][i - 1]}])
        events.append((sc["commits"][i].get("pushed", 0), {"sha": pushed["sha"], "author": gc["commit"]["author"], "committer": gc["commit"]["committer"],
                       "message": gc["commit"]["message"], "parents": pushed["parents"], "event": "committed"}))
    for j, r in enumerate(sc["reviews"]):
        on = reviewed[r.get("on", len(sc["commits"]) - 1)]
        rv = {"id": 100 + j, "node_id": "PRR_%d" % j, "user": USERS[r["by"]], "body": "", "state": r["state"], "commit_id": on,
              "submitted_at": at(r["at"]), "author_association": "MEMBER"}
        reviews.append(rv)
        e = dict(rv); e["state"] = r["state"].lower(); e["event"] = "reviewed"
        events.append((r["at"], e))
    for k, e in enumerate(sc.get("events", [])):
        ev = {"id": 500 + k, "node_id": "E_%d" % k, "actor": USERS[e["by"]], "event": e["event"], "commit_id": shas["topic"][e["commit"]] if "commit" in e else None,
              "created_at": at(e["at"])}
        if e["event"] == "review_dismissed":
            ev["dismissed_review"] = {"state": "approved", "review_id": 100 + e["review"], "dismissal_message": "stale"}
        events.append((e["at"], ev))
    merger = USERS[sc.get("merged_by", "dev")]
    events.append((sc.get("merged_at", 60), {"id": 900, "node_id": "ME_900", "actor": merger, "event": "merged", "commit_id": merge, "created_at": merged_at}))
    events.sort(key=lambda x: x[0])
    pull = {"url": "https://api.github.com/repos/acme/%s/pulls/%d" % (sc["repo"], n), "id": 80000 + n, "number": n, "state": "closed",
      "title": sc["title"], "user": USERS[sc.get("author", "dev")], "body": "", "created_at": at(1), "updated_at": merged_at, "closed_at": merged_at,
      "merged_at": merged_at, "merge_commit_sha": merge, "head": {"label": "acme:topic", "ref": "topic", "sha": head},
      "base": {"label": "acme:main", "ref": "main", "sha": init}, "author_association": "MEMBER", "merged": True, "merged_by": merger, "draft": False}
    w("pulls/%d.json" % n, pull)
    w("pulls/%d/reviews.json" % n, reviews)
    w("pulls/%d/commits.json" % n, commits)
    w("issues/%d/timeline.json" % n, [e for _, e in events])
    checks = {"head": [], "merge": []}
    for i, c in enumerate(sc.get("checks", [("build", "success", 5), ("test", "success", 8)])):
        name, concl, done = c[:3]
        where = c[3] if len(c) > 3 else "head"
        sha = head if where == "head" else merge
        checks[where].append({"id": 6000 + i, "head_sha": sha, "status": "completed", "conclusion": concl, "started_at": at(2), "completed_at": at(done),
                              "name": name, "app": {"id": 15368, "slug": "github-actions"}, "pull_requests": []})
    for where, sha in (("head", head), ("merge", merge)):
        if where == "merge" and sha == head:
            continue
        filler = sc.get("filler_checks", 0) if where == "head" else 0
        if filler:
            # A commit with more runs than a page holds: page 1 is other runs, the required ones are on page 2.
            runs = [{"id": 7000 + i, "head_sha": sha, "status": "completed", "conclusion": "success", "started_at": at(2), "completed_at": at(3),
                     "name": "lint-%d" % i, "app": {"id": 15368, "slug": "github-actions"}, "pull_requests": []} for i in range(filler)]
            total = filler + len(checks[where])
            w("commits/%s/check-runs.json" % sha, {"total_count": total, "check_runs": runs})
            w("commits/%s/check-runs.page2.json" % sha, {"total_count": total, "check_runs": checks[where]})
        else:
            w("commits/%s/check-runs.json" % sha, {"total_count": len(checks[where]), "check_runs": checks[where]})
        w("commits/%s/status.json" % sha, {"state": "pending", "statuses": [], "sha": sha, "total_count": 0})
    w("commits/%s/pulls.json" % merge, [pull])  # GitHub associates the merged commit with its pull request
    w("pulls.json", [])
    rules = [{"type": "pull_request", "parameters": {"required_approving_review_count": 1, "dismiss_stale_reviews_on_push": False,
              "require_code_owner_review": False, "require_last_push_approval": False, "required_review_thread_resolution": False},
              "ruleset_source_type": "Repository", "ruleset_source": "acme/" + sc["repo"], "ruleset_id": 7}]
    if sc.get("rule_checks", True):
        rules.append({"type": "required_status_checks", "parameters": {"strict_required_status_checks_policy": False,
                      "required_status_checks": [{"context": "build", "integration_id": 15368}, {"context": "test", "integration_id": 15368}]},
                      "ruleset_source_type": "Repository", "ruleset_source": "acme/" + sc["repo"], "ruleset_id": 7})
    w("rules/branches/main.json", rules)
    w("issues/%d.json" % t, {"number": t, "title": sc["title"], "user": USERS["dev"], "state": "open", "created_at": sc.get("ticket_created", "2025-12-31T09:00:00Z"), "closed_at": None})
    w("issues/%d/events.json" % t, [])
    # The members of the CODEOWNERS teams the token may read; a team not listed answers 404.
    O = os.path.join(ROOT, "internal/github/testdata/api/orgs")
    for team, who in sorted(sc.get("teams", {}).items()):
        org, slug = team.split("/")
        p = os.path.join(O, org, "teams", slug, "members.json")
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "w").write(json.dumps([USERS[u] for u in who], separators=(",", ":")))
    return head, merge

def script(sc, shas):
    lines = ["# " + l for l in sc["doc"].strip().split("\n")]
    lines += ["# (Generated with internal/github/testdata/gen_audit.py, which also writes the fake GitHub's answers.)", ""]
    if sc["name"] not in SHORT_SCENARIOS:
        # go test -short stays fast: internal/controls tests every scenario's rules; make test runs them all.
        lines += ["[short] skip 'one audit scenario of many: make test runs it'", ""]
    lines += [l for l, _ in steps(sc)]
    # .sdd records (untracked, as Bernstein leaves them), read by bundle.
    for path in sorted(sc.get("sdd", {})):
        lines += ["mkdir .sdd/" + os.path.dirname(path), "cp ../sdd-%s .sdd/%s" % (path.replace("/", "-"), path)]
    lines += ["exec git bernstein keygen --kid alice-2026 --key $WORK/alice.pem --card $WORK/alice.card.json",
              "exec git bernstein bundle '#%d' --controls --sign-key $WORK/alice.pem --sign-kid alice-2026 --out $WORK/%d.tar.gz" % (sc["ticket"], sc["ticket"]),
              "cd $WORK", ""]
    code = sc["exit"]
    cmd = "git bernstein audit %d.tar.gz --card alice.card.json" % sc["ticket"]
    lines.append(("exec " if code == 0 else "exitcode %d " % code) + cmd)
    lines.append("stdout '^VERIFIED: '")
    for s in sc["expect"]:
        lines.append("stdout '%s'" % s.replace("'", "''"))
    lines += sc.get("more", [])
    lines.append("")
    files = []
    for i, c in enumerate(sc["commits"]):
        files += ["-- f%d.txt --" % i, c["file"].rstrip("\n")]
    if sc.get("rebased"):
        files += ["-- news.txt --", sc["rebased"].rstrip("\n")]
    if sc.get("codeowners"):
        files += ["-- CODEOWNERS --", sc["codeowners"].rstrip("\n")]
    for path in sorted(sc.get("sdd", {})):
        files += ["-- sdd-%s --" % path.replace("/", "-"), sc["sdd"][path].rstrip("\n")]
    return "\n".join(lines) + "\n" + "\n".join(files) + "\n"

def esc(s):
    out = ""
    for ch in s:
        out += "\\" + ch if ch in ".()[]|*+?^$#" and ch != "#" else ch
    return out

# The scenarios go test -short runs end to end (the others skip under -short).
SHORT_SCENARIOS = {"clean", "exceptions"}

SCENARIOS = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "audit_scenarios.json")))
for sc in SCENARIOS:
    shas = build(sc)
    head, merge = fixtures(sc, shas)
    txt = script(sc, shas).replace("{HEAD}", head[:12]).replace("{MERGE}", merge[:12]).replace("{HEADFULL}", head).replace("{MERGEFULL}", merge)
    for i, s in enumerate(shas["topic"]):
        txt = txt.replace("{C%d}" % i, s[:12])
    for i, s in enumerate(shas.get("old", [])):
        txt = txt.replace("{OLD%d}" % i, s[:12])
    open(os.path.join(ROOT, "testdata/script/audit_%s.txtar" % sc["name"]), "w").write(txt)
    print(sc["name"], head[:12], merge[:12])
