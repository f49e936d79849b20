"""Scenes as nested dicts: written to TOML here, read with tomllib.

A scene is a dict mirroring the TOML reference (docs/guide.md, *Scene
files*): ``{"time": {"h": 1e-3, "duration": 1.0}, "rigid": [{...}, ...]}``
where a list of dicts is an array of tables (``[[rigid]]``) at the top
and an array of inline tables below it. The binary checks it when it
runs: a mistaken key is its error, raised as FecontactError.
"""

import json
import math
import os
import tempfile
import tomllib
from pathlib import Path

from ._binary import call
from ._files import read_text

_examples = {}


def _value(v, where="value"):
    """A TOML value: booleans, numbers, strings, lists, inline tables;
    where names it (``time.h``) in an error."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        v = float(v)  # numpy 2's repr of np.float64(0.4) is "np.float64(0.4)"
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v, where)
    if isinstance(v, dict):
        return "{" + ", ".join("%s = %s" % (_key(k, where), _value(x, "%s.%s" % (where, k))) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x, "%s[%d]" % (where, i)) for i, x in enumerate(v)) + "]"
    if hasattr(v, "tolist"):  # numpy scalars and arrays
        return _value(v.tolist(), where)
    raise TypeError("scene %s: a value of type %s: expected bool, int, float, str, list or dict" % (where, type(v).__name__))


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def _string(s, where):
    """A TOML basic string of any text: characters outside the BMP as
    themselves (JSON's surrogate pairs are not TOML), control characters
    escaped; a lone surrogate (bytes that were not UTF-8) refused."""
    out = ['"']
    for i, c in enumerate(s):
        o = ord(c)
        if 0xD800 <= o <= 0xDFFF:
            raise ValueError("scene %s: character %d is a lone surrogate (U+%04X, from bytes that were not UTF-8): "
                             "expected text" % (where, i + 1, o))
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif o < 0x20 or o == 0x7F:
            out.append("\\u%04x" % o)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _key(k, where="scene"):
    if not isinstance(k, str) or not k:
        raise TypeError("scene key %r in %s: expected a non-empty string" % (k, where))
    bare = all(c.isalnum() or c in "_-" for c in k) and k.isascii()
    return k if bare else _string(k, where)


def _is_tables(v):
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(isinstance(x, dict) for x in v)


def dumps(scene):
    """The TOML text of a scene dict."""
    lines = []
    plain = {k: v for k, v in scene.items() if not isinstance(v, dict) and not _is_tables(v)}
    for k, v in plain.items():
        lines.append("%s = %s" % (_key(k), _value(v, k)))
    for k, v in scene.items():
        if isinstance(v, dict):
            lines += ["", "[%s]" % _key(k)] + ["%s = %s" % (_key(a, k), _value(b, "%s.%s" % (k, a))) for a, b in v.items()]
    for k, v in scene.items():
        if _is_tables(v):
            for i, t in enumerate(v):
                lines += ["", "[[%s]]" % _key(k)] + ["%s = %s" % (_key(a, k), _value(b, "%s[%d].%s" % (k, i, a)))
                                                     for a, b in t.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


def write_scene(scene, path):
    """Writes a scene dict as TOML to path and returns the path."""
    path = Path(path)
    path.write_text(dumps(scene), encoding="utf-8")
    return path


def read_scene(path):
    """Reads a scene file into a dict (tomllib)."""
    return tomllib.loads(read_text(path, "a scene file (TOML)", cap=64 << 20))


def example_scene(name):
    """A built-in example's scene as a dict, its meshes and records named by
    absolute paths (so that the dict runs from any folder): what ``fecontact
    example NAME --scene DIR`` writes, kept for the session."""
    if name not in _examples:
        folder = tempfile.mkdtemp(prefix="fecontact-example-%s-" % name)
        target = os.path.join(folder, name)
        call(["example", name, "--scene", target])
        scene = read_scene(os.path.join(target, "scene.toml"))
        for body in scene.get("body", []):
            if "gmsh" in body and not os.path.isabs(body["gmsh"]):
                body["gmsh"] = os.path.join(target, body["gmsh"])
        for table in scene.get("obstacle", []) + scene.get("rigid", []):
            motion = table.get("motion", {})
            if "file" in motion and not os.path.isabs(motion["file"]):  # a ground motion record
                motion["file"] = os.path.join(target, motion["file"])
        _examples[name] = scene
    return json.loads(json.dumps(_examples[name]))  # a copy the caller may edit
