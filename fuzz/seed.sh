#!/usr/bin/env bash
# Seed the fuzz corpora with the repository's own files (README.md, "Fuzzing"): every
# `.tables` file, the dice expressions written in the rulesets, the given-dice files of
# the tests, and every ruleset and test fixture as one ruleset input each. A file is
# named by the SHA-1 of its content, as libFuzzer names what it adds, so seeding twice
# adds nothing. Run from anywhere; then minimise (`fuzz/run.sh merge TARGET`).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=fuzz/corpus

# Write standard input into the corpus of target $1.
add() {
    local tmp
    tmp=$(mktemp)
    cat > "$tmp"
    mkdir -p "$corpus/$1"
    mv "$tmp" "$corpus/$1/$(sha1sum < "$tmp" | cut -d' ' -f1)"
}

# The table language: every tables file of the rulesets and the fixtures.
while IFS= read -r -d '' file; do
    add tables < "$file"
done < <(find rulesets tests/fixtures -name '*.tables' -print0)

# Dice expressions: those written in tables, equipment and scenarios, and the spellings
# the books use that the files happen not to (`D%`, `4D+2`, an en dash).
{
    grep -rhoE '[0-9]*[dD]([0-9]+|%)?([+-][0-9]+([dD][0-9]*)?)*' \
        --include='*.tables' --include='*.toml' rulesets tests/fixtures |
        grep -E '[0-9]' || true
    printf '%s\n' 'D%' '4D+2' 'D' '-1D8' '7' '1D6–1' '2d6 + 1' '100D100' '1000000d1000000'
} | sort -u | while IFS= read -r expression; do
    printf '%s' "$expression" | add dice
done

# Given dice: the replayed book example, and the shapes the tests write.
add given_dice < tests/fixtures/replays/goblin_fight.dice
printf '# initiative\n10 10 10 10\n15 6\n' | add given_dice
printf '6 x\n0 -3 7\n' | add given_dice
printf '55, 12      # Lilina attacks, the goblin parries\n101\n' | add given_dice

# Whole rulesets: each directory's files as `path` line + text, NUL between files
# (fuzz/src/lib.rs, `ruleset`). A shipped ruleset brings one scenario, to keep the
# corpus small; a fixture brings all of its own.
archive() {
    local dir=$1 scenarios=$2 first=1 file
    while IFS= read -r -d '' file; do
        [ $first = 1 ] || printf '\0'
        first=0
        printf '%s\n' "${file#"$dir"/}"
        cat "$file"
    done < <(
        cd "$dir" >/dev/null
        find . -maxdepth 2 -type f \( -name '*.toml' -o -name '*.tables' -o -name '*.rhai' \) \
            -not -path './scenarios/*' -printf '%P\0' | sort -z | sed -z "s|^|$dir/|"
        find scenarios -maxdepth 1 -name '*.toml' -printf "$dir/%p\0" 2>/dev/null |
            sort -z | head -z -n "$scenarios"
    )
}
for dir in rulesets/*/; do
    archive "${dir%/}" 1 | add ruleset
done
for dir in tests/fixtures/d*/ tests/fixtures/broken/*/; do
    archive "${dir%/}" 1000 | add ruleset
done
