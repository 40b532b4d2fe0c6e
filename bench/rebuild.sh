#!/usr/bin/env bash
# What a developer waits for after editing one file: `cargo build -p core-service` (dev profile,
# incremental, the shared target directory warm) after touching one file of the items store and
# one file of the diagram crate, in this checkout and in an earlier one, alternated so that both
# see the same machine. hyperfine runs each build RUNS times after `touch`.
#
#   bash bench/rebuild.sh BEFORE_CHECKOUT [ROUNDS]
#
# BEFORE_CHECKOUT is a worktree of the earlier commit (`git worktree add /tmp/before 0eaaf41`);
# the files touched there are given by BEFORE_ITEMS and BEFORE_DIAGRAM (defaults: the paths before
# the stores were split). Results: one hyperfine JSON per build in $OUT (default: a new directory).
#
# Each checkout builds into a target directory of its own (BEFORE_TARGET, AFTER_TARGET): cargo names
# a workspace crate's artifacts by its path relative to the workspace, so two checkouts of one
# workspace sharing a target directory overwrite each other's crates, and every build after the
# other checkout's would rebuild them all.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
need hyperfine

before=${1:?usage: bench/rebuild.sh BEFORE_CHECKOUT [ROUNDS]}
rounds=${2:-2}
runs=${RUNS:-3}
after=$PWD
before_items=${BEFORE_ITEMS:-core-service/src/storage/items.rs}
after_items=${AFTER_ITEMS:-core-service/src/storage/items/item_rows.rs}
before_diagram=${BEFORE_DIAGRAM:-diagram/src/flowchart/links.rs}
after_diagram=${AFTER_DIAGRAM:-diagram/src/flowchart/links.rs}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"

before_target=${BEFORE_TARGET:-$CARGO_TARGET_DIR-before}
after_target=${AFTER_TARGET:-$CARGO_TARGET_DIR}

# Each checkout's own artifacts first, so the timed builds are incremental ones.
(cd "$before" && CARGO_TARGET_DIR=$before_target cargo build -q -p core-service)
(cd "$after" && CARGO_TARGET_DIR=$after_target cargo build -q -p core-service)

measure() { # name dir target file
    (cd "$2" && CARGO_TARGET_DIR=$3 hyperfine --runs "$runs" --prepare "touch $4" \
        --export-json "$OUT/$1.json" 'cargo build -q -p core-service' | grep -E 'Time|Range')
}
for round in $(seq "$rounds"); do
    echo "round $round (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    measure "items-before-$round" "$before" "$before_target" "$before_items"
    measure "items-after-$round" "$after" "$after_target" "$after_items"
    measure "diagram-before-$round" "$before" "$before_target" "$before_diagram"
    measure "diagram-after-$round" "$after" "$after_target" "$after_diagram"
done
echo "results in $OUT"
