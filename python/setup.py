"""Records the clone a package is installed from (fecontact/_clone.py), so
that an installed package builds the binary from that clone's sources
(pyproject.toml holds everything else)."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class RecordClone(build_py):
    def run(self):
        super().run()
        out = Path(self.build_lib) / "fecontact" / "_clone.py"
        out.write_text("CLONE = %r\n" % str(Path(__file__).resolve().parents[1]))


setup(cmdclass={"build_py": RecordClone})
