"""The package installs offline into a virtual environment of any CPython
3.11+ (docs/python.md, Install): our own build backend needs nothing the
interpreter may lack. Debian's interpreter (with its numpy) installs and
runs an example; each pyenv CPython 3.11+ found installs it too, and one
whose ABI is Debian's imports it with Debian's numpy."""

import glob
import os
import subprocess
import sys
from pathlib import Path

import pytest

import fecontact

HERE = Path(__file__).resolve().parents[1]  # python/
DEBIAN_NUMPY = "/usr/lib/python3/dist-packages"


def interpreters():
    found = [("debian", "/usr/bin/python3")] if os.path.exists("/usr/bin/python3") else []
    for exe in sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))):
        v = exe.split("/versions/")[1].split("/")[0]
        if tuple(int(x) for x in v.split(".")[:2]) >= (3, 11):
            found.append(("pyenv " + v, exe))
    return found


def run(args, **kw):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("name,exe", interpreters(), ids=[n for n, _ in interpreters()])
def test_offline_install(tmp_path, name, exe):
    venv = tmp_path / "venv"
    debian = name == "debian"
    run([exe, "-m", "venv"] + (["--system-site-packages"] if debian else []) + [venv])
    # --no-index: offline; numpy comes from what is there (Debian's), or
    # is left out where the interpreter has none (--no-deps).
    run([venv / "bin" / "pip", "install", "--no-index"] + ([] if debian else ["--no-deps"]) + [HERE])
    env = dict(os.environ, FECONTACT=fecontact.binary())
    env.pop("PYTHONPATH", None)
    py = venv / "bin" / "python"
    if not debian:
        same_abi = run([py, "-c", "import sys; print(sys.version_info[:2] == (3, 11))"], cwd=tmp_path).strip() == "True"
        if not same_abi or not os.path.isdir(DEBIAN_NUMPY):
            out = run([py, "-c", "import importlib.util as u; print(u.find_spec('fecontact').origin)"], cwd=tmp_path)
            assert str(venv) in out, "installed into the venv"
            return
        env["PYTHONPATH"] = DEBIAN_NUMPY  # numpy of the same ABI, no network
    out = run([py, "-c", "import fecontact, fecontact._clone as c; r = fecontact.run('point-impact', 'o', quiet=True);"
               "print(fecontact.__file__); print(c.CLONE); print(r.summary['steps'])"], cwd=tmp_path, env=env)
    where, clone, steps = out.split()
    assert where.startswith(str(venv)) and Path(clone) == HERE.parent and steps == "200"
