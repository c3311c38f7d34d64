#!/usr/bin/env bash
# Prints the path of a Python >= 3.12 (Django 6 needs it), or explains what to install and exits 1.
# Looks at $PYTHON, then python3.13/python3.12/python3 on PATH, then pyenv's builds.
set -u
ok() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; }
candidates=()
[ -n "${PYTHON:-}" ] && candidates+=("$PYTHON")
candidates+=(python3.12 python3.13 python3)
root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
for v in "$root"/versions/3.12* "$root"/versions/3.13*; do
  [ -x "$v/bin/python3" ] && candidates+=("$v/bin/python3")
done
for c in "${candidates[@]}"; do
  if ok "$c"; then command -v "$c"; exit 0; fi
done
echo "Timekeeper needs Python 3.12 or newer (Django 6). Install one, e.g. 'pyenv install 3.12'" \
     "or your system's python3.12 package, or point PYTHON at it." >&2
exit 1
