#!/usr/bin/env bash
# The fuzzers on the stable toolchain (README.md, "Fuzzing"). cargo-fuzz builds them
# with `-s none`: a sanitizer needs nightly's `-Zsanitizer`, and affray has no `unsafe`
# for one to check. Everything else it passes rustc (the sancov coverage passes,
# `--cfg fuzzing`, debug assertions and overflow checks) is stable.
#
#   fuzz/run.sh build               build every target
#   fuzz/run.sh TARGET [SECONDS]    fuzz TARGET (tables, dice, given_dice, ruleset) for
#                                   SECONDS (default 600), one job
#   fuzz/run.sh merge TARGET [OPT]  minimise fuzz/corpus/TARGET with what fuzzing found
#                                   (OPT: libFuzzer options, such as -max_len=4096)
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
        # A set of inputs as small as libFuzzer finds that together reach every feature
        # of the old corpus and the work folder; more options after the target (the
        # corpus in git was merged with -max_len=4096 for tables).
        fuzz run "$target" "$merged" "corpus/$target" "work/$target" -- \
            -set_cover_merge=1 "${@:3}"
        rm -rf "corpus/$target"
        mv "$merged" "corpus/$target"
        chmod 755 "corpus/$target"
        ;;
    replay)
        input=${3:?which input}
        # Named from where the script was called, before it moved into fuzz/.
        [[ $input = /* ]] || input="$OLDPWD/$input"
        fuzz run "${2:?which target}" "$input"
        ;;
    tables | dice | given_dice | ruleset)
        mkdir -p "work/$1"
        fuzz run "$1" "work/$1" "corpus/$1" -- \
            -max_total_time="${2:-600}" -print_final_stats=1
        ;;
    *)
        sed -n '2,18p' "$0" >&2
        exit 2
        ;;
esac
