#!/usr/bin/env sh
# The production install, step by step, as the Dockerfile runs it (and CI, outside a container: .ci/smoke-image).
#
#     scripts/install.sh deps VENV        # a virtualenv at VENV with the locked dependencies (requirements.txt)
#     scripts/install.sh app VENV [SRC]   # dpscale itself from the checkout SRC (default .), nothing else
#     scripts/install.sh strip VENV       # pip and setuptools out: a running server needs neither
#
# The dependencies come only from the lock, each file checked against its hash; dpscale is installed without
# its dependencies, so nothing unlocked gets in. Two steps, so that a container rebuilds the first only when
# the lock changes.
set -eu
step="${1:?usage: scripts/install.sh deps|app|strip VENV [SRC]}"
venv="${2:?usage: scripts/install.sh deps|app|strip VENV [SRC]}"
src="${3:-.}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
case "$step" in
    deps)
        python3 -c 'import sys; sys.exit(sys.version_info < (3, 11) and "dpscale needs Python 3.11 or newer")'
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q --require-hashes --no-deps -r "$src/requirements.txt" ;;
    app)
        "$venv/bin/pip" install -q --no-deps "$src"
        "$venv/bin/pip" check ;;
    strip)
        "$venv/bin/python" -m pip uninstall -q -y pip setuptools ;;
    *) echo "usage: scripts/install.sh deps|app|strip VENV [SRC]" >&2; exit 2 ;;
esac
