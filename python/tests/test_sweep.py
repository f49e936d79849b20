"""Sweeps from Python: the gathered table, a failed variant marked."""

import numpy as np
import pytest

import fecontact


def test_sweep_returns_the_gathered_table(tmp_path, block_scene):
    table = fecontact.sweep(block_scene, {"contact.block-on-floor.mu": [0.0, 0.3, 0.6], "time.h": [1e-4]},
                            tmp_path / "sw", jobs=2)
    rows = fecontact.records(table)
    assert [r["contact.block-on-floor.mu"] for r in rows] == [0.0, 0.3, 0.6]
    assert [r["folder"] for r in rows] == ["variant_001", "variant_002", "variant_003"]
    fw = [r["friction_work"] for r in rows]
    assert fw[0] == 0 and fw[1] < 0 and fw[2] < 0  # no friction, no friction work; never a gain
    # Each variant's folder is a run whose history the table's figures come from.
    run = fecontact.open_run(tmp_path / "sw" / "variant_002")
    assert run.row(-1)["friction_work"] == pytest.approx(fw[1], rel=1e-6)


def test_sweep_range_and_failures(tmp_path, block_scene):
    with pytest.raises(fecontact.FecontactError, match="no \\[\\[contact\\]\\] named"):
        fecontact.sweep(block_scene, {"contact.nope.mu": [0.1]}, tmp_path / "a")
    table = fecontact.sweep(block_scene, {"time.duration": "0.002..0.004/2"}, tmp_path / "b")
    assert np.allclose(np.asarray(table["time.duration"]), [0.002, 0.004])


def test_sweep_refused_raises_not_the_earlier_table(tmp_path, block_scene):
    """A sweep refused into a folder another sweep wrote and holds (in
    use) raises the binary's refusal instead of returning that sweep's
    table with a warning."""
    out = tmp_path / "sw"
    fecontact.sweep(block_scene, {"time.h": [1e-4]}, out)
    (out / "notes.txt").write_text("mine")
    import fcntl
    import os
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running command holds it
        with pytest.raises(fecontact.FecontactError, match="is in use by"):
            fecontact.sweep(block_scene, {"time.h": [2e-4]}, out)
    finally:
        os.close(fd)
