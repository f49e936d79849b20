"""Shared fixtures: the binary (built once from the clone, or $FECONTACT)
and a scene built in Python."""

import subprocess

import pytest

import fecontact


@pytest.fixture(scope="session")
def fc():
    """The binary's path: tests call it directly as the CLI user would."""
    return fecontact.binary()


def cli(fc, *args, cwd=None):
    """Runs the binary as a user types it; returns (code, stdout, stderr)."""
    done = subprocess.run([fc] + [str(a) for a in args], capture_output=True, text=True, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def block_scene():
    """An elastic block dropped from 1 mm onto a rough floor, built in
    Python: 4 x 2 Q4 cells, 200 steps."""
    return {
        "title": "a block dropped on a floor, from Python",
        "time": {"h": 1e-4, "duration": 0.02},
        "output": {"every": 20},
        "body": [{
            "name": "block",
            "rectangle": {"kind": "Q4", "origin": [0.0, 0.001], "size": [0.1, 0.05], "cells": [4, 2]},
            "E": 1e7, "nu": 0.3, "rho": 1000, "gravity": [0.0, -9.81], "velocity": [0.2, -0.5],
        }],
        "obstacle": [{"name": "floor", "points": [[-1.0, 0.0], [1.0, 0.0]]}],
        "contact": [{"name": "block-on-floor", "candidate": {"body": "block", "group": "bottom"},
                     "obstacle": "floor", "mu": 0.3}],
    }
