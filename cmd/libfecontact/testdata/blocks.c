/* The C ABI as a finite-element code would use it (lib_test.go builds and
 * runs it): the colliding blocks stepped in process, one history line a
 * step on stdout in history.csv's formats (which the Go test compares with
 * a run's), the upper block's exit velocity and the ledger checked, every
 * refusal a code and a message, and 10 000 open/free cycles without a
 * leak. Exits non-zero, saying why, on the first check that fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fecontact.h"

static int failures;

#define CHECK(cond, ...)                                   \
	do {                                               \
		if (!(cond)) {                             \
			fprintf(stderr, "FAIL line %d: ", __LINE__); \
			fprintf(stderr, __VA_ARGS__);      \
			fprintf(stderr, "\n");             \
			failures++;                        \
		}                                          \
	} while (0)

static const char *message(fec_sim sim) {
	static char buf[4096];
	fec_message(sim, buf, sizeof buf);
	return buf;
}

/* Resident memory in kB, from /proc/self/statm. */
static long rss_kb(void) {
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident * 4;
}

static const char *disk =
	"[time]\nh = 1e-3\nduration = 1.0\n"
	"[[rigid]]\nname = \"floor\"\nrectangle = [2.0, 0.1]\nposition = [0.0, -0.05]\nmotion = { type = \"fixed\" }\n"
	"[[rigid]]\nname = \"disk\"\nradius = 0.1\nposition = [0.0, 0.1]\nrho = 1000\ngravity = [0.0, -9.81]\n";

/* The history: one line a step, the columns both have. */
static void history(fec_sim sim, int steps) {
	printf("step,time,kinetic,elastic,external_work,damping_loss,numerical_dissipation,contact_work,total_energy,"
	       "normal_work,friction_work,obstacle_work,push_out_work,contacts,open,stick,slide,sweeps,residual,"
	       "complementarity_rel,cone_violation,converged\n");
	for (int k = 1; k <= steps; k++) {
		int code = fec_step(sim, 1);
		if (code != FEC_OK) {
			CHECK(0, "step %d: code %d: %s", k, code, message(sim));
			return;
		}
		double t;
		fec_step_stats s;
		fec_energy e;
		fec_time(sim, &t);
		fec_last_step(sim, &s);
		fec_energy_ledger(sim, &e);
		printf("%d,%.9g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,%d,%d,%d,%d,%d,%.3g,%.3g,%.3g,%d\n",
		       s.step, t, e.kinetic, e.elastic, e.external, e.damping, e.numerical, e.contact, e.total_energy,
		       e.normal_work, e.friction_work, e.obstacle_work, e.push_out_work, s.units, s.open, s.stick, s.slide,
		       s.sweeps, s.residual, s.complementarity, s.cone_violation, s.converged);
		CHECK(s.converged == 1, "step %d not converged: residual %g", k, s.residual);
	}
}

static void blocks(const char *example) {
	fec_sim sim = 0;
	int code = fec_open_example(example, 0, &sim);
	if (code != FEC_OK) {
		CHECK(0, "open %s: code %d: %s", example, code, message(0));
		return;
	}
	history(sim, 750);

	int n = 0;
	CHECK(fec_body_count(sim, &n) == FEC_OK && n == 2, "bodies: %d", n);
	char name[64], kind[64];
	int nq = 0, nv = 0, nf = -1;
	CHECK(fec_body_info(sim, 1, name, sizeof name, kind, sizeof kind, &nq, &nv, &nf) == FEC_OK, "info: %s", message(sim));
	CHECK(strcmp(name, "upper") == 0 && strcmp(kind, "finite-element bodies") == 0 && nf == 0, "body 1: %s, %s, nf %d", name, kind, nf);
	double *v = calloc(nv, sizeof *v), *m = calloc(nv, sizeof *m);
	CHECK(fec_get_state(sim, 1, NULL, 0, v, nv) == FEC_OK, "state: %s", message(sim));
	CHECK(fec_masses(sim, 1, m, nv) == FEC_OK, "masses: %s", message(sim));
	double p[2] = {0, 0}, mass[2] = {0, 0};
	for (int i = 0; i < nv; i++) {
		p[i % 2] += m[i] * v[i];
		mass[i % 2] += m[i];
	}
	double vx = p[0] / mass[0], vy = p[1] / mass[1];
	fprintf(stderr, "the upper block leaves at (%.2f, %.2f) m/s\n", vx, vy);
	CHECK(fabs(vx + 65.4) < 0.05 && fabs(vy - 40.0) < 0.05, "exit velocity (%g, %g), expected (-65.4, 40.0)", vx, vy);
	fec_energy e;
	fec_energy_ledger(sim, &e);
	CHECK(fabs(e.total_energy - 50700) < 1e-9 * 50700 && fabs(e.balance_error) < 1e-9 * 50700,
	      "total energy %.17g, drift %g: expected the initial 50700 J", e.total_energy, e.balance_error);
	CHECK(e.friction_work < 0 && e.normal_work <= 0, "contact created energy: friction %g, normal %g", e.friction_work, e.normal_work);

	/* Refusals on a live simulation: a code and a message, nothing changed. */
	double nan_v[2] = {NAN, 0};
	double *w = calloc(nv, sizeof *w);
	memcpy(w, v, nv * sizeof *w);
	w[3] = NAN;
	CHECK(fec_set_state(sim, 1, NULL, 0, w, nv) == FEC_ESTATE && strstr(message(sim), "NaN") != NULL, "NaN state: %s", message(sim));
	CHECK(fec_set_state(sim, 1, NULL, 0, nan_v, 2) == FEC_EARGUMENT, "short state: %s", message(sim));
	CHECK(fec_get_state(sim, 2, NULL, 0, v, nv) == FEC_EARGUMENT && strstr(message(sim), "body 2") != NULL, "body 2: %s", message(sim));
	CHECK(fec_get_state(sim, -1, NULL, 0, v, nv) == FEC_EARGUMENT, "body -1: %s", message(sim));
	CHECK(fec_get_state(sim, 1, NULL, 0, NULL, nv) == FEC_EARGUMENT, "NULL array: %s", message(sim));
	CHECK(fec_get_state(sim, 1, NULL, -5, v, nv) == FEC_EARGUMENT, "negative length: %s", message(sim));
	CHECK(fec_set_force(sim, 0, nan_v, 2) == FEC_ESTATE, "force on an FE body: %s", message(sim));
	CHECK(fec_step(sim, 0) == FEC_EARGUMENT, "0 steps");
	CHECK(fec_time(sim, NULL) == FEC_EARGUMENT, "NULL time");
	fec_energy after;
	fec_energy_ledger(sim, &after);
	CHECK(memcmp(&e, &after, sizeof e) == 0, "a refusal changed the ledger");
	CHECK(fec_save(sim, "/dev/null") == FEC_EFILE, "save to a device: %s", message(sim));
	CHECK(fec_free(sim) == FEC_OK, "free");
	CHECK(fec_free(sim) == FEC_EHANDLE && strstr(message(sim), "no such simulation") != NULL, "double free: %s", message(sim));
	CHECK(fec_step(sim, 1) == FEC_EHANDLE, "step after free");
	CHECK(fec_step(0, 1) == FEC_EHANDLE && strstr(message(0), "handle 0") != NULL, "handle 0: %s", message(0));
	CHECK(fec_open_example("no-such-example", 0, &sim) == FEC_ESCENE && sim == 0, "unknown example: %s", message(0));
	CHECK(fec_open_string("[time]\nh = -1\n", "bad.toml", 0, &sim) == FEC_ESCENE && strstr(message(0), "bad.toml") != NULL,
	      "bad scene: %s", message(0));
	CHECK(fec_open_file(NULL, 0, &sim) == FEC_EARGUMENT, "NULL path");
	CHECK(fec_open_example(example, 0, NULL) == FEC_EARGUMENT, "NULL handle");
	/* The message is cut to the buffer and NUL-terminated; its length is whole. */
	char small[8];
	size_t full = fec_message(0, small, sizeof small);
	CHECK(full > sizeof small && strlen(small) == sizeof small - 1, "message cut: %zu, %s", full, small);
	/* A caller's "large enough" (SIZE_MAX) writes the message and its NUL only. */
	char big[512];
	memset(big, 'x', sizeof big);
	size_t whole = fec_message(0, big, (size_t)-1);
	CHECK(whole == full && strlen(big) == full && big[full + 1] == 'x', "SIZE_MAX capacity: %zu, %zu", whole, strlen(big));
	free(v);
	free(m);
	free(w);
}

/* 10 000 open/step/free cycles: resident memory flat after the first
 * thousand (the Go heap settles). */
static void cycles(void) {
	long after1k = 0;
	for (int k = 0; k < 10000; k++) {
		fec_sim sim;
		if (fec_open_string(disk, "disk.toml", 0, &sim) != FEC_OK) {
			CHECK(0, "cycle %d: %s", k, message(0));
			return;
		}
		fec_step(sim, 2);
		fec_free(sim);
		if (k == 999)
			after1k = rss_kb();
	}
	long end = rss_kb();
	fprintf(stderr, "resident memory after 1 000 cycles %ld kB, after 10 000 %ld kB\n", after1k, end);
	CHECK(end - after1k < 16384, "resident memory grew by %ld kB over 9 000 cycles", end - after1k);
}

int main(int argc, char **argv) {
	const char *example = argc > 1 ? argv[1] : "colliding-blocks";
	blocks(example);
	cycles();
	if (failures) {
		fprintf(stderr, "%d checks failed\n", failures);
		return 1;
	}
	return 0;
}
