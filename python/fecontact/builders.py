"""Builders and loads as dict helpers: the tables a scene dict holds for a
masonry wall, a random granular sample, a ground motion record and a
traction, with the keys of docs/guide.md (*Scene files*). They only make
the dicts; the binary expands and checks them when it runs, so that a
study scripted here and a scene file written by hand are one thing.

    scene["wall"] = [fecontact.wall("w", origin=(0, 0), courses=8, blocks=2, size=(0.3, 0.15))]
    scene["rigid"][0]["motion"] = fecontact.record_motion("ground.csv", column="a [g]", scale=9.81)
"""

import os


def _drop_none(d):
    return {k: v for k, v in d.items() if v is not None}


def wall(name, origin, courses, blocks, size, bond="running", joint=0.0, rho=2000.0, gravity=(0.0, -9.81), group=None,
         velocity=None):
    """A [[wall]] table: `courses` of `blocks` blocks of `size` = (w, h)
    from `origin` (its lower-left corner), in a running, stack, header or
    English ("english") bond,
    with joints of `joint` m (0: dry)."""
    return _drop_none({"name": name, "group": group, "origin": list(origin), "courses": int(courses), "blocks": int(blocks),
                       "size": list(size), "bond": bond, "joint": float(joint), "rho": float(rho),
                       "gravity": list(gravity) if gravity is not None else None,
                       "velocity": list(velocity) if velocity is not None else None})


def arch(name, centre, radius, thickness, voussoirs, start=0.0, end=180.0, joint=0.0, rho=2000.0, gravity=(0.0, -9.81),
         group=None, pointed=None):
    """An [[arch]] table: a ring of `voussoirs` equal voussoirs on the
    intrados circle of `radius` about `centre`, `thickness` deep, from
    angle `start` to `end` (degrees; a semicircle by default), joints of
    `joint` m (0: dry). With `pointed` = e (m), a pointed arch instead:
    two halves of `radius` whose centres are e off `centre`, meeting at a
    vertical crown joint (e = radius / 2: the equilateral arch; voussoirs
    even; start and end not read)."""
    angles = {"from": float(start), "to": float(end)} if pointed is None else {"pointed": float(pointed)}
    return _drop_none({"name": name, "group": group, "centre": list(centre), "radius": float(radius),
                       "thickness": float(thickness), "voussoirs": int(voussoirs), **angles,
                       "joint": float(joint), "rho": float(rho), "gravity": list(gravity) if gravity is not None else None})


def _radii(who, radius, sizes):
    """The radius keys of a [[grains]] table: uniform in `radius` = (min,
    max), or a grading `sizes` = ((r1, share1), (r2, share2), ...)."""
    if (radius is None) == (sizes is None):
        raise ValueError("%s: give radius = (min, max) or sizes = ((radius, share), ...), one of them" % who)
    if sizes is not None:
        return {"sizes": [[float(r), float(share)] for r, share in sizes]}
    return {"radius": list(radius)}


def random_grains(name, region=None, radius=None, count=None, solid_fraction=None, shape="disk", sides=None, rho=2600.0,
                  seed=0, gravity=(0.0, -9.81), group=None, sizes=None, within=None):
    """A [[grains]] table placed at random (random sequential addition):
    `count` grains, or as many as make `solid_fraction` of `region` =
    ((x0, y0), (x1, y1)); radii uniform in `radius` = (min, max), or drawn
    from a grading `sizes` = ((radius, share of the number), ...); the same
    `seed` gives the same sample. `within` = ((x, y), ...), a convex
    polygon counter-clockwise, instead of `region`: the grains lie in it."""
    if (count is None) == (solid_fraction is None):
        raise ValueError("random_grains: give count or solid_fraction, one of them")
    if (region is None) == (within is None):
        raise ValueError("random_grains: give region = ((x0, y0), (x1, y1)) or within = ((x, y), ...), one of them")
    place = {"region": [list(region[0]), list(region[1])]} if within is None else {"within": [list(p) for p in within]}
    return _drop_none({"name": name, "group": group, "placement": "random", "count": count, "solid_fraction": solid_fraction,
                       "shape": shape, "sides": list(sides) if sides is not None else None,
                       **_radii("random_grains", radius, sizes), **place,
                       "rho": float(rho), "seed": int(seed), "gravity": list(gravity) if gravity is not None else None})


def deposited_grains(name, region, radius=None, count=None, solid_fraction=None, rho=2600.0, seed=0, gravity=(0.0, -9.81),
                     group=None, sides=None, sizes=None):
    """A [[grains]] table of disks deposited in `region` = ((x0, y0), (x1,
    y1)): dropped one by one at random abscissae onto its floor y0, each
    rests on the floor, on two disks or on a disk and a side (give the floor
    and the sides as bodies); `count` disks, or as many as make
    `solid_fraction` of the region; radii uniform in `radius` = (min, max),
    or drawn from a grading `sizes` = ((radius, share of the number), ...);
    the same `seed` gives the same sample. With `sides` = (min, max),
    convex polygons of that many sides instead, each deposited as its
    circumscribed disk (a looser sample, which settles in its first
    steps)."""
    if (count is None) == (solid_fraction is None):
        raise ValueError("deposited_grains: give count or solid_fraction, one of them")
    return _drop_none({"name": name, "group": group, "placement": "deposit",
                       "shape": "disk" if sides is None else "polygon",
                       "sides": list(sides) if sides is not None else None, "count": count,
                       "solid_fraction": solid_fraction, **_radii("deposited_grains", radius, sizes),
                       "region": [list(region[0]), list(region[1])], "rho": float(rho), "seed": int(seed),
                       "gravity": list(gravity) if gravity is not None else None})


def record_motion(file, direction=(1.0, 0.0), column=None, scale=None, quantity=None):
    """A ground motion from a recorded acceleration: a CSV `file` (made
    absolute, so that the scene runs from any folder) whose first column
    is the time in s and `column` (default the second) the acceleration
    along `direction`, in m/s^2 times `scale` (9.81 for a record in g);
    `quantity` "velocity" or "displacement" for a record of those."""
    return _drop_none({"type": "record", "file": os.path.abspath(os.fspath(file)), "direction": list(direction),
                       "column": column, "scale": scale, "quantity": quantity})


def traction(group, value=None, pressure=None, time=None):
    """A traction on a body's edge group: `value` = (tx, ty) in Pa, or a
    `pressure` in Pa along the inward normal; `time` its time function
    (load_time's dict), constant without one."""
    if (value is None) == (pressure is None):
        raise ValueError("traction: give value or pressure, one of them")
    return _drop_none({"group": group, "value": list(value) if value is not None else None, "pressure": pressure,
                       "time": time})


def load_time(kind, duration=None, period=None, phase=None, file=None, column=None):
    """A load's time function (a traction's ``time``, a rigid body's or a
    mass's ``load_time``): ``"ramp"`` over duration (s), ``"sine"`` of
    period (s) and phase (rad), or ``"table"`` from a CSV file (its path
    made absolute, so that the scene runs from any folder) and column."""
    if file is not None:
        file = os.path.abspath(os.fspath(file))
    return _drop_none({"type": kind, "duration": duration, "period": period, "phase": phase, "file": file,
                       "column": column})
