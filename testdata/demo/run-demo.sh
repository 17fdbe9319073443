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
