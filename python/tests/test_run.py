"""Runs from Python: the same files as the CLI's, the results read back,
Ctrl-C and resume."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import fecontact
from conftest import cli


def test_python_scene_history_is_the_clis(tmp_path, fc, block_scene):
    run = fecontact.run(block_scene, tmp_path / "py", quiet=True)
    fecontact.write_scene(block_scene, tmp_path / "scene.toml")
    code, _, err = cli(fc, "run", tmp_path / "scene.toml", "-o", tmp_path / "cli", "--quiet")
    assert code == 0, err
    assert (tmp_path / "py" / "history.csv").read_bytes() == (tmp_path / "cli" / "history.csv").read_bytes()
    for name in ("bodies.pvd", "contacts.pvd"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    assert run.row(-1)["step"] == 200


def test_history_energy_and_pair_forces(tmp_path, block_scene):
    run = fecontact.run(block_scene, tmp_path / "out", quiet=True)
    h = run.history
    assert run.units["time"] == "s" and run.units["kinetic"] == "J" and "step" not in run.units
    e = run.energy()
    # The ledger: the total with the works booked stays the initial energy.
    total0 = run.row(0)["total_energy"]
    assert np.max(np.abs(np.asarray(e["total_energy"]) - total0)) < 1e-9 * max(total0, 1.0)
    assert np.allclose(e["balance_error"], np.asarray(e["total_energy"]) - total0, rtol=1e-2, atol=1e-12 * max(total0, 1.0))
    assert run.units["balance_error"] == "J"
    assert np.all(np.asarray(e["friction_work"]) <= 1e-12)  # friction never gives energy
    forces = run.pair_forces()["block-on-floor"]
    fy = np.asarray(forces["fy"])
    closed = np.asarray(forces["closed"])
    assert fy.max() > 0 and np.all(fy[closed == 0] == 0)
    assert len(np.asarray(h["time"])) == 201
    s = run.summary
    assert s["steps"] == 200 and s["contact"]["unconverged"] == 0 and s["format"] == fecontact.FORMAT
    assert s["energy"]["kinetic"]["unit"] == "J" and isinstance(s["energy"]["kinetic"]["value"], float)
    assert "summary.json" in s["files"]
    assert not run.stopped
    frames = run.series("bodies")
    assert len(frames) == 11 and frames[-1][0] == pytest.approx(0.02)
    assert frames[0][2].points.shape == (15, 2) and len(frames[0][2].cells) == 8
    with pytest.raises(fecontact.FecontactError, match="no rigid.pvd"):
        run.series("rigid")


def test_summary_json_non_finite_figures(tmp_path):
    (tmp_path / "summary.txt").write_text("done: 1 step\n")
    (tmp_path / "summary.json").write_text('{"min_gap": {"value": "+Inf", "unit": "m"}, "contact": {"largest_residual": "NaN"}}')
    s = fecontact.open_run(tmp_path).summary
    assert s["min_gap"]["value"] == float("inf") and np.isnan(s["contact"]["largest_residual"])


def test_format1_history_is_read_as_format2(tmp_path):
    (tmp_path / "history.csv").write_text("step,time [s],kinetic [J],balance [J],sweeps\n0,0,2,2,0\n1,0.1,1.5,2.25,3\n")
    run = fecontact.open_run(tmp_path)
    assert run.energy().dtype.names == ("time", "kinetic", "total_energy", "balance_error")
    assert run.row(-1)["total_energy"] == 2.25 and run.row(-1)["balance_error"] == 0.25
    assert run.units["total_energy"] == "J" and run.units["balance_error"] == "J"


def test_one_table_type_and_its_frame(tmp_path, block_scene):
    run = fecontact.run(block_scene, tmp_path / "out", quiet=True, steps=10)
    h = run.history
    assert type(h) is fecontact.Table and isinstance(h, np.recarray)
    e = run.energy()
    assert type(e) is fecontact.Table and e.units["kinetic"] == "J" and "step" not in e.units
    f = run.pair_forces()["block-on-floor"]
    assert f.dtype.names == ("time", "fx", "fy", "closed") and f.units["fx"] == "N/m"
    pd = pytest.importorskip("pandas")
    frame = h.frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(h.dtype.names)
    assert frame.attrs["units"]["kinetic"] == "J" and frame["kinetic"].iloc[-1] == h["kinetic"][-1]
    assert fecontact.records(frame) == fecontact.records(h)


def test_without_pandas(tmp_path, block_scene, monkeypatch):
    run = fecontact.run(block_scene, tmp_path / "out", quiet=True, steps=10)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas fails
    h = fecontact.open_run(tmp_path / "out").history
    assert type(h) is fecontact.Table and h["kinetic"].shape == (11,) and h.units["kinetic"] == "J"
    assert run.row(-1)["step"] == 10
    assert fecontact.records(h)[0]["time"] == 0


def test_ctrl_c_stops_at_a_consistent_point_and_resume_goes_on(tmp_path, block_scene):
    block_scene["time"]["duration"] = 50.0  # 500 000 steps: stopped at its first progress line (10 %)
    block_scene["output"]["every"] = 10000
    fecontact.write_scene(block_scene, tmp_path / "long.toml")
    # The child takes Ctrl-C as a terminal's Python does, even where this
    # test runs in a background job, whose shell leaves SIGINT ignored.
    script = textwrap.dedent(f"""
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import fecontact
        try:
            fecontact.run({str(tmp_path / "long.toml")!r}, {str(tmp_path / "out")!r})
        except KeyboardInterrupt:
            print("KeyboardInterrupt raised", flush=True)
    """)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(fecontact.__file__)), FECONTACT=fecontact.binary())
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    for line in p.stdout:  # the run is under way once it prints progress
        if line.startswith("step "):
            break
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert "KeyboardInterrupt raised" in out, err
    run = fecontact.open_run(tmp_path / "out")
    assert run.stopped and run.summary["made_by"] and run.summary["interrupted"]
    stopped_at = run.row(-1)["time"]
    run.resume(until=stopped_at + 0.01, quiet=True)
    assert run.row(-1)["time"] == pytest.approx(stopped_at + 0.01)
    t = np.asarray(run.history["time"])
    assert np.all(np.diff(t) > 0)  # one history, no step twice


def test_flags_are_the_binarys(tmp_path, block_scene):
    run = fecontact.run(block_scene, tmp_path / "out", quiet=True, steps=20, every=5)
    assert len(run.series("bodies")) == 5
    with pytest.raises(fecontact.FecontactError, match="flag provided but not defined: -bogus"):
        fecontact.run(block_scene, tmp_path / "out2", quiet=True, bogus=1)


def test_plot_house_style(tmp_path):
    """Run.plot as the binary draws: SI-prefixed units, the legend beside
    the data (outside the axes), the bodies framed on those that move (the
    pillar's blocks, not its 20 m driven ground)."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    run = fecontact.run("pillar", tmp_path / "out", quiet=True, steps=100)
    ax = run.plot("energy")
    assert ax.get_ylabel() == "energy [J]" or ax.get_ylabel() == "energy [kJ]"
    leg = ax.get_legend()
    fig = ax.figure
    fig.canvas.draw()
    box, axes = leg.get_window_extent(), ax.get_window_extent()
    assert box.x0 >= axes.x1, "the legend is beside the data, not over it"
    assert ax.get_xlabel() == "time [ms]"
    ax = run.plot("bodies")
    x0, x1 = ax.get_xlim()
    assert x1 - x0 < 2.0, "framed on the blocks (0.9 m wide), not the 20 m ground"
    assert x0 < -0.45 and x1 > 0.45


def test_plot_bodies_of_every_kind(tmp_path):
    """Run.plot("bodies") draws whatever series a run wrote: elastic
    bodies' cells, point masses as dots with their springs."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    run = fecontact.run("klarbring", tmp_path / "k", quiet=True, steps=50)
    ax = run.plot("bodies")
    dots = [l for l in ax.lines if l.get_marker() == "o"]
    assert len(dots) == 1, "the mass"
    assert any(l.get_color() == "k" for l in ax.lines), "its spring"
    run = fecontact.run("colliding-blocks", tmp_path / "b", quiet=True, steps=300)
    ax = run.plot("bodies")
    x0, x1 = ax.get_xlim()
    assert x0 < 0.0 and x1 > 0.12, "both blocks framed"
    # The upper block drawn where it has moved (-75 m/s for 0.3 ms, less
    # what the contact took), not on its reference mesh at x = 0.07..0.11.
    right = max(l.get_xdata().max() for l in ax.lines if l.get_ydata().min() > 0.0405)
    assert right < 0.11 - 0.01, right
