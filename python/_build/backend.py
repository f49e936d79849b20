"""fecontact's in-tree build backend (PEP 517, PEP 660), the standard library
alone: ``pip install ./python`` works offline into a virtual environment of
any CPython 3.11+, which need not have setuptools or wheel (pyenv's and
conda's often lack ``wheel``: "invalid command 'bdist_wheel'").

The wheel holds the package ``fecontact`` and ``fecontact/_clone.py``, the
clone it was built from, so that an installed package builds the binary and
the C library from that clone's sources (fecontact._binary). Its metadata is
pyproject.toml's [project] table.
"""

import base64
import hashlib
import io
import os
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # python/
PACKAGE = "fecontact"


def _project():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _dist_info(p):
    return "%s-%s.dist-info" % (p["name"], p["version"])


def _metadata(p):
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"],
             "Summary: " + p.get("description", ""), "Requires-Python: " + p.get("requires-python", "")]
    lines += ["Requires-Dist: " + d for d in p.get("dependencies", [])]
    for extra, deps in p.get("optional-dependencies", {}).items():
        lines.append("Provides-Extra: " + extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (d, extra) for d in deps]
    readme = ROOT / p.get("readme", "README.md")
    body = readme.read_text() if readme.is_file() else ""
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + body


WHEEL = "Wheel-Version: 1.0\nGenerator: fecontact _build/backend.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _package_files():
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        if "__pycache__" in path.parts or path.name == "_clone.py":
            continue
        yield path.relative_to(ROOT).as_posix(), path.read_bytes()


def _write_wheel(directory, files, p):
    """Writes a wheel of files ((name, bytes) pairs) and its dist-info;
    returns its file name."""
    info = _dist_info(p)
    files = list(files) + [(info + "/METADATA", _metadata(p).encode()), (info + "/WHEEL", WHEEL.encode())]
    name = "%s-%s-py3-none-any.whl" % (p["name"], p["version"])
    record = []
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in files:
            z.writestr(arc, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (arc, digest, len(data)))
        record.append(info + "/RECORD,,")
        z.writestr(info + "/RECORD", "\n".join(record) + "\n")
    return name


def _clone():
    return ("CLONE = %r\n" % str(ROOT.parent)).encode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p = _project()
    info = Path(metadata_directory) / _dist_info(p)
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(p))
    (info / "WHEEL").write_text(WHEEL)
    return info.name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = list(_package_files()) + [(PACKAGE + "/_clone.py", _clone())]
    return _write_wheel(wheel_directory, files, _project())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel that puts python/ on the path: the clone's sources, as they
    change."""
    return _write_wheel(wheel_directory, [("_fecontact_editable.pth", (str(ROOT) + "\n").encode())], _project())


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    base = "%s-%s" % (p["name"], p["version"])
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for rel in ["pyproject.toml", "README.md", "_build/backend.py"] + [n for n, _ in _package_files()]:
            tar.add(ROOT / rel, arcname=base + "/" + rel)
        meta = _metadata(p).encode()
        ti = tarfile.TarInfo(base + "/PKG-INFO")
        ti.size = len(meta)
        tar.addfile(ti, io.BytesIO(meta))
    return name
