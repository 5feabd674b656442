#!/usr/bin/env bash
# The fuzzers on the stable toolchain (README.md, "Fuzzing"). cargo-fuzz builds them
# with `-s none`: a sanitizer needs nightly's `-Zsanitizer`, and affray has no `unsafe`
# for one to check. Everything else it passes rustc (the sancov coverage passes,
# `--cfg fuzzing`, debug assertions and overflow checks) is stable.
#
#   fuzz/run.sh build               build every target
#   fuzz/run.sh TARGET [SECONDS]    fuzz TARGET (tables, dice, given_dice, ruleset) for
#                                   SECONDS (default 600), one job
#   fuzz/run.sh merge TARGET        minimise fuzz/corpus/TARGET with what fuzzing found
#   fuzz/run.sh replay TARGET FILE  run TARGET on one input (a crash, to debug it)
#
# The corpus in git (fuzz/corpus/TARGET) is only read; what a run finds goes to
# fuzz/work/TARGET, and a crash to fuzz/artifacts/TARGET/, both left out of git. The
# build goes to $FUZZ_TARGET_DIR (default fuzz/target), apart from the main crate's, whose
# flags differ.
set -euo pipefail
cd "$(dirname "$0")"
target_dir=${FUZZ_TARGET_DIR:-target}
fuzz() {
    cargo fuzz "$1" -s none --target-dir "$target_dir" "${@:2}"
}

case ${1:-} in
    build)
        fuzz build
        ;;
    merge)
        target=${2:?which target}
        merged=$(mktemp -d)
        mkdir -p "work/$target"
        # -merge=1 keeps the smallest inputs that together reach every feature reached
        # by the old corpus and the work folder.
        fuzz run "$target" "$merged" "corpus/$target" "work/$target" -- -merge=1
        rm -rf "corpus/$target"
        mv "$merged" "corpus/$target"
        chmod 755 "corpus/$target"
        ;;
    replay)
        fuzz run "${2:?which target}" "${3:?which input}"
        ;;
    tables | dice | given_dice | ruleset)
        mkdir -p "work/$1"
        fuzz run "$1" "work/$1" "corpus/$1" -- \
            -max_total_time="${2:-600}" -print_final_stats=1
        ;;
    *)
        sed -n '2,17p' "$0" >&2
        exit 2
        ;;
esac
