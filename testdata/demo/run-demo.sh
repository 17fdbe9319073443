#!/bin/sh
# Runs git-bernstein on the demo repository the way a user would, through `git bernstein`.
set -eu
dir=${1:?usage: run-demo.sh DEMO_DIR BIN_DIR}
bin=${2:?usage: run-demo.sh DEMO_DIR BIN_DIR}
PATH="$bin:$PATH"
export PATH GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
cd "$dir"
echo
echo "\$ git bernstein commits ENG-42"
git bernstein commits ENG-42

# Sign and verify: a new key and its agent card, a signed bundle, what is in it, and the verifier's report, which
# ends with the verdict. verify exits 0 only for VERIFIED, so set -e stops the demo on anything else.
echo
echo "\$ git bernstein keygen --kid demo-2026"
git bernstein keygen --kid demo-2026
echo
# The demo repository has no GitHub remote: --no-pr skips the pull request lookup (see README, pull requests).
echo "\$ git bernstein bundle ENG-42 --no-pr --sign-key demo-2026.pem --sign-kid demo-2026"
git bernstein bundle ENG-42 --no-pr --sign-key demo-2026.pem --sign-kid demo-2026
echo
echo "\$ tar tzvf ENG-42.tar.gz"
tar tzvf ENG-42.tar.gz
echo
echo "\$ git bernstein verify ENG-42.tar.gz --card demo-2026.card.json"
git bernstein verify ENG-42.tar.gz --card demo-2026.card.json

# How an auditor unpacks it: verified and extracted from one read, into ENG-42/ only when VERIFIED.
echo
echo "\$ git bernstein extract ENG-42.tar.gz --card demo-2026.card.json --into ENG-42-evidence"
git bernstein extract ENG-42.tar.gz --card demo-2026.card.json --into ENG-42-evidence
echo
echo "\$ find ENG-42-evidence -type f | sort"
find ENG-42-evidence -type f | sort

# The same bundle as a page for people (open it in any browser, offline), and the verifier as a page of its own.
echo
echo "\$ git bernstein view ENG-42.tar.gz --card demo-2026.card.json"
git bernstein view ENG-42.tar.gz --card demo-2026.card.json
echo
echo "\$ git bernstein verify-page --out verify.html"
git bernstein verify-page --out verify.html

# A merge with the post-merge hook installed: the hook bundles the ticket the merged branch names and notes the
# bundle's digests on the merge commit. Pinned identity and date, so the merge commit is the same every time.
export GIT_AUTHOR_NAME="Rita Reviewer" GIT_AUTHOR_EMAIL="rita@example.com"
export GIT_COMMITTER_NAME="Rita Reviewer" GIT_COMMITTER_EMAIL="rita@example.com"
export GIT_AUTHOR_DATE="@1767290400 +0000" GIT_COMMITTER_DATE="@1767290400 +0000"
echo
echo "\$ git config bernstein.signingKey demo-2026.pem; git config bernstein.signingKid demo-2026"
git config bernstein.signingKey "$PWD/demo-2026.pem"
git config bernstein.signingKid demo-2026
echo
echo "\$ git bernstein hooks install"
git bernstein hooks install
echo
echo "\$ git merge --no-ff bugfix/eng-42-crash"
git merge --no-ff -m "Merge branch 'bugfix/eng-42-crash'" bugfix/eng-42-crash
echo
echo "\$ git bernstein show"
git bernstein show
echo
echo "\$ git notes --ref=bernstein show HEAD"
git notes --ref=bernstein show HEAD
echo
echo "\$ git bernstein verify .git/bernstein/bundles/github/ENG-42/\$(git rev-parse --short=12 HEAD).tar.gz --card demo-2026.card.json --rev HEAD"
git bernstein verify ".git/bernstein/bundles/github/ENG-42/$(git rev-parse --short=12 HEAD).tar.gz" --card demo-2026.card.json --rev HEAD
