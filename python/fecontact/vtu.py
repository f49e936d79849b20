"""Reading the VTU pieces and PVD collections fecontact writes, with numpy.

The format is fecontact's own (Go's io/vtk): an unstructured grid, 64-bit
little-endian headers, Float64, Int64 and UInt8 arrays, inline base64,
appended raw or ASCII. The reader follows that writer; it is not a
general VTK reader.
"""

import base64
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np

from ._files import read_bytes

_TYPES = {"Float64": np.dtype("<f8"), "Int64": np.dtype("<i8"), "UInt8": np.dtype("u1")}


@dataclass
class Frame:
    """One piece: points (n x 2), cells (a list of point-index arrays),
    their VTK types, and the point and cell arrays by name (n, or n x 3
    for vectors)."""

    points: np.ndarray
    cells: list
    types: np.ndarray
    point_data: dict = field(default_factory=dict)
    cell_data: dict = field(default_factory=dict)


def _array(el, appended):
    dtype = _TYPES.get(el.get("type"))
    if dtype is None:
        raise ValueError("array %r: type %r: expected Float64, Int64 or UInt8" % (el.get("Name"), el.get("type")))
    fmt = el.get("format")
    if fmt == "ascii":
        return np.array((el.text or "").split(), dtype=float).astype(dtype)
    if fmt == "binary":
        raw = base64.b64decode("".join((el.text or "").split()))
    elif fmt == "appended":
        raw = appended[int(el.get("offset")):]
    else:
        raise ValueError("array %r: format %r" % (el.get("Name"), fmt))
    n = int(np.frombuffer(raw[:8], dtype="<u8")[0])
    return np.frombuffer(raw[8:8 + n], dtype=dtype).copy()


def _shaped(a, comps):
    return a.reshape(-1, comps) if comps > 1 else a


def read_vtu(path):
    """Reads a .vtu piece fecontact wrote into a Frame."""
    data = read_bytes(path, "a VTU piece fecontact wrote")
    appended = b""
    i = data.find(b"<AppendedData")
    if i >= 0:
        j = data.index(b"_", i)
        data, appended = data[:i] + b"</VTKFile>", data[j + 1:]
    root = ET.fromstring(data)
    if root.get("type") != "UnstructuredGrid" or root.get("header_type") != "UInt64":
        raise ValueError("%s: not a fecontact VTU file (UnstructuredGrid, UInt64 headers)" % path)
    piece = root.find("UnstructuredGrid/Piece")
    xyz = _array(piece.find("Points/DataArray"), appended).reshape(-1, 3)
    cells = {a.get("Name"): _array(a, appended) for a in piece.findall("Cells/DataArray")}
    offsets = cells["offsets"]
    starts = np.concatenate([[0], offsets[:-1]]) if len(offsets) else offsets
    conn = cells["connectivity"]
    frame = Frame(points=xyz[:, :2].copy(), cells=[conn[s:e] for s, e in zip(starts, offsets)], types=cells["types"])
    for section, into in (("PointData", frame.point_data), ("CellData", frame.cell_data)):
        for a in piece.findall(section + "/DataArray"):
            into[a.get("Name")] = _shaped(_array(a, appended), int(a.get("NumberOfComponents", "1")))
    return frame


def read_pvd(path):
    """The pieces of a .pvd collection: (time, part, file) in order, the
    files beside the collection."""
    root = ET.fromstring(read_bytes(path, "a PVD collection fecontact wrote"))
    folder = os.path.dirname(path)
    out = []
    for d in root.iter("DataSet"):
        name = d.get("file")
        if not name or os.path.basename(name) != name:
            raise ValueError("%s names %r: expected a file beside the collection" % (path, name))
        out.append((float(d.get("timestep")), int(d.get("part", "0")), os.path.join(folder, name)))
    return out
