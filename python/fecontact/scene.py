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

_examples = {}


def _value(v):
    """A TOML value: booleans, numbers, strings, lists, inline tables."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # TOML's basic strings take JSON's escapes
    if isinstance(v, dict):
        return "{" + ", ".join("%s = %s" % (_key(k), _value(x)) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if hasattr(v, "tolist"):  # numpy scalars and arrays
        return _value(v.tolist())
    raise TypeError("a scene value of type %s: expected bool, int, float, str, list or dict" % type(v).__name__)


def _key(k):
    if not isinstance(k, str) or not k:
        raise TypeError("scene key %r: expected a non-empty string" % (k,))
    bare = all(c.isalnum() or c in "_-" for c in k) and k.isascii()
    return k if bare else json.dumps(k)


def _is_tables(v):
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(isinstance(x, dict) for x in v)


def dumps(scene):
    """The TOML text of a scene dict."""
    lines = []
    plain = {k: v for k, v in scene.items() if not isinstance(v, dict) and not _is_tables(v)}
    for k, v in plain.items():
        lines.append("%s = %s" % (_key(k), _value(v)))
    for k, v in scene.items():
        if isinstance(v, dict):
            lines += ["", "[%s]" % _key(k)] + ["%s = %s" % (_key(a), _value(b)) for a, b in v.items()]
    for k, v in scene.items():
        if _is_tables(v):
            for t in v:
                lines += ["", "[[%s]]" % _key(k)] + ["%s = %s" % (_key(a), _value(b)) for a, b in t.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


def write_scene(scene, path):
    """Writes a scene dict as TOML to path and returns the path."""
    path = Path(path)
    path.write_text(dumps(scene))
    return path


def read_scene(path):
    """Reads a scene file into a dict (tomllib)."""
    with open(path, "rb") as f:
        return tomllib.load(f)


def example_scene(name):
    """A built-in example's scene as a dict, its meshes named by absolute
    paths (so that the dict runs from any folder): what ``fecontact
    example NAME --scene DIR`` writes, kept for the session."""
    if name not in _examples:
        folder = tempfile.mkdtemp(prefix="fecontact-example-%s-" % name)
        target = os.path.join(folder, name)
        call(["example", name, "--scene", target])
        scene = read_scene(os.path.join(target, "scene.toml"))
        for body in scene.get("body", []):
            if "gmsh" in body and not os.path.isabs(body["gmsh"]):
                body["gmsh"] = os.path.join(target, body["gmsh"])
        _examples[name] = scene
    return json.loads(json.dumps(_examples[name]))  # a copy the caller may edit
