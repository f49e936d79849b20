"""A simulation stepped in process through the C ABI: the same history as
the binary's run, states and forces set between steps with the ledger
closed, the controller example, save and restore, and every refusal a
SimulationError with its code and message."""

import csv
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fecontact
from conftest import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# history.csv's columns the in-process calls give, and their formats.
COLUMNS = [("time", "%.9g", lambda s, e, st: s.time)] + [
    (col, "%.12g", lambda s, e, st, k=key: e[k]) for col, key in [
        ("kinetic", "kinetic"), ("elastic", "elastic"), ("external_work", "external"), ("damping_loss", "damping"),
        ("numerical_dissipation", "numerical"), ("contact_work", "contact"), ("total_energy", "total_energy"),
        ("normal_work", "normal_work"), ("friction_work", "friction_work"), ("obstacle_work", "obstacle_work"),
        ("push_out_work", "push_out_work")]] + [
    (col, "%d", lambda s, e, st, k=key: st[k]) for col, key in [
        ("contacts", "units"), ("open", "open"), ("stick", "stick"), ("slide", "slide"), ("sweeps", "sweeps")]] + [
    ("residual", "%.3g", lambda s, e, st: st["residual"]), ("complementarity_rel", "%.3g", lambda s, e, st: st["complementarity"]),
    ("cone_violation", "%.3g", lambda s, e, st: st["cone_violation"]), ("converged", "%d", lambda s, e, st: st["converged"])]


def test_in_process_history_is_the_runs(tmp_path, fc):
    code, _, err = cli(fc, "example", "colliding-blocks", "-o", tmp_path / "run", "--quiet")
    assert code == 0, err
    with open(tmp_path / "run" / "history.csv") as f:
        rows = list(csv.reader(f))
    index = {name.split(" [")[0]: j for j, name in enumerate(rows[0])}
    with fecontact.Simulation("colliding-blocks") as sim:
        for step in range(1, 751):
            st = sim.step()
            e = sim.energy()
            for col, fmt, get in COLUMNS:
                assert fmt % get(sim, e, st) == rows[step + 1][index[col]], (step, col)
        q, v = sim.state("upper")
        m = sim.masses("upper")
    vx, vy = (m[0::2] * v[0::2]).sum() / m[0::2].sum(), (m[1::2] * v[1::2]).sum() / m[1::2].sum()
    assert vx == pytest.approx(-65.4, abs=0.05) and vy == pytest.approx(40.0, abs=0.05)
    assert q.shape == (242,) and q.dtype == np.float64


def test_state_force_contacts_and_ledger():
    scene = {
        "time": {"h": 1e-3, "duration": 1.0},
        "rigid": [{"name": "floor", "rectangle": [4.0, 0.1], "position": [0.0, -0.05], "motion": {"type": "fixed"}},
                  {"name": "disk", "radius": 0.1, "position": [0.0, 0.1], "rho": 1000, "gravity": [0.0, -9.81]}],
        "rigid_contacts": {"rule": [{"groups": ["*", "*"], "mu": 0.5}]},
    }
    with fecontact.Simulation(scene) as sim:
        assert [b["name"] for b in sim.bodies] == ["floor", "disk"]
        assert sim.bodies[1] == {"name": "disk", "kind": "rigid bodies", "nq": 3, "nv": 3, "nf": 3}
        sim.step(10)
        # A moment on the disk: it rolls without slipping (mu 0.5 holds it
        # for this one), its contact point at rest, v = -omega r.
        sim.set_force("disk", [0.0, 0.0, 2.0])
        sim.step(200)
        q, v = sim.state("disk")
        mass, r = np.pi * 0.1**2 * 1000, 0.1
        alpha = 2.0 / (1.5 * mass * r**2)  # M / (I + m r^2), I = m r^2 / 2
        assert v[2] == pytest.approx(alpha * 0.2, rel=1e-9) and v[0] == pytest.approx(-v[2] * r, rel=1e-9)
        c = sim.contacts()
        assert c.dtype == fecontact.CONTACT and len(c) == 1
        assert c["status"][0] == 1 and c["body"][0] == 1
        assert c["force"][0][1] == pytest.approx(np.pi * 0.01 * 1000 * 9.81, rel=1e-6)
        e = sim.energy()
        assert e["total_energy"] == pytest.approx(0.0, abs=1e-9 * e["external"])
        assert e["balance_error"] == pytest.approx(0.0, abs=1e-9 * e["external"])
        assert e["friction_work"] <= 1e-12 and e["normal_work"] <= 1e-12


def test_a_glued_mass_shows_its_bond():
    # A mass glued to a floor (a bond of 100 N/m) pulled up by a force
    # ramped from 0 to 200 N/m over 20 ms: bonded, in tension, at 5 ms;
    # broken, gone, after 10 ms.
    scene = {
        "time": {"h": 1e-4, "duration": 0.015},
        "mass": [{"name": "m", "mass": 1.0, "position": [0.0, 0.0], "force": [0.0, 200.0],
                  "load_time": {"type": "ramp", "duration": 0.02}}],
        "obstacle": [{"name": "floor", "points": [[-1.0, 0.0], [1.0, 0.0]]}],
        "point_contact": [{"obstacle": "floor", "mu": 0.4, "cohesion": 100.0}],
    }
    with fecontact.Simulation(scene) as sim:
        sim.step(50)
        c = sim.contacts()
        assert len(c) == 1 and c["bonded"][0] == 1
        assert c["force"][0][1] == pytest.approx(-200.0 * 0.00495 / 0.02, rel=1e-6)  # the glue holds the force at mid-step
        sim.step(60)
        c = sim.contacts()
        assert not c["bonded"].any()
        assert sim.state(0)[1][1] > 0  # it flies off


def test_save_restore_goes_on_bit_for_bit(tmp_path):
    with fecontact.Simulation("point-impact") as sim:
        sim.step(50)
        sim.save(tmp_path / "state.gob")
        sim.step(50)
        want = [sim.state(i) for i in range(len(sim.bodies))], sim.energy()
        sim.restore(tmp_path / "state.gob")
        assert sim.time == pytest.approx(50e-4)
        sim.step(50)
        got = [sim.state(i) for i in range(len(sim.bodies))], sim.energy()
    for (q1, v1), (q2, v2) in zip(want[0], got[0]):
        assert np.array_equal(q1, q2) and np.array_equal(v1, v2)
    assert want[1] == got[1]


def test_refusals():
    with pytest.raises(fecontact.SimulationError) as e:
        fecontact.Simulation({"time": {"h": -1.0}})
    assert e.value.code == "ESCENE" and "scene dict" in str(e.value) and "h" in str(e.value)
    assert str(e.value).endswith('[in the dict: scene["time"]["h"]]'), str(e.value)
    with pytest.raises(fecontact.SimulationError) as e:
        fecontact.Simulation("no-such-example")
    assert e.value.code == "ESCENE"
    sim = fecontact.Simulation("point-impact")
    with pytest.raises(KeyError, match="nobody.*the bodies are masses of"):
        sim.state("nobody")
    with pytest.raises(fecontact.SimulationError) as e:
        sim.state(99)
    assert e.value.code == "EARGUMENT" and "body 99" in str(e.value)
    q, v = sim.state(0)
    v[0] = np.nan
    with pytest.raises(fecontact.SimulationError) as e:
        sim.set_state(0, v=v)
    assert e.value.code == "ESTATE" and "NaN" in str(e.value)
    with pytest.raises(fecontact.SimulationError) as e:
        sim.set_state(0, v=v[:1])
    assert e.value.code == "EARGUMENT"
    with pytest.raises(fecontact.SimulationError) as e:
        sim.step(0)
    assert e.value.code == "EARGUMENT"
    with pytest.raises(fecontact.SimulationError) as e:
        sim.restore(os.devnull)
    assert e.value.code == "EFILE"
    sim.close()
    with pytest.raises(fecontact.SimulationError) as e:
        sim.step()
    assert e.value.code == "EHANDLE"


def test_controller_example():
    env = dict(os.environ, PYTHONPATH=str(Path(fecontact.__file__).parents[1]))
    done = subprocess.run([sys.executable, str(EXAMPLES / "controller.py")], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "kicked at t = 0, 0.3, 0.6, 0.9 s",
        "the block went 0.4077 m (closed form 0.4077 m)",
        done.stdout.splitlines()[2],
    ]
    assert done.stdout.splitlines()[2].startswith("kicks' work 40.0000 J, friction work -40.0000 J, balance error ")
