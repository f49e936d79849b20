"""fecontact from Python: scenes, runs, sweeps and results.

The package drives the ``fecontact`` binary (found on PATH, through the
``FECONTACT`` environment variable, or built from the clone it sits in
with ``go build``) and reads what a run writes with numpy alone:

    import fecontact
    run = fecontact.run("colliding-blocks", "out")
    print(run.row(-1)["kinetic"], run.units["kinetic"])
    t, part, frame = run.series("bodies", body="upper")[-1]

``fecontact.Simulation`` steps a scene in this process instead, through
the C ABI (libfecontact.so): read and set states and forces between steps,
read the contacts and the ledger (docs/embedding.md).

Scenes are nested dicts mirroring the TOML reference (docs/guide.md,
*Scene files*); the binary stays their one validator, and a mistaken
scene raises FecontactError with its message.
"""

from ._binary import FORMAT, FecontactError, binary
from .builders import arch, deposited_grains, load_time, random_grains, record_motion, traction, wall
from .inproc import CONTACT, Simulation, SimulationError
from .runs import Run, Table, explore, open_run, records, run, sweep
from .scene import example_scene, read_scene, write_scene
from .vtu import Frame, read_pvd, read_vtu

__all__ = ["CONTACT", "arch", "deposited_grains", "FORMAT", "FecontactError", "Frame", "Run", "Simulation", "SimulationError", "Table", "binary", "example_scene", "explore", "load_time", "open_run", "random_grains",
           "read_pvd", "read_scene", "read_vtu", "record_motion", "records", "run", "sweep", "traction", "wall", "write_scene"]
__version__ = "0.1.0"
