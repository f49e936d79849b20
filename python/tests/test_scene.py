"""Scenes as dicts: written to TOML and read back, the examples' scenes,
and a mistaken scene refused with the binary's message."""

import tomllib

import numpy as np
import pytest

import fecontact
from fecontact.scene import dumps


def test_dumps_reads_back(block_scene):
    s = dict(block_scene, extra={"weird key": "a \"quoted\"\nline", "v": np.array([1.5, -2.0]), "n": np.int64(3)})
    back = tomllib.loads(dumps(s))
    assert back["body"][0]["rectangle"]["cells"] == [4, 2]
    assert back["extra"] == {"weird key": "a \"quoted\"\nline", "v": [1.5, -2.0], "n": 3}
    assert back["time"]["h"] == 1e-4  # repr keeps every digit
    assert tomllib.loads(dumps({"time": {"h": 0.1 + 0.2}}))["time"]["h"] == 0.1 + 0.2


@pytest.mark.parametrize("bad, err", [({"time": {"h": object()}}, TypeError), ({"time": {1: 2}}, TypeError)])
def test_dumps_refuses_what_toml_cannot_say(bad, err):
    with pytest.raises(err):
        dumps(bad)


def test_example_scene_runs_from_anywhere(tmp_path, monkeypatch):
    sc = fecontact.example_scene("colliding-blocks")
    assert [b["name"] for b in sc["body"]] == ["lower", "upper"]
    sc["time"]["duration"] = 2e-5  # a copy: the next call is the example's again
    assert fecontact.example_scene("colliding-blocks")["time"]["duration"] == 7.5e-4
    monkeypatch.chdir(tmp_path)
    run = fecontact.run(sc, "out", quiet=True)
    assert run.row(-1)["time"] == pytest.approx(2e-5)
    gm = fecontact.example_scene("disc-on-block")  # a Gmsh mesh: named by its absolute path
    assert any(b.get("gmsh", "/").startswith("/") for b in gm["body"])


@pytest.mark.parametrize("edit, message, key", [
    (lambda s: s["body"][0].update(velocty=[0, 1]), "velocty", 'scene["body"][0]["velocty"]'),
    (lambda s: s["contact"][0].update(mu=-0.3), "mu", 'scene["contact"][0]["mu"]'),
    (lambda s: s["time"].update(h=float("nan")), "h", 'scene["time"]["h"]'),
    (lambda s: s["body"][0].update(E=-1.0), "E = -1", 'scene["body"][0]["E"]'),
    (lambda s: s["body"][0]["rectangle"].update(sise=[1, 1]), "sise", 'scene["body"][0]["rectangle"]["sise"]'),
])
def test_mistaken_scene_raises_the_binarys_message(tmp_path, block_scene, edit, message, key):
    edit(block_scene)
    with pytest.raises(fecontact.FecontactError) as e:
        fecontact.run(block_scene, tmp_path / "out", quiet=True)
    # The dict is named, not a temporary file the user never wrote, nor its
    # lines, and so is the key the message is about.
    assert str(e.value).startswith("fecontact run: the scene dict: ") and message in str(e.value), str(e.value)
    assert str(e.value).endswith(" [in the dict: %s]" % key), str(e.value)
    assert "scene.toml" not in str(e.value) and "(line " not in str(e.value)
    assert not (tmp_path / "out" / "history.csv").exists()


def test_dumps_any_text_and_numpy_scalars():
    """Text outside the BMP is written as itself (JSON's surrogate pairs
    are not TOML), control characters escaped; numpy scalars as numbers
    (numpy 2's repr is np.float64(0.4)); a lone surrogate refused naming
    the key."""
    s = {"title": "crack \U0001F4A5 \"q\" \\ \x01\x7f é\n", "time": {"h": np.float64(0.4), "n": np.int64(3), "b": np.bool_(True)},
         "mass": [{"name": "m", "position": np.array([1.5, np.float32(2)])}]}
    back = tomllib.loads(dumps(s))
    assert back["title"] == s["title"]
    assert back["time"] == {"h": 0.4, "n": 3, "b": True}
    assert "np.float64" not in dumps(s)
    with pytest.raises(ValueError, match=r"scene mass\[0\].name: character 2 is a lone surrogate"):
        dumps({"mass": [{"name": "a\udcff"}]})
    with pytest.raises(TypeError, match=r"scene time.h: a value of type object"):
        dumps({"time": {"h": object()}})


def test_example_with_a_record_runs_from_anywhere(tmp_path, monkeypatch):
    """The shake table's record (a CSV beside its scene) is named by its
    absolute path, so that the example's dict runs from any folder."""
    sc = fecontact.example_scene("shake-wall")
    assert sc["rigid"][0]["motion"]["file"].startswith("/")
    sc["time"]["duration"] = 0.05
    monkeypatch.chdir(tmp_path)
    run = fecontact.run(sc, "out", quiet=True)
    assert run.row(-1)["time"] == pytest.approx(0.05)
