"""One checked opener for every file the package reads.

A run's folder may come from someone else: a name in it may be a device
(/dev/zero, read for ever into memory), a named pipe (a read that never
returns) or a file far larger than fecontact writes. Every reader goes
through ``read_bytes`` and ``read_text``: a regular file, within a size
cap, or an error naming the file and what it is.
"""

import os
import stat

from ._binary import FecontactError

# The largest file read whole: fecontact's pieces and collections stay far
# below it (Go's io/vtk.MaxFileBytes is the same bound).
MAX_BYTES = 1 << 30

_KINDS = [(stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket")]


def _kind(mode):
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read_bytes(path, what, cap=MAX_BYTES):
    """The bytes of the regular file path (what it should be, for the
    error), refusing a special file or one over cap bytes."""
    path = os.fspath(path)
    try:
        # O_NONBLOCK: a named pipe put there after the check opens at
        # once instead of waiting for a writer; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FecontactError("%s: no such file: expected %s" % (path, what)) from None
    except OSError as e:
        raise FecontactError("%s: %s (expected %s)" % (path, e.strerror, what)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FecontactError("%s: %s, not a file: expected %s" % (path, _kind(st.st_mode), what))
        if st.st_size > cap:
            raise FecontactError("%s: %d bytes, more than the %d read: expected %s" % (path, st.st_size, cap, what))
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        data = f.read(cap + 1)
    if len(data) > cap:
        raise FecontactError("%s: more than the %d bytes read: expected %s" % (path, cap, what))
    return data


def read_text(path, what, cap=MAX_BYTES):
    """The text (UTF-8) of the regular file path, as read_bytes."""
    data = read_bytes(path, what, cap)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FecontactError("%s: not UTF-8 text at byte %d: expected %s" % (os.fspath(path), e.start, what)) from None
