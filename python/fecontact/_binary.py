"""Finding the fecontact binary and checking that it writes what we read."""

import os
import shutil
import subprocess
from pathlib import Path

# FORMAT is the outputs' format this package reads: `fecontact version`
# prints "outputs: format N" (Go's io/results.Format). Folders of format 1
# are read too (their history's "balance" as "total_energy").
FORMAT = 2


class FecontactError(RuntimeError):
    """The binary refused or failed: its message, as it printed it."""

    def __init__(self, message, returncode=None):
        super().__init__(message)
        self.returncode = returncode


_found = None


def _clone_root():
    """The clone this package sits in (python/fecontact/..) or was
    installed from (the build backend records it), if there is one."""
    candidates = [Path(__file__).resolve().parents[2]]
    try:
        from ._clone import CLONE

        candidates.append(Path(CLONE))
    except ImportError:
        pass
    for root in candidates:
        if (root / "go.mod").is_file() and (root / "cmd" / "fecontact").is_dir():
            return root
    return None


def go_build(root, name, package, flags=(), cgo=False, why=""):
    """Builds package from the clone into python/.build/name with Go (None
    without Go): the binary, or the C library (cgo)."""
    go = shutil.which("go")
    if go is None:
        return None
    out = root / "python" / ".build" / name
    out.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CGO_ENABLED="1" if cgo else "0")
    done = subprocess.run([go, "build", *flags, "-o", str(out), package], cwd=root, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise FecontactError("go build %s%s failed in %s%s:\n%s" % (" ".join(flags) + " " if flags else "", package, root, why,
                                                                    done.stderr.strip()))
    return str(out)


def _build(root):
    """Builds the binary from the clone into its own folder, once."""
    return go_build(root, "fecontact", "./cmd/fecontact")


def binary():
    """The path of the fecontact binary: $FECONTACT, the clone's build (when
    the package sits in a clone and Go is here), or fecontact on PATH. Its
    outputs' format must be this package's (FORMAT)."""
    global _found
    if _found is not None:
        return _found
    path = os.environ.get("FECONTACT")
    if not path:
        root = _clone_root()
        path = _build(root) if root is not None else None
    if not path:
        path = shutil.which("fecontact")
    if not path:
        raise FecontactError("no fecontact binary: set FECONTACT to its path, put it on PATH "
                             "(CGO_ENABLED=0 go install ./cmd/fecontact in a clone), or install Go to build it from the clone")
    done = subprocess.run([path, "version"], capture_output=True, text=True)
    if done.returncode != 0:
        raise FecontactError("%s version failed: %s" % (path, done.stderr.strip()), done.returncode)
    fmt = None
    for line in done.stdout.splitlines():
        if line.startswith("outputs: format "):
            fmt = int(line.split()[-1])
    if fmt != FORMAT:
        raise FecontactError("%s writes outputs of format %s; this package (%s) reads format %d: use the binary "
                             "of the same clone" % (path, fmt, __name__.split(".")[0], FORMAT))
    _found = path
    return path


def call(args, cwd=None):
    """Runs the binary to its end; returns its stdout, raises with its
    stderr on failure."""
    done = subprocess.run([binary()] + list(args), capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        raise FecontactError((done.stderr or done.stdout).strip(), done.returncode)
    return done.stdout
