"""docs/python.md's scripts run and print what the page says they print."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fecontact

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def scripts():
    """(code, the indented block after "prints") for each script that has one."""
    text = DOC.read_text()
    out = []
    for m in re.finditer(r"```python\n([^`]*)```\n\nprints\n\n((?:    .*\n|\n)+)", text):
        printed = "\n".join(line[4:] for line in m.group(2).rstrip("\n").splitlines())
        out.append((m.group(1), printed))
    return out


def test_the_page_has_its_scripts():
    assert len(scripts()) == 2
    assert len(scripts()[0][0].strip().splitlines()) <= 15


@pytest.mark.parametrize("i", [0, 1])
def test_script_prints_what_the_page_says(tmp_path, i):
    code, printed = scripts()[i]
    env = dict(os.environ, PYTHONPATH=str(Path(fecontact.__file__).parents[1]), FECONTACT=fecontact.binary())
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip("\n") == printed
