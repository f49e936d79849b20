"""The numpy VTU reader against VTK's own reader, on every series of
three examples and in each encoding."""

import os

import numpy as np
import pytest

import fecontact

vtk = pytest.importorskip("vtk", reason="VTK's Python modules are not installed (apt-get install python3-vtk9, or python3-paraview)") \
    if not os.environ.get("CI") else __import__("vtk")
from vtk.util.numpy_support import vtk_to_numpy  # noqa: E402


def vtk_read(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def assert_same(frame, grid, path):
    pts = vtk_to_numpy(grid.GetPoints().GetData()) if grid.GetNumberOfPoints() else np.zeros((0, 3))
    np.testing.assert_array_equal(frame.points, pts[:, :2], err_msg=path)
    assert len(frame.cells) == grid.GetNumberOfCells(), path
    for i, c in enumerate(frame.cells):
        ids = grid.GetCell(i).GetPointIds()
        assert list(c) == [ids.GetId(k) for k in range(ids.GetNumberOfIds())], path
        assert frame.types[i] == grid.GetCellType(i), path
    for data, mine in ((grid.GetPointData(), frame.point_data), (grid.GetCellData(), frame.cell_data)):
        names = {data.GetArrayName(k) for k in range(data.GetNumberOfArrays())}
        assert names == set(mine), path
        for name in names:
            np.testing.assert_array_equal(mine[name], vtk_to_numpy(data.GetArray(name)), err_msg="%s %s" % (path, name))


@pytest.mark.parametrize("example, args", [
    ("colliding-blocks", ["--steps", "100"]),   # bodies, contacts
    ("pillar", ["--steps", "300"]),             # rigid, contacts (rigid units)
    ("point-impact", []),                       # masses, obstacles
])
def test_every_series_reads_as_vtk_reads_it(tmp_path, fc, example, args):
    from conftest import cli

    code, _, err = cli(fc, "run", example, "-o", tmp_path, "--quiet", *args)
    assert code == 0, err
    run = fecontact.open_run(tmp_path)
    series = sorted(p.stem for p in tmp_path.glob("*.pvd"))
    assert len(series) >= 2
    pieces = 0
    for name in series:
        for t, part, path in fecontact.read_pvd(str(tmp_path / (name + ".pvd"))):
            assert_same(fecontact.read_vtu(path), vtk_read(path), path)
            pieces += 1
        assert len(run.series(name)) > 0
    assert pieces > 10


@pytest.mark.parametrize("encoding", ["base64", "raw", "ascii"])
def test_encodings(tmp_path, block_scene, encoding):
    block_scene["output"]["encoding"] = encoding
    run = fecontact.run(block_scene, tmp_path, quiet=True, steps=40)
    for name in ("bodies", "contacts"):
        for t, part, path in fecontact.read_pvd(str(tmp_path / (name + ".pvd"))):
            assert_same(fecontact.read_vtu(path), vtk_read(path), path)
    f = run.series("contacts")[-1][2]
    assert f.point_data["force"].shape == (len(f.points), 3)


def test_not_a_fecontact_file(tmp_path):
    p = tmp_path / "x.vtu"
    p.write_text('<VTKFile type="PolyData" header_type="UInt32"><PolyData/></VTKFile>')
    with pytest.raises(ValueError, match="not a fecontact VTU file"):
        fecontact.read_vtu(str(p))
    pvd = tmp_path / "x.pvd"
    pvd.write_text('<VTKFile type="Collection"><Collection><DataSet timestep="0" file="../etc/passwd"/></Collection></VTKFile>')
    with pytest.raises(ValueError, match="beside the collection"):
        fecontact.read_pvd(str(pvd))


def test_special_files_refused_at_once(tmp_path):
    """A device, a named pipe or a folder where a piece should be is
    refused by name at once (/dev/zero ran out of memory, a FIFO hung)."""
    fifo = tmp_path / "fifo.vtu"
    os.mkfifo(fifo)
    for path, what in (("/dev/zero", "a device"), (str(fifo), "a named pipe"), (str(tmp_path), "a folder")):
        for read in (fecontact.read_vtu, fecontact.read_pvd):
            with pytest.raises(fecontact.FecontactError, match="%s: %s, not a file" % (path, what)):
                read(path)
    link = tmp_path / "contacts.pvd"
    link.symlink_to("/dev/zero")
    (tmp_path / "summary.txt").write_text("done: 1 step\n")
    with pytest.raises(fecontact.FecontactError, match="a device, not a file"):
        fecontact.open_run(tmp_path).series("contacts")
