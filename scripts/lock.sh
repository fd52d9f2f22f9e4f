#!/usr/bin/env bash
# requirements.txt: the lock of dpscale's runtime dependencies, generated from pyproject.toml.
#
#     scripts/lock.sh            # after changing [project].dependencies: adds, drops or re-pins what changed
#     scripts/lock.sh --upgrade  # every dependency at the newest release its bounds allow
#     scripts/lock.sh --check    # exit 1 if requirements.txt is not what pyproject.toml gives (CI runs this)
#
# One universal file (markers for every platform, Python 3.11 and newer) with a hash for every file: pip installs
# it with no other tool (`pip install --require-hashes -r requirements.txt`), and so do the container
# (Dockerfile), Heroku's Python buildpack and CI. uv resolves it; it is fetched into a throwaway virtualenv when
# it is not on PATH. Pins already in the file are kept unless --upgrade, so adding one dependency moves no other.
set -euo pipefail
cd "$(dirname "$0")/.."
UV_SPEC='uv>=0.5,<1'
if command -v uv >/dev/null 2>&1; then
    uv=uv
else
    tools="$(mktemp -d)"; trap 'rm -rf "$tools"' EXIT
    python3 -m venv "$tools" && "$tools/bin/pip" install -q "$UV_SPEC"
    uv="$tools/bin/uv"
fi
compile() {  # $1: the file to write (it is read first, for the pins to keep); further arguments go to uv
    local out="$1"; shift
    "$uv" pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet \
        --custom-compile-command "scripts/lock.sh" -o "$out" "$@"
}
case "${1:-}" in
    --check)
        fresh="$(mktemp)"; cp requirements.txt "$fresh"
        compile "$fresh"
        if ! diff -u requirements.txt "$fresh"; then
            rm -f "$fresh"; echo "requirements.txt is out of date with pyproject.toml: run scripts/lock.sh" >&2; exit 1
        fi
        rm -f "$fresh"; echo "requirements.txt matches pyproject.toml" ;;
    --upgrade) compile requirements.txt --upgrade ;;
    "") compile requirements.txt ;;
    *) echo "usage: scripts/lock.sh [--check | --upgrade]" >&2; exit 2 ;;
esac
