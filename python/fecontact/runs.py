"""Runs and sweeps: the binary driven from Python, its folders read back.

``run`` starts ``fecontact run`` on a scene (a dict, a file or a built-in
example's name), shows its progress and returns a ``Run``, the reader of
the folder it wrote; ``open_run`` reads a folder written before.
``sweep`` runs ``fecontact sweep`` and returns its gathered table.
"""

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

from ._binary import FecontactError, binary
from ._files import read_text
from .scene import read_scene, write_scene
from .vtu import read_pvd, read_vtu

_PROGRESS = re.compile(r"^step (\d+)/(\d+)\s")
_UNIT = re.compile(r"^(.*?) \[(.*)\]$")


class Table(np.recarray):
    """A table fecontact wrote (a history, a sweep's, a survey's): a numpy
    record array whatever is installed, its columns by their bare names
    (``t["kinetic"]``, ``t.dtype.names``), their units in ``t.units``
    (``t.units["kinetic"] == "J"``); ``t.frame()`` is the pandas DataFrame
    (pandas must be installed), its units in ``attrs["units"]``."""

    def __array_finalize__(self, obj):
        self.units = dict(getattr(obj, "units", {}) or {})

    def frame(self):
        import pandas as pd

        names = list(self.dtype.names)
        f = pd.DataFrame({n: np.asarray(self[n]) for n in names}, columns=names)
        f.attrs["units"] = dict(self.units)
        return f


def _make(cols, names, units):
    t = np.rec.fromarrays([cols[n] for n in names], names=names).view(Table)
    t.units = {n: u for n, u in units.items() if n in names}
    return t


def _table(path, adjust=None):
    """A CSV file as a Table, with bare column names, and its units by
    column (the ``name [unit]`` headers); adjust(names, cols, units) may
    change the columns first (an older format read as the current one)."""
    rows = list(csv.reader(io.StringIO(read_text(path, "a table fecontact wrote (CSV)"), newline="")))
    if not rows:
        raise FecontactError("%s is empty: the run or sweep that writes it did not get to its first line" % path)
    names, units = [], {}
    for h in rows[0]:
        m = _UNIT.match(h)
        name = m.group(1) if m else h
        if m:
            units[name] = m.group(2)
        names.append(name)
    cols = {}
    for j, name in enumerate(names):
        raw = [r[j] if j < len(r) else "" for r in rows[1:]]
        cols[name] = _column(raw)
    if adjust is not None:
        adjust(names, cols, units)
    return (_make(cols, names, units) if names else None), units


def _history_format1(names, cols, units):
    """A history of outputs' format 1 read as format 2's: its "balance"
    (the ledger's constant) is "total_energy", and "balance_error" its
    drift from step 0."""
    if "balance" not in cols or "total_energy" in cols:
        return
    i = names.index("balance")
    names[i:i + 1] = ["total_energy", "balance_error"]
    total = cols.pop("balance")
    cols["total_energy"] = total
    cols["balance_error"] = total - total[0] if len(total) else total
    units["total_energy"] = units["balance_error"] = units.pop("balance", "J")


def _numbers(d):
    """summary.json's figures that JSON has no number for ("+Inf", "NaN",
    written as strings) back to floats."""
    for k, v in d.items():
        if v in ("+Inf", "-Inf", "NaN"):
            d[k] = float(v)
    return d


def _column(raw):
    """Numbers where every cell is one (empty cells are NaN), text otherwise."""
    try:
        return np.array([float(x) if x != "" else np.nan for x in raw])
    except ValueError:
        return np.array(raw, dtype=object)


class Run:
    """The folder of a run: its history, summary, series and figures.

    ``history`` is history.csv as a Table, with bare column names
    (``kinetic``, ``time``) and ``units`` their units (``units["kinetic"]
    == "J"``; ``history.frame()`` for pandas);
    ``summary`` summary.json, every figure a number (``summary["steps"]``,
    ``summary["energy"]["balance_error"]["value"]``);
    ``series(name)`` the frames of ``name.pvd`` (bodies, contacts, rigid,
    obstacles, masses, chains)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        if not (self.folder / "summary.txt").is_file() and not (self.folder / "history.csv").is_file():
            raise FecontactError("%s holds no fecontact run (no summary.txt, no history.csv)" % self.folder)
        self._history = None
        self.units = {}

    def __repr__(self):
        return "Run(%r)" % str(self.folder)

    @property
    def history(self):
        if self._history is None:
            self._history, self.units = _table(self.folder / "history.csv", _history_format1)
        return self._history

    def row(self, i):
        """History's row i (-1: the last) as a dict of column: value."""
        return records(self.history)[i]

    @property
    def summary(self):
        """summary.json as a dict, its figures numbers with their units
        (``{"value": 0.27, "unit": "s"}``; docs/guide.md, Outputs, gives
        the schema); for a folder written before outputs' format 2, which
        has none, summary.txt as {first word(s) before the colon: the
        rest}."""
        path = self.folder / "summary.json"
        if path.is_file():
            return json.loads(read_text(path, "a run's summary (JSON)"), parse_constant=float,
                              object_hook=_numbers)
        out = {}
        path = self.folder / "summary.txt"
        if path.is_file():
            for line in read_text(path, "a run's summary").splitlines():
                key, sep, rest = line.partition(": ")
                if sep and key not in out:
                    out[key] = rest
        return out

    @property
    def stopped(self):
        """True where the run stopped before its end and can go on
        (``resume``): what ``fecontact run --resume`` takes up."""
        if not (self.folder / "checkpoint.gob").is_file():
            return False
        if (self.folder / "history.csv.partial").is_file():
            return True
        path = self.folder / "summary.txt"
        return path.is_file() and read_text(path, "a run's summary").startswith("INTERRUPTED")

    @property
    def scene(self):
        """The scene as run (scene-as-run.toml) as a dict."""
        return read_scene(self.folder / "scene-as-run.toml")

    def series(self, name="bodies", body=None):
        """The frames of name.pvd (bodies, contacts, rigid, obstacles,
        masses, chains) as a list of (time, part, Frame) in order; body
        keeps the pieces of the body of that name (bodies.pvd's part per
        body)."""
        path = self.folder / (name + ".pvd")
        if not os.path.lexists(path):  # what is there and is no file: read_pvd says what it is
            there = sorted(p.stem for p in self.folder.glob("*.pvd"))
            raise FecontactError("%s has no %s.pvd (it has: %s)" % (self.folder, name, ", ".join(there) or "none"))
        pieces = read_pvd(str(path))
        if body is not None:
            prefix = "%s_%s_" % (name, body)
            pieces = [p for p in pieces if os.path.basename(p[2]).startswith(prefix)
                      and os.path.basename(p[2])[len(prefix):-4].isdigit()]
            if not pieces:
                raise FecontactError("%s has no pieces of a body %r" % (path, body))
        return [(t, part, read_vtu(f)) for t, part, f in pieces]

    def energy(self):
        """The energy ledger against time: kinetic, elastic, the works,
        the total energy the ledger keeps constant and its drift
        (balance_error), history's columns in J."""
        h = self.history
        keep = ["time"] + [n for n in _names(h) if self.units.get(n) == "J" and n != "complementarity"]
        return _select(h, keep)

    def pair_forces(self):
        """Per [[contact]] pair (by its name in the scene), the total force
        on its candidate against time: a table of time, fx, fy (N/m) and
        closed (units closed)."""
        h = self.history
        pairs = [c.get("name", "contact%d" % (i + 1)) for i, c in enumerate(self.scene.get("contact", []))]
        out = {}
        for i, name in enumerate(pairs):
            col = "contact%d_" % (i + 1)
            if col + "fx" not in _names(h):
                continue
            t = _select(h, ["time", col + "fx", col + "fy", col + "closed"])
            out[name] = _rename(t, {col + "fx": "fx", col + "fy": "fy", col + "closed": "closed"})
        return out

    @property
    def granular(self):
        """The granular measures (granular.csv, ``[output] granular``) or
        None where the run has none."""
        path = self.folder / "granular.csv"
        return _table(path)[0] if path.is_file() else None

    def resume(self, until=None, **flags):
        """Goes on with a stopped (or finished) run from its checkpoint, to
        its end or to ``until`` (s); returns this Run."""
        args = ["run", "--resume", str(self.folder)]
        if until is not None:
            args += ["--until", repr(float(until))]
        _stream(args + _flags(flags))
        self._history = None
        return self

    def plot(self, what="energy", ax=None, time=None):
        """Draws with matplotlib (imported only here) in the binary's house
        style (SI-prefixed units, legends beside the data, the frame on the
        bodies that move): "energy" (the ledger), a history column's name,
        or "bodies" (the frame nearest ``time``, default the last, with its
        contact forces)."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
        h = self.history
        if what == "bodies":
            _plot_frame(self, ax, time)
            return ax
        if what == "energy":
            e = self.energy()
            names = list(e.dtype.names[1:])
            scale, unit = _prefix(max(np.nanmax(np.abs(e[n])) for n in names), "J")
            colours = plt.get_cmap("tab20").colors  # distinct for the ledger's 12 terms
            for i, n in enumerate(names):
                c = colours[(2 * i) % 20 + (2 * i) // 20]
                ax.plot(e["time"], e[n] / scale, label=n.replace("_", " "), lw=1.2, color=c)
            ax.set_ylabel("energy [%s]" % unit)
            ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
        else:
            scale, unit = _prefix(np.nanmax(np.abs(h[what])), self.units.get(what, ""))
            ax.plot(h["time"], h[what] / scale, lw=1.2)
            ax.set_ylabel("%s [%s]" % (what.replace("_", " "), unit) if unit else what.replace("_", " "))
        tscale, tunit = _prefix(np.nanmax(h["time"]), "s")
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: "%g" % round(x / tscale, 10)))
        ax.set_xlabel("time [%s]" % tunit)
        ax.grid(True, lw=0.3, alpha=0.5)
        return ax


# SI prefixes for axes, as the binary's pictures (io/plots) use them.
_PREFIXES = [(1e9, "G"), (1e6, "M"), (1e3, "k"), (1, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")]


def _prefix(largest, unit):
    """The scale and the prefixed unit that put largest between 1 and
    1000 (no prefix for a unitless column)."""
    if not unit or not np.isfinite(largest) or largest == 0:
        return 1.0, unit
    for scale, p in _PREFIXES:
        if largest >= scale:
            return scale, p + unit
    return _PREFIXES[-1][0], _PREFIXES[-1][1] + unit


# VTK cell types: what a series' cells are drawn as.
_VERTEX, _LINE, _POLYLINE = 1, 3, 4

# The series a run writes of its own (not a kind's): contacts are arrows,
# chains belong to a granular study.
_NOT_BODIES = {"contacts", "chains"}


def _plot_frame(r, ax, time):
    """The bodies at the frame nearest time, whatever their kinds: every
    series' cells (the elastic bodies' polygons, displaced, the rigid
    bodies', a kind's own), lines (springs, obstacles in grey) and points (dots), framed on
    what moves (cells not "driven", dots; the pillar's long ground drawn
    but not framed), with the contact forces."""
    names = sorted(p.stem for p in r.folder.glob("*.pvd") if p.stem not in _NOT_BODIES)
    if not names:
        raise FecontactError("%s has no series of bodies to draw" % r.folder)
    t = None
    framed, drawn = [], []
    for name in names:
        frames = r.series(name)
        if t is None:
            t = frames[-1][0] if time is None else min((f[0] for f in frames), key=lambda x: abs(x - time))
        for _, _, fr in (f for f in frames if f[0] == t):
            points = fr.points
            if "displacement" in fr.point_data:  # elastic bodies: on their reference mesh
                points = points + np.asarray(fr.point_data["displacement"])[:, :2]
            driven = fr.cell_data.get("driven", np.zeros(len(fr.cells)))
            for k, c in enumerate(fr.cells):
                kind = fr.types[k]
                if kind == _VERTEX:
                    ax.plot(points[c, 0], points[c, 1], "o", color="tab:red", ms=3)
                    framed.append(points[c])
                    continue
                p = points[c] if kind in (_LINE, _POLYLINE) else points[np.append(c, c[0])]
                if name != "obstacles":  # a ground line is as long as anyone likes
                    drawn.append(p)
                grey = name == "obstacles" or driven[k]
                ax.plot(p[:, 0], p[:, 1], "-", color="0.55" if grey else "k", lw=0.6)
                if not grey and kind not in (_LINE, _POLYLINE):
                    framed.append(p)
    if (r.folder / "contacts.pvd").is_file():
        for ft, _, fr in r.series("contacts"):
            if ft == t and len(fr.points):
                f = fr.point_data["force"]
                ax.quiver(fr.points[:, 0], fr.points[:, 1], f[:, 0], f[:, 1], color="tab:red")
    if framed:
        pts = np.vstack(framed)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        # A lone point mass frames a tenth of what is drawn (its springs).
        scene = np.vstack(drawn + framed)
        pad = 0.08 * max(hi - lo) if max(hi - lo) > 0 else 0.05 * max(scene.max(axis=0) - scene.min(axis=0))
        pad = max(pad, 1e-9)
        ax.set_xlim(lo[0] - pad, hi[0] + pad)
        ax.set_ylim(lo[1] - pad, hi[1] + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title("t = %g s" % t)


def records(table):
    """The rows of a table (a history, a sweep's; a Table or a DataFrame)
    as a list of dicts."""
    names = _names(table)
    cols = [np.asarray(table[n]) for n in names]
    return [{n: _scalar(c[i]) for n, c in zip(names, cols)} for i in range(len(cols[0]) if cols else 0)]


def _scalar(x):
    return x.item() if hasattr(x, "item") else x


def _names(t):
    return list(t.columns) if hasattr(t, "columns") else list(t.dtype.names)


def _col(t, name):
    return np.asarray(t[name])


def _select(t, names):
    return _make({n: np.asarray(t[n]) for n in names}, names, t.units)


def _rename(t, names):
    new = [names.get(n, n) for n in t.dtype.names]
    units = {names.get(n, n): u for n, u in t.units.items()}
    return _make({names.get(n, n): np.asarray(t[n]) for n in t.dtype.names}, new, units)


def _flags(flags):
    """Keyword flags as the binary's: refine=2 -> --refine 2, quiet=True
    -> --quiet."""
    args = []
    for k, v in flags.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            args.append(flag)
        elif v is False or v is None:
            continue
        elif isinstance(v, (list, tuple)):
            for x in v:
                args += [flag, str(x)]
        else:
            args += [flag, str(v)]
    return args


def _progress_bar(total):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="step")


def _stream(args, echo=True, scene_file=None, scene=None):
    """Runs the binary, passing its lines on as they come (a tqdm bar for
    progress where tqdm is installed). Ctrl-C (KeyboardInterrupt) is sent
    on to the binary, which stops at its consistent point (the checkpoint
    written: ``Run.resume`` goes on), and is raised again once it has.
    Returns the binary's printed lines; raises FecontactError with its
    message when it fails (scene_file, a scene dict's temporary file,
    named there as the dict)."""
    proc = subprocess.Popen([binary()] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # Ctrl-C reaches it once, from here
    bar, done, lines = None, 0, []
    try:
        for line in proc.stdout:
            lines.append(line)
            m = _PROGRESS.match(line)
            if m and echo:
                step, total = int(m.group(1)), int(m.group(2))
                if bar is None:
                    bar = _progress_bar(total)
                if bar is not None:
                    bar.update(step - done)
                    done = step
                    continue
            if echo:
                sys.stdout.write(line)
        err = proc.stderr.read()
        proc.wait()
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGINT)
        proc.communicate()
        raise
    finally:
        if bar is not None:
            bar.close()
    if err and echo:
        sys.stderr.write(err)
    if proc.returncode != 0:
        raise FecontactError(_as_dict(err.strip() or "".join(lines[-5:]).strip(), scene_file, scene), proc.returncode)
    return lines


def _as_dict(message, scene_file, scene=None):
    """The binary's message about a scene dict's temporary file, naming
    the dict instead, without the file's line numbers, which the user
    never saw, and with the dict's key it is about where the message
    names one (``scene["body"][0]["E"]``)."""
    if not scene_file:
        return message
    message = message.replace(scene_file, "the scene dict")
    message = re.sub(r" \(line \d+\)", "", message)
    keys = _dict_keys(message, scene) if isinstance(scene, dict) else []
    if keys:
        message += " [in the dict: %s]" % ", ".join(keys)
    return message


def _walk(scene, parts):
    """The dict path of TOML's dotted key parts in scene: a list's item is
    the one holding the next part (or named by it); None where it is not
    there."""
    path, node = "scene", scene
    for i, part in enumerate(parts):
        if isinstance(node, list):
            rest = parts[i:]
            for j, item in enumerate(node):
                if isinstance(item, dict) and (rest[0] in item or item.get("name") == rest[0]):
                    path, node = path + "[%d]" % j, item
                    break
            else:
                return None
            if node.get("name") == part and part not in node:
                continue
        if not isinstance(node, dict) or part not in node:
            return None
        path, node = path + "[%r]" % part, node[part]
    return path.replace("'", '"')


def _dict_keys(message, scene):
    """The dict keys a binary's message names: an unknown key
    (``unknown key body.velocty``), a value of a named table's entry
    (``body "block": E = -1``, ``contact "a": mu = ...``) or of a table
    (``[time]: h = NaN``)."""
    out = []
    m = re.search(r"unknown key (.*?) \(check", message)
    if m:
        for key in m.group(1).split("; "):
            p = _walk(scene, key.split("."))
            if p:
                out.append(p)
    m = re.search(r"\b([a-z_]+) \"([^\"]*)\": ([A-Za-z_]\w*) = ", message)
    if m and isinstance(scene.get(m.group(1)), list):
        for j, item in enumerate(scene[m.group(1)]):
            if isinstance(item, dict) and item.get("name") == m.group(2) and m.group(3) in item:
                out.append('scene["%s"][%d]["%s"]' % (m.group(1), j, m.group(3)))
    m = re.search(r"\[([a-z_.]+)\]: ([A-Za-z_]\w*) = ", message)
    if m:
        p = _walk(scene, m.group(1).split(".") + [m.group(2)])
        if p:
            out.append(p)
    return out


def _scene_path(scene, where):
    """A scene given as a dict is written to where/scene.toml; a path or
    an example's name is passed on as it is. Returns the path and, for a
    dict, the temporary file (to name it as the dict in errors)."""
    if isinstance(scene, dict):
        path = str(write_scene(scene, Path(where) / "scene.toml"))
        return path, path
    return os.fspath(scene), None


def run(scene, out, quiet=False, **flags):
    """Runs a scene (dict, file or built-in example name) into the folder
    out and returns its Run. Flags are the binary's (``refine=2``,
    ``steps=100``, ``overwrite=True``); a refused scene raises
    FecontactError with the binary's message."""
    with tempfile.TemporaryDirectory(prefix="fecontact-scene-") as tmp:
        path, dict_file = _scene_path(scene, tmp)
        args = ["run", path, "-o", os.fspath(out)] + _flags(flags)
        _stream(args + (["--quiet"] if quiet else []), echo=not quiet, scene_file=dict_file, scene=scene)
    return Run(out)


def open_run(folder):
    """The Run of a folder a run wrote before."""
    return Run(folder)


def _setting(key, values):
    """A --set argument: a list of values (TOML: numbers, strings, lists)
    joined by |, or a range string given as it is ("0.1..0.8/8")."""
    if isinstance(values, str):
        return "%s=%s" % (key, values)
    from .scene import _value

    return "%s=%s" % (key, "|".join(_value(v) for v in values))


def sweep(scene, settings, out, engine="local", quiet=True, **flags):
    """Runs the variants of a scene (dict, file or example name): settings
    maps a scene key (``time.h``, ``body.disc.velocity``,
    ``rigid_contacts.rule.1.mu``) to its values (a list, or a range
    ``"A..B/N"``), several keys making a product. Returns the gathered
    table (sweep.csv, as history is). Flags are the binary's (``jobs=2``,
    ``time="1:00:00"``; with engine="slurm", ``wait=True`` is implied)."""
    with tempfile.TemporaryDirectory(prefix="fecontact-scene-") as tmp:
        path, dict_file = _scene_path(scene, tmp)
        args = ["sweep", path, "-o", os.fspath(out), "--engine", engine]
        for key, values in settings.items():
            args += ["--set", _setting(key, values)]
        if engine == "slurm":
            flags.setdefault("wait", True)
        table = Path(out) / "sweep.csv"
        before = _stamp(table)
        try:
            _stream(args + _flags(flags), echo=not quiet, scene_file=dict_file, scene=scene)
        except FecontactError as e:
            # A refused sweep (a folder in use, or of a user's files)
            # leaves an earlier sweep's table there: only this sweep's
            # own table, with failed variants marked, is returned.
            if _stamp(table) in (None, before):
                raise
            warnings.warn("fecontact sweep: %s (sweep.csv marks the variants)" % e, stacklevel=2)
    return _table(table)[0]


def _stamp(path):
    """What tells one writing of a file from another (None: no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def explore(scene, out, quiet=True, **flags):
    """Surveys the contact forces that hold a scene's rigid bodies at rest
    (``fecontact explore``; flags as ``solutions=300``, ``state=...``).
    Returns a dict: ``solutions`` and ``admissible`` (tables; admissible
    is None where the survey writes none) and ``report`` (explore.txt)."""
    with tempfile.TemporaryDirectory(prefix="fecontact-scene-") as tmp:
        path, dict_file = _scene_path(scene, tmp)
        _stream(["explore", path, "-o", os.fspath(out)] + _flags(flags), echo=not quiet, scene_file=dict_file, scene=scene)
    out = Path(out)
    adm = out / "admissible.csv"
    return {"solutions": _table(out / "solutions.csv")[0], "admissible": _table(adm)[0] if adm.is_file() else None,
            "report": read_text(out / "explore.txt", "a survey's report")}
