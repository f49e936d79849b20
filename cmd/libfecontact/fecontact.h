/* fecontact.h: the C ABI of fecontact, a 2D non-smooth contact dynamics
 * library (Jean and Moreau's NSCD), as the shared library libfecontact.so
 * built from the Go module:
 *
 *   go build -buildmode=c-shared -o libfecontact.so ./cmd/libfecontact
 *
 * A simulation is a handle (fec_sim, 0 is none), never a pointer. Every call
 * returns an fec_code: FEC_OK, or the kind of refusal, whose message
 * fec_message copies out. No pointer of the library's crosses to the
 * caller: every array is the caller's, filled or read during the call.
 * Calls on one simulation from several threads take turns. Indices of
 * bodies run from 0 to fec_body_count - 1: finite-element bodies, then
 * rigid bodies, then point-mass components (masses joined by springs).
 * Units are SI, per m of thickness for plane bodies. docs/embedding.md says
 * more. */
#ifndef FECONTACT_H
#define FECONTACT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t fec_sim;

typedef enum {
	FEC_OK = 0,
	FEC_EHANDLE = 1,   /* not a live simulation */
	FEC_EARGUMENT = 2, /* an index, a length or a value out of range */
	FEC_ESCENE = 3,    /* the scene was refused */
	FEC_ESTEP = 4,     /* a step failed: the simulation is failed */
	FEC_EFILE = 5,     /* a state file could not be written or read */
	FEC_ESTATE = 6,    /* a state or force the body cannot take */
	FEC_EFAILED = 7,   /* failed earlier: fec_restore or fec_free */
	FEC_EINTERNAL = 8  /* a bug (caught): please report it */
} fec_code;

/* One contact unit after the last step. */
typedef struct {
	int32_t body;        /* the body its force acts on */
	int32_t status;      /* 0 open, 1 stick, 2 slide */
	double x[2];         /* its point, m */
	double n[2], t[2];   /* normal and tangent */
	double impulse[2];   /* (P_N, P_T), Pa s */
	double velocity[2];  /* (U_N + s, U_T), m/s: what the law holds on */
	double force[2];     /* on the body, N per m, global axes */
	double mu;           /* the friction coefficient the unit took */
	double gap;          /* m */
	int32_t bonded;      /* 1: a cohesion's bond held through the step */
} fec_contact;

/* The last step and its certificate. */
typedef struct {
	int32_t step;
	int32_t converged;   /* 1: the contact solve met its tolerance (or had nothing to solve) */
	double time;         /* s, the step's start */
	int32_t units, open, stick, slide, sweeps;
	double residual;        /* relative natural-map residual of the solve applied */
	double complementarity; /* relative complementarity gap */
	double cone_violation;  /* largest cone violation over the largest impulse */
	double min_gap;         /* m */
	double normal_work, friction_work; /* J per m, this step */
} fec_step_stats;

/* The energy ledger (J per m), history.csv's columns: total_energy
 * (kinetic + elastic + damping + numerical - external - contact) stays at
 * its initial value up to round-off, balance_error is its drift since the
 * simulation was opened; the works since the start split contact. */
typedef struct {
	double kinetic, elastic, external, damping, numerical, contact;
	double total_energy, balance_error;
	double normal_work, friction_work, obstacle_work, push_out_work;
} fec_energy;

/* The library's own build (cgo) takes the types above and declares the
 * functions itself, without const. */
#ifndef FEC_TYPES_ONLY

/* Opening: a scene file, a TOML text (name: in messages, and its folder for
 * relative paths; NULL: "scene text"), or a built-in example. refine 0 keeps
 * the scene's cells. */
int fec_open_file(const char *path, int refine, fec_sim *sim);
int fec_open_string(const char *toml, const char *name, int refine, fec_sim *sim);
int fec_open_example(const char *name, int refine, fec_sim *sim);
int fec_free(fec_sim sim);

/* The message of sim's last failed call ("" after a success), or for 0 or
 * a dead handle of the last call without a simulation. Copies at most
 * cap - 1 bytes and a NUL; returns the message's full length. */
size_t fec_message(fec_sim sim, char *buf, size_t cap);

/* Stepping: n steps, or to time t (to within half a step). */
int fec_step(fec_sim sim, int n);
int fec_step_to(fec_sim sim, double t);
int fec_time(fec_sim sim, double *t);
int fec_last_step(fec_sim sim, fec_step_stats *out);
int fec_energy_ledger(fec_sim sim, fec_energy *out);

/* Bodies: a body's name and kind's name ("finite-element bodies", "rigid
 * bodies", "point masses") copied as fec_message does; nq positions, nv
 * velocities, nf applied-force components (0: it takes none). A rigid
 * body's are x, y, rotation; a finite-element body's its nodes'
 * displacements and velocities, x and y per node; a component's its masses'. */
int fec_body_count(fec_sim sim, int *n);
int fec_body_info(fec_sim sim, int body, char *name, size_t name_cap, char *kind, size_t kind_cap,
                  int *nq, int *nv, int *nf);
/* q or v may be NULL (not read or not set); nq and nv must be the body's. */
int fec_get_state(fec_sim sim, int body, double *q, int nq, double *v, int nv);
int fec_set_state(fec_sim sim, int body, const double *q, int nq, const double *v, int nv);
/* The mass each velocity carries: sum m_i v_i over a direction is the
 * momentum. */
int fec_masses(fec_sim sim, int body, double *m, int nv);
/* A rigid body's force and moment, a component's masses' forces. */
int fec_set_force(fec_sim sim, int body, const double *f, int nf);

/* The last step's contact units: count them, then fill n of them (none
 * after a step that failed, or after fec_restore until the next step). */
int fec_contact_count(fec_sim sim, int *n);
int fec_contacts(fec_sim sim, fec_contact *dst, int n);

/* The state to a file and back, bit for bit, into a simulation opened from
 * the same scene. */
int fec_save(fec_sim sim, const char *path);
int fec_restore(fec_sim sim, const char *path);

#endif /* FEC_TYPES_ONLY */

#ifdef __cplusplus
}
#endif
#endif
