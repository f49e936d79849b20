"""Builders and loads as dict helpers: the same TOML as a scene file, run
by the binary, which expands and checks them."""

import numpy as np
import pytest

import fecontact


def test_wall_on_a_recorded_table_and_random_grains(tmp_path):
    csv = tmp_path / "ground.csv"
    csv.write_text("time [s],a [g]\n0,0\n0.05,0.1\n0.1,0\n")
    scene = {
        "title": "a wall and a sample from Python",
        "time": {"h": 1e-3, "duration": 0.05},
        "rigid": [{"name": "table", "group": "table", "rectangle": [3.0, 0.2], "position": [0.5, -0.1],
                   "motion": fecontact.record_motion(csv, column="a [g]", scale=9.81)}],
        "wall": [fecontact.wall("w", origin=(0.0, 0.0), courses=3, blocks=2, size=(0.3, 0.15))],
        "grains": [fecontact.random_grains("g", region=((1.0, 0.0), (1.6, 0.6)), radius=(0.02, 0.03), solid_fraction=0.3,
                                           seed=3)],
        "rigid_contacts": {"rule": [{"groups": ["*", "*"], "mu": 0.6}]},
    }
    run = fecontact.run(scene, tmp_path / "out", quiet=True)
    assert run.row(-1)["time"] == pytest.approx(0.05)
    t, part, frame = run.series("rigid")[-1]
    # The table, the sample's grains and the wall's 2 + 3 + 2 blocks (the
    # running bond's middle course has a half block at each end), in that
    # order.
    grains = len(frame.cells) - 1 - 7
    area = sum(frame.cell_data["area"][1:1 + grains])
    assert grains > 10 and area / 0.36 == pytest.approx(0.3, abs=0.01)
    assert sum(frame.cell_data["area"][1 + grains:]) == pytest.approx(6 * 0.3 * 0.15, rel=1e-9)
    # The record is named by its absolute path: the scene runs from anywhere.
    assert scene["rigid"][0]["motion"]["file"] == str(csv)


def test_deposited_grains_rest_in_their_box(tmp_path):
    # 120 disks deposited in a box 0.1 m wide: touching and at rest from
    # the start, they settle by a small part of a radius (friction 0.3
    # does not hold every geometric rest exactly: 2e-5 m), a few of the
    # surface rolling less than a radius.
    scene = {
        "time": {"h": 2e-4, "duration": 0.02},
        "solver": {"measure": "velocity", "tolerance": 1e-4},
        "rigid": [{"name": "floor", "rectangle": [0.2, 0.02], "position": [0.05, -0.01], "motion": {"type": "fixed"}},
                  {"name": "left", "rectangle": [0.02, 0.3], "position": [-0.01, 0.15], "motion": {"type": "fixed"}},
                  {"name": "right", "rectangle": [0.02, 0.3], "position": [0.11, 0.15], "motion": {"type": "fixed"}}],
        "grains": [fecontact.deposited_grains("g", region=((0.0, 0.0), (0.1, 0.3)), radius=(0.003, 0.005), count=120, seed=2)],
        "rigid_contacts": {"rule": [{"groups": ["*", "*"], "mu": 0.3}]},
    }
    run = fecontact.run(scene, tmp_path / "out", quiet=True)
    first, last = run.series("rigid")[0][2], run.series("rigid")[-1][2]
    moved = np.hypot(*(np.asarray(last.cell_data["centre"]) - np.asarray(first.cell_data["centre"]))[:, :2].T)
    assert len(first.cells) == 3 + 120
    assert np.median(moved) < 1e-4 and moved.max() < 0.003


def test_deposited_polygons_do_not_overlap(tmp_path):
    # 40 polygons deposited as their circumscribed disks: nothing to push
    # apart at the start, each inside the box.
    scene = {
        "time": {"h": 2e-4, "duration": 0.002},
        "rigid": [{"name": "floor", "rectangle": [0.2, 0.02], "position": [0.05, -0.01], "motion": {"type": "fixed"}},
                  {"name": "left", "rectangle": [0.02, 0.3], "position": [-0.01, 0.15], "motion": {"type": "fixed"}},
                  {"name": "right", "rectangle": [0.02, 0.3], "position": [0.11, 0.15], "motion": {"type": "fixed"}}],
        "grains": [fecontact.deposited_grains("g", region=((0.0, 0.0), (0.1, 0.3)), radius=(0.004, 0.006), count=40,
                                              seed=3, sides=(4, 6))],
        "rigid_contacts": {"rule": [{"groups": ["*", "*"], "mu": 0.3}]},
    }
    run = fecontact.run(scene, tmp_path / "out", quiet=True)
    first = run.series("rigid")[0][2]
    centres = np.asarray(first.cell_data["centre"])[3:, :2]
    assert len(centres) == 40
    assert centres[:, 0].min() > 0.0 and centres[:, 0].max() < 0.1 and centres[:, 1].min() > 0.0
    assert run.row(-1)["push_out_work"] == 0


def test_graded_grains_take_the_tables_radii(tmp_path):
    scene = {
        "time": {"h": 2e-4, "duration": 0.0004},
        "rigid": [{"name": "floor", "rectangle": [0.2, 0.02], "position": [0.05, -0.01], "motion": {"type": "fixed"}}],
        "grains": [fecontact.deposited_grains("g", region=((0.0, 0.0), (0.1, 0.3)), count=60, seed=1,
                                              sizes=((0.003, 1.0), (0.005, 1.0)))],
        "rigid_contacts": {"rule": [{"groups": ["*", "*"], "mu": 0.3}]},
    }
    run = fecontact.run(scene, tmp_path / "out", quiet=True)
    radii = np.asarray(run.series("rigid")[0][2].cell_data["radius"])[1:]
    assert len(radii) == 60 and set(np.round(radii, 9)) == {0.003, 0.005}


def test_traction_pulls_a_bar(tmp_path):
    scene = {
        "time": {"h": 1e-4, "duration": 0.01},
        "body": [{"name": "bar", "rectangle": {"kind": "Q4", "origin": [0.0, 0.0], "size": [1.0, 0.1], "cells": [10, 1]},
                  "E": 1e9, "nu": 0.0, "rho": 1000, "plane": "stress", "fixed": [{"group": "left"}],
                  "traction": [fecontact.traction("right", value=(1e5, 0.0))]}],
    }
    run = fecontact.run(scene, tmp_path / "out", quiet=True)
    assert run.row(-1)["external_work"] > 0


@pytest.mark.parametrize("call, message", [
    (lambda: fecontact.traction("right"), "give value or pressure"),
    (lambda: fecontact.random_grains("g", ((0, 0), (1, 1)), (0.1, 0.2)), "give count or solid_fraction"),
    (lambda: fecontact.deposited_grains("g", ((0, 0), (1, 1)), (0.1, 0.2)), "give count or solid_fraction"),
    (lambda: fecontact.random_grains("g", ((0, 0), (1, 1)), count=3), "give radius = .min, max. or sizes"),
])
def test_helpers_refuse_what_the_scene_would(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_binary_refuses_a_bad_wall(tmp_path):
    scene = {"time": {"h": 1e-3, "duration": 0.01}, "wall": [fecontact.wall("w", origin=(0, 0), courses=0, blocks=2, size=(0.3, 0.15))]}
    with pytest.raises(fecontact.FecontactError, match=r'the scene dict: wall "w": courses x blocks = 0 x 2'):
        fecontact.run(scene, tmp_path / "out", quiet=True)


def test_load_time_ramp_on_a_mass(tmp_path):
    """A mass pushed by 2 N ramped over 0.1 s (load_time from Python): at
    0.1 s it has v = F T / (2 m) = 0.2 m/s, the ramp's impulse, exactly;
    a table from a CSV beside the script gives the same."""
    (tmp_path / "f.csv").write_text("t,f\n0,0\n0.1,1\n")
    for lt in (fecontact.load_time("ramp", duration=0.1), fecontact.load_time("table", file=tmp_path / "f.csv")):
        scene = {"time": {"h": 1e-3, "duration": 0.1},
                 "mass": [{"name": "m", "mass": 0.5, "position": [0.0, 0.0], "force": [2.0, 0.0], "load_time": lt}]}
        run = fecontact.run(scene, tmp_path / ("out-" + lt["type"]), quiet=True)
        assert run.row(-1)["m_vx"] == pytest.approx(0.2, abs=1e-12)


def test_arch_stands_from_python(tmp_path):
    """An arch built from Python (fecontact.arch) on a ground stands at a
    ring depth above Heyman's least thickness: its crown settles less
    than 0.1 mm in 0.5 s."""
    scene = {"time": {"h": 1e-3, "duration": 0.5}, "solver": {"measure": "velocity", "tolerance": 1e-5},
             "rigid": [{"name": "ground", "rectangle": [6.0, 0.2], "position": [0.0, -0.1], "motion": {"type": "fixed"}}],
             "arch": [fecontact.arch("a", (0.0, 0.0), 1.0, 0.16, 15)],
             "rigid_contacts": {"rule": [{"groups": ["*", "*"], "mu": 0.8}]}}
    run = fecontact.run(scene, tmp_path / "out", quiet=True)
    y = np.asarray(run.history["a_v8_cy"])
    assert abs(y[-1] - y[0]) < 1e-4 and len(y) == 501
