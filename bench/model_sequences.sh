#!/usr/bin/env bash
# The model-based sequences (tests/tests/e2e/model_sequences) for far more cases than the test
# command runs, from fresh random seeds, on both backends: what it prints (cases, steps, minutes,
# failures per backend) goes into docs/PERFORMANCE.md ("Model-based sequences").
#
#   bash bench/model_sequences.sh [ROUNDS] [CASES_PER_ROUND] [STEPS]
#
# Each round draws a new seed (printed, so a failure can be run again with CANVAS_MODEL_SEED) and
# runs CASES_PER_ROUND sequences of up to STEPS steps per backend. A failure is shrunk by proptest
# and saved in tests/tests/e2e/model_sequences.proptest-regressions: commit that file, it is
# replayed first by every later run, the test command's included.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

rounds="${1:-8}"
cases="${2:-40}"
steps="${3:-40}"
cargo nextest run -p canvas-tests --test e2e --no-run >/dev/null
failures=0
start=$(date +%s)
for round in $(seq 1 "$rounds"); do
    seed=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
    for backend in sqlite postgres; do
        round_start=$(date +%s)
        if CANVAS_MODEL_SEED="$seed" CANVAS_MODEL_CASES="$cases" CANVAS_MODEL_STEPS="$steps" \
            cargo nextest run -p canvas-tests --test e2e --no-fail-fast --status-level fail \
            -E "test(=model_sequences::${backend}::sequences_keep_every_invariant)" >"$CARGO_TARGET_DIR/model-round.log" 2>&1; then
            outcome=pass
        else
            outcome=FAIL
            failures=$((failures + 1))
            cp "$CARGO_TARGET_DIR/model-round.log" "model-failure-$round-$backend.log"
        fi
        echo "round $round $backend seed=$seed cases=$cases steps<=$steps $(( $(date +%s) - round_start )) s $outcome"
    done
done
total=$(( (rounds * cases * 2) ))
echo "model sequences: $total cases (up to $steps steps each, both backends) in $(( ($(date +%s) - start) / 60 )) min, $failures failed rounds"
