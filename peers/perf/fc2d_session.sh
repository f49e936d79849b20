#!/bin/sh
# Siconos nsgs-sbm against `fecontact solve` on the fc2d problems, alternating run by run.
# Usage: fc2d_session.sh OUTDIR FC2D_DIR [ROUNDS]
#   FC2D_DIR  the fc2d problems (signorini/testdata/fc2d in a clone);  ROUNDS default 3 (odd rounds Siconos first)
# Env: FECONTACT (the fecontact binary), SICONOS_PEER (peers/siconos; default: ../siconos beside this script).
# Tolerance 1e-8 on the natural-map residual (both programs stop on the same measure:
# ||r - P_K(r - u~)|| / max(||r||,||u||,||q||)), 1e-6 for the two large granular problems, as in
# signorini/testdata/fc2d/README.md.  Each run times the solve alone K=5 times (min and median printed);
# /usr/bin/time -v around each process gives its user+sys.
set -e
O=${1:?usage: fc2d_session.sh OUTDIR FC2D_DIR [ROUNDS]}; D=${2:?FC2D_DIR}; R=${3:-3}
: "${FECONTACT:?set FECONTACT to the fecontact binary}"
H=$(cd "$(dirname "$0")" && pwd)
SP=${SICONOS_PEER:-$H/../siconos}
mkdir -p "$O"
small=""; big=""
for f in "$D"/*.json; do
  case $(basename "$f") in fc2d_granularflowonwall_02020*|fc2d_granularflowonwall_07002*) big="$big $f";; *) small="$small $f";; esac
done
sic() { # tag tol maxit files...
  t=$1; tol=$2; mi=$3; shift 3
  uptime > "$O/S_$t.uptime"
  /usr/bin/time -v /usr/bin/python3 "$SP/fc2d_solve.py" "$@" --solvers nsgs-sbm --tol "$tol" --maxit "$mi" -K 5 --quiet > "$O/S_$t.out" 2> "$O/S_$t.time"
}
fec() {
  t=$1; tol=$2; shift 2
  uptime > "$O/F_$t.uptime"
  /usr/bin/time -v "$FECONTACT" solve --tol "$tol" -K 5 "$@" > "$O/F_$t.out" 2> "$O/F_$t.time"
}
r=1
while [ "$r" -le "$R" ]; do
  if [ $((r % 2)) -eq 1 ]; then
    sic small_r$r 1e-8 20000 $small; fec small_r$r 1e-8 $small
    sic big_r$r 1e-6 100000 $big;    fec big_r$r 1e-6 $big
  else
    fec small_r$r 1e-8 $small; sic small_r$r 1e-8 20000 $small
    fec big_r$r 1e-6 $big;     sic big_r$r 1e-6 100000 $big
  fi
  r=$((r + 1))
done
echo "done: $O"
