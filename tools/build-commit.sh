#!/usr/bin/env bash
# Builds the pbrain-pentad of a commit of this repository into a folder of its own, once:
#
#   tools/build-commit.sh COMMIT DIR
#
# The commit's tree is exported into DIR and built there (DIR/target/release/pbrain-pentad);
# nothing is done when that binary already exists. Used by accept.sh and sprt.sh.
set -euo pipefail
commit=$1
dir=$2
if [ ! -x "$dir/target/release/pbrain-pentad" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    git archive "$commit" | tar -x -C "$dir"
    (cd "$dir" && CARGO_TARGET_DIR=target cargo build --release -q --bin pbrain-pentad)
fi
