"""rules/ is plain Python: importing all of it loads nothing from Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_every_rules_module_loads_no_django() -> None:
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "rules").rglob("*.py")
    )
    modules = [name.removesuffix(".__init__") for name in modules]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "leaks = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(len(sys.modules), leaks)\n"
        "sys.exit(1 if leaks else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "rules.kinds.strictly_rising" in modules
