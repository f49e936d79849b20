"""A controller in Python stepping a simulation in process: a block on a
rough floor (mu 0.5) is kicked to 1 m/s whenever it has come to rest,
checked every 0.1 s, for 1.2 s. Each kick slides it v^2 / (2 mu g) =
0.1019 m in v / (mu g) = 0.204 s, so it is kicked at 0, 0.3, 0.6 and 0.9 s
and ends 4 x 0.1019 = 0.408 m on, at rest; the kicks' energy is booked as
external work and friction takes all of it: the ledger closes.

    /usr/bin/python3 python/examples/controller.py
"""

import fecontact

MU, G, KICK = 0.5, 9.81, 1.0

scene = {
    "title": "a block kicked along a rough floor by a controller",
    "time": {"h": 1e-3, "duration": 1.2},
    "rigid": [
        {"name": "floor", "rectangle": [4.0, 0.1], "position": [1.0, -0.05], "motion": {"type": "fixed"}},
        {"name": "block", "rectangle": [0.2, 0.1], "position": [0.0, 0.05], "rho": 1000, "gravity": [0.0, -G]},
    ],
    "rigid_contacts": {"rule": [{"groups": ["*", "*"], "mu": MU}]},
}


def main():
    kicks = []
    with fecontact.Simulation(scene) as sim:
        start = sim.state("block")[0][0]
        for k in range(12):  # twelve control periods of 0.1 s
            q, v = sim.state("block")
            if abs(v[0]) < 1e-9:  # at rest: kick it
                v[0] = KICK
                sim.set_state("block", v=v)
                kicks.append(round(sim.time, 6))
            sim.step_to((k + 1) * 0.1)
        q, v = sim.state("block")
        e = sim.energy()
    travel = q[0] - start
    print("kicked at t = %s s" % ", ".join("%g" % t for t in kicks))
    print("the block went %.4f m (closed form %.4f m)" % (travel, len(kicks) * KICK**2 / (2 * MU * G)))
    print("kicks' work %.4f J, friction work %.4f J, balance error %.1e J"
          % (e["external"], e["friction_work"], e["balance_error"]))
    return kicks, travel, e


if __name__ == "__main__":
    main()
