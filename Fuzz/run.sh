#!/usr/bin/env bash
# Builds and runs one libFuzzer harness (or all of them) on a seed corpus from Fixtures/.
#
#   Fuzz/run.sh TARGET [SECONDS]     TARGET: binary | xml | model | opml | predicate | all
#
# SECONDS (default 600) is each harness's run time; 0 only replays the seeds and the corpus.
# Work folder (git-ignored): fuzz-out/TARGET/ with seeds/ (copied from Fixtures/ on every run),
# corpus/ (grows across runs), artifacts/ (crash-, timeout-, oom- inputs) and log.txt.
# Environment: FUZZ_CONFIG=debug|release (default debug), FUZZ_NICE=N (nice level, default 0),
# FUZZ_FLAGS="..." (more libFuzzer flags), FUZZ_NO_BUILD=1 (use the last build).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:-}"
seconds="${2:-600}"
config="${FUZZ_CONFIG:-debug}"
scratch="$root/.build-fuzz"

usage() { echo "usage: Fuzz/run.sh binary|xml|model|opml|predicate|all [SECONDS]" >&2; exit 64; }
[[ -n "$target" ]] || usage
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

if [[ "$target" == all ]]; then
    for t in binary xml model opml predicate; do FUZZ_NO_BUILD="${done_build:-${FUZZ_NO_BUILD:-}}" "$0" "$t" "$seconds"; done_build=1; done
    exit 0
fi

case "$target" in
    binary)    product=FuzzBinaryStore; max_len=65536; dict=binary.dict ;;
    xml)       product=FuzzXMLStore;    max_len=16384; dict=xml.dict ;;
    model)     product=FuzzModelReader; max_len=16384; dict=xml.dict ;;
    opml)      product=FuzzOPMLReader;  max_len=8192;  dict=opml.dict ;;
    predicate) product=FuzzPredicate;   max_len=1024;  dict=predicate.dict ;;
    *) usage ;;
esac

if [[ -z "${FUZZ_NO_BUILD:-}" ]]; then
    # AddressSanitizer and libFuzzer's coverage for the Swift code of the harnesses and the Outline
    # modules (not libxml2 or zlib); the harnesses alone link libFuzzer (Fuzz/Package.swift), so
    # the main package's build tool (SchemaEmbedder, for OutlineKit) links and runs as a program.
    # lld, because gold crashes printing some link errors.
    ASAN_OPTIONS=detect_leaks=0 swift build -c "$config" --package-path "$root/Fuzz" --scratch-path "$scratch" \
        -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,indirect-calls,inline-8bit-counters,pc-table,trace-cmp \
        -Xswiftc -use-ld=lld 2>&1 \
        | grep -v 'Cannot export local symbol' || true
    [[ -x "$scratch/$config/$product" ]] || { echo "error: the build made no $scratch/$config/$product" >&2; exit 1; }
fi
binary="$scratch/$config/$product"

work="$root/fuzz-out/$target"
rm -rf "$work/seeds"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
seeds="$work/seeds"
copy() { for f in "$@"; do [[ -f "$f" ]] && cp "$f" "$seeds/$(echo "${f#$root/}" | tr '/ ' '__')"; done; return 0; }
shopt -s nullglob globstar
case "$target" in
    binary)    copy "$root"/Fixtures/Binary/* "$root"/Fixtures/Documents/*.outline "$root"/Fixtures/Samples/*.outline ;;
    xml)       copy "$root"/Fixtures/XML/*.xml "$root"/Fixtures/XML/Malformed/* "$root"/Fixtures/XML/Real/* "$root"/Fixtures/Documents/*.xml ;;
    model)     copy "$root"/Fixtures/Models/**/contents ;;
    opml)      copy "$root"/Fixtures/OPML/* ;;
    predicate) # The format strings the engine's tests use: the first string literal of each argument row.
        python3 - "$root" "$seeds" <<'PY'
import pathlib, re, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
literal = re.compile(r'^\s*\("((?:[^"\\]|\\.)*)"')
n = 0
for test in sorted((root / "Tests/OutlineEngineTests").glob("Predicate*.swift")):
    for line in test.read_text().splitlines():
        m = literal.match(line)
        if m:
            text = re.sub(r'\\(.)', lambda e: {"n": "\n", "t": "\t", "0": "\0"}.get(e.group(1), e.group(1)), m.group(1))
            (out / f"test-{n:03}").write_text(text)
            n += 1
PY
        ;;
esac
copy "$root"/Fixtures/Fuzz/"$target"/*
if [[ "$target" == binary ]]; then
    # Level-0 copies of the documents, whose body bytes the fuzzer can change (see main.swift).
    OUTLINE_FUZZ_STORED_SEEDS="$seeds" "$binary" -runs=0 -detect_leaks=0 "$seeds" >/dev/null 2>&1 || true
fi
echo "$target: $(ls "$seeds" | wc -l) seeds, $(ls "$work/corpus" | wc -l) corpus files, $seconds s"

args=(-max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -malloc_limit_mb=2048
      -timeout=10 -max_len="$max_len" -detect_leaks=1 -artifact_prefix="$work/artifacts/")
[[ -n "$dict" ]] && args+=(-dict="$root/Fuzz/Dictionaries/$dict")
[[ "$seconds" == 0 ]] && args+=(-runs=0)
# Swift's own crash backtracer and AddressSanitizer get in each other's way; libFuzzer reports.
export SWIFT_BACKTRACE=enable=no
set +e
# shellcheck disable=SC2086
nice -n "${FUZZ_NICE:-0}" "$binary" "${args[@]}" ${FUZZ_FLAGS:-} "$work/corpus" "$seeds" 2>&1 | tee "$work/log.txt" \
    | grep --line-buffered -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::|==[0-9]+==|SUMMARY|Done|Test unit written|.*(Fatal error|Deadly signal|Timeout|out-of-memory))'
status=${PIPESTATUS[0]}
set -e
echo "$target: corpus $(ls "$work/corpus" | wc -l) files; artifacts: $(ls "$work/artifacts" | wc -l) (in $work/artifacts); exit $status"
exit "$status"
