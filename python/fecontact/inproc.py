"""A simulation stepped in this process, through fecontact's C ABI
(libfecontact.so, cmd/libfecontact/fecontact.h) and ctypes: step, read and
set the bodies' states and forces between steps, read the contact units
and the certificate, save and restore.

    import fecontact
    with fecontact.Simulation("colliding-blocks") as sim:
        sim.step_to(0.75e-3)
        q, v = sim.state("upper")
        print(sim.energy()["balance_error"], sim.contacts()["force"])

The library is found as $FECONTACT_LIB, or built from the clone this
package sits in (``go build -buildmode=c-shared``, which needs Go and a C
compiler), once. Arrays are numpy's: the library writes into them and reads
from them during a call, and keeps none. Runs, sweeps and Slurm stay on the
binary (fecontact.run, fecontact.sweep).
"""

import ctypes
import os
import re
from pathlib import Path

import numpy as np

from ._binary import FecontactError, _clone_root, go_build
from .runs import _dict_keys
from .scene import dumps

# The codes of fecontact.h (FEC_E*), by number.
CODES = ["OK", "EHANDLE", "EARGUMENT", "ESCENE", "ESTEP", "EFILE", "ESTATE", "EFAILED", "EINTERNAL"]

# fec_contact, field for field: numpy's structured dtype with C's alignment.
CONTACT = np.dtype([("body", "<i4"), ("status", "<i4"), ("x", "<f8", (2,)), ("n", "<f8", (2,)), ("t", "<f8", (2,)),
                    ("impulse", "<f8", (2,)), ("velocity", "<f8", (2,)), ("force", "<f8", (2,)),
                    ("mu", "<f8"), ("gap", "<f8"), ("bonded", "<i4")], align=True)


class _Stats(ctypes.Structure):
    _fields_ = [("step", ctypes.c_int32), ("converged", ctypes.c_int32), ("time", ctypes.c_double),
                ("units", ctypes.c_int32), ("open", ctypes.c_int32), ("stick", ctypes.c_int32),
                ("slide", ctypes.c_int32), ("sweeps", ctypes.c_int32), ("residual", ctypes.c_double),
                ("complementarity", ctypes.c_double), ("cone_violation", ctypes.c_double),
                ("min_gap", ctypes.c_double), ("normal_work", ctypes.c_double), ("friction_work", ctypes.c_double)]


class _Energy(ctypes.Structure):
    _fields_ = [(name, ctypes.c_double) for name in
                ("kinetic", "elastic", "external", "damping", "numerical", "contact", "total_energy", "balance_error",
                 "normal_work", "friction_work", "obstacle_work", "push_out_work")]


class SimulationError(FecontactError):
    """A call the library refused: its message, and its code's name
    (``code``: "ESCENE", "ESTATE", ...)."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = CODES[code] if 0 <= code < len(CODES) else str(code)


_lib = None


def _build(root):
    return go_build(root, "libfecontact.so", "./cmd/libfecontact", flags=("-buildmode=c-shared",), cgo=True,
                    why=" (it needs a C compiler)")


def library():
    """The path of libfecontact.so: $FECONTACT_LIB, or the clone's build."""
    global _lib
    if _lib is not None:
        return _lib._name
    path = os.environ.get("FECONTACT_LIB")
    if not path:
        root = _clone_root()
        path = _build(root) if root is not None else None
    if not path:
        raise FecontactError("no libfecontact.so: set FECONTACT_LIB to its path (go build -buildmode=c-shared "
                             "-o libfecontact.so ./cmd/libfecontact in a clone), or install Go and a C compiler to build it")
    lib = ctypes.CDLL(path)
    dp, ip, u64 = ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int), ctypes.c_uint64
    sig = {
        "fec_open_file": [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(u64)],
        "fec_open_string": [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(u64)],
        "fec_open_example": [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(u64)],
        "fec_free": [u64],
        "fec_step": [u64, ctypes.c_int],
        "fec_step_to": [u64, ctypes.c_double],
        "fec_time": [u64, dp],
        "fec_last_step": [u64, ctypes.POINTER(_Stats)],
        "fec_energy_ledger": [u64, ctypes.POINTER(_Energy)],
        "fec_body_count": [u64, ip],
        "fec_body_info": [u64, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ip, ip, ip],
        "fec_get_state": [u64, ctypes.c_int, dp, ctypes.c_int, dp, ctypes.c_int],
        "fec_set_state": [u64, ctypes.c_int, dp, ctypes.c_int, dp, ctypes.c_int],
        "fec_masses": [u64, ctypes.c_int, dp, ctypes.c_int],
        "fec_set_force": [u64, ctypes.c_int, dp, ctypes.c_int],
        "fec_contact_count": [u64, ip],
        "fec_contacts": [u64, ctypes.c_void_p, ctypes.c_int],
        "fec_save": [u64, ctypes.c_char_p],
        "fec_restore": [u64, ctypes.c_char_p],
    }
    for name, args in sig.items():
        f = getattr(lib, name)
        f.argtypes, f.restype = args, ctypes.c_int
    lib.fec_message.argtypes, lib.fec_message.restype = [u64, ctypes.c_char_p, ctypes.c_size_t], ctypes.c_size_t
    _lib = lib
    return path


def _message(handle):
    n = _lib.fec_message(handle, None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    _lib.fec_message(handle, buf, n + 1)
    return buf.value.decode("utf-8", "replace")


def _doubles(a):
    """A contiguous float64 array's pointer, or None for None."""
    if a is None:
        return None, 0
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), len(a)


def _array(x, what):
    """x as a contiguous float64 vector the library reads (a copy only when
    it is not one already)."""
    a = np.ascontiguousarray(x, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError("%s: a vector expected, got shape %s" % (what, a.shape))
    return a


class Simulation:
    """A scene's simulation in this process: what ``fecontact run`` steps,
    the same states step by step. ``scene`` is a built-in example's name, a
    scene file's path, or a scene as a dict (fecontact.write_scene's); refine
    divides the finite-element cells as ``--refine`` does.

    Bodies are named or numbered (finite-element bodies, then rigid bodies,
    then point-mass components). A body's state is its positions q and
    velocities v: a rigid body's x, y and rotation; a finite-element body's
    nodes' displacements and velocities, x and y per node; a component's
    masses' positions and velocities. A state or force set acts from the
    next step on and the ledger books its work (it still closes)."""

    def __init__(self, scene, refine=0):
        library()
        handle = ctypes.c_uint64(0)
        if isinstance(scene, dict):
            code = _lib.fec_open_string(dumps(scene).encode(), b"scene dict", refine, ctypes.byref(handle))
        elif isinstance(scene, (str, os.PathLike)) and Path(scene).suffix == ".toml":
            code = _lib.fec_open_file(os.fsencode(scene), refine, ctypes.byref(handle))
        elif isinstance(scene, str):
            code = _lib.fec_open_example(scene.encode(), refine, ctypes.byref(handle))
        else:
            raise TypeError("scene: an example's name, a .toml path or a dict expected, got %r" % type(scene).__name__)
        if code != 0:
            message = _message(0)
            if isinstance(scene, dict):
                message = re.sub(r" \(line \d+\)", "", message)
                keys = _dict_keys(message, scene)
                if keys:
                    message += " [in the dict: %s]" % ", ".join(keys)
            raise SimulationError(message, code)
        self._h = handle.value
        self._bodies = None

    def _check(self, code):
        if code != 0:
            raise SimulationError(_message(self._h), code)

    def close(self):
        """Frees the simulation (a closed one refuses every call)."""
        if getattr(self, "_h", 0) and _lib is not None:
            _lib.fec_free(self._h)
        self._h = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def step(self, n=1):
        """Takes n steps; returns the last one's certificate (last_step)."""
        self._check(_lib.fec_step(self._h, n))
        return self.last_step()

    def step_to(self, t):
        """Steps until the time is t (to within half a step)."""
        self._check(_lib.fec_step_to(self._h, t))
        return self.last_step()

    @property
    def time(self):
        t = ctypes.c_double()
        self._check(_lib.fec_time(self._h, ctypes.byref(t)))
        return t.value

    def last_step(self):
        """The last step's certificate as a dict: step, converged, units,
        open/stick/slide, sweeps, residual, complementarity (relative),
        cone_violation, min_gap, normal_work and friction_work (J per m)."""
        s = _Stats()
        self._check(_lib.fec_last_step(self._h, ctypes.byref(s)))
        d = {name: getattr(s, name) for name, _ in _Stats._fields_}
        d["converged"] = bool(d["converged"])
        return d

    def energy(self):
        """The ledger (J per m), history.csv's columns: kinetic, elastic,
        external, damping, numerical, contact, total_energy (constant up to
        round-off), balance_error (its drift since the simulation was
        opened), and the works of contact since the start."""
        e = _Energy()
        self._check(_lib.fec_energy_ledger(self._h, ctypes.byref(e)))
        return {name: getattr(e, name) for name, _ in _Energy._fields_}

    @property
    def bodies(self):
        """Each body as a dict: name, kind, nq, nv, nf (the lengths of its
        positions, velocities and applied force; nf 0: it takes none)."""
        if self._bodies is None:
            n = ctypes.c_int()
            self._check(_lib.fec_body_count(self._h, ctypes.byref(n)))
            out = []
            for i in range(n.value):
                name, kind = ctypes.create_string_buffer(256), ctypes.create_string_buffer(64)
                nq, nv, nf = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
                self._check(_lib.fec_body_info(self._h, i, name, 256, kind, 64, ctypes.byref(nq), ctypes.byref(nv),
                                               ctypes.byref(nf)))
                out.append({"name": name.value.decode(), "kind": kind.value.decode(), "nq": nq.value, "nv": nv.value,
                            "nf": nf.value})
            self._bodies = out
        return self._bodies

    def _index(self, body):
        if isinstance(body, str):
            for i, b in enumerate(self.bodies):
                if b["name"] == body:
                    return i
            raise KeyError("no body %r: the bodies are %s" % (body, ", ".join(b["name"] for b in self.bodies)))
        return int(body)

    def state(self, body):
        """Body's positions q and velocities v, as new arrays."""
        i = self._index(body)
        b = self.bodies[i] if 0 <= i < len(self.bodies) else {"nq": 0, "nv": 0}
        q, v = np.empty(b["nq"]), np.empty(b["nv"])
        self._check(_lib.fec_get_state(self._h, i, *_doubles(q), *_doubles(v)))
        return q, v

    def set_state(self, body, q=None, v=None):
        """Sets body's positions and/or velocities (None: as they are)."""
        q = None if q is None else _array(q, "q")
        v = None if v is None else _array(v, "v")
        self._check(_lib.fec_set_state(self._h, self._index(body), *_doubles(q), *_doubles(v)))

    def masses(self, body):
        """The mass each of body's velocities carries: (m * v).sum over a
        direction is its momentum."""
        i = self._index(body)
        m = np.empty(self.bodies[i]["nv"] if 0 <= i < len(self.bodies) else 0)
        self._check(_lib.fec_masses(self._h, i, *_doubles(m)))
        return m

    def set_force(self, body, f):
        """Sets body's applied force: a rigid body's (fx, fy, moment), a
        component's masses' (fx, fy) each."""
        f = _array(f, "f")
        self._check(_lib.fec_set_force(self._h, self._index(body), *_doubles(f)))

    def contacts(self):
        """The last step's contact units as a structured array (CONTACT):
        body, status (0 open, 1 stick, 2 slide), x, n, t, impulse,
        velocity, force, mu, gap, bonded (1: a cohesion's bond held)."""
        n = ctypes.c_int()
        self._check(_lib.fec_contact_count(self._h, ctypes.byref(n)))
        out = np.zeros(n.value, dtype=CONTACT)
        self._check(_lib.fec_contacts(self._h, out.ctypes.data_as(ctypes.c_void_p), n.value))
        return out

    def save(self, path):
        """Writes the state to path (whole or not at all)."""
        self._check(_lib.fec_save(self._h, os.fsencode(path)))

    def restore(self, path):
        """Reads a state save wrote, for a simulation of the same scene."""
        self._check(_lib.fec_restore(self._h, os.fsencode(path)))
