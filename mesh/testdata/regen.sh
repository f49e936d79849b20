#!/bin/sh
# Writes the Gmsh fixtures of the mesh tests (needs Debian's gmsh).
set -e
cd "$(dirname "$0")"
for fmt in msh41 msh22; do
  gmsh -2 -order 1 plate.geo -format $fmt -o t3_$fmt.msh >/dev/null
  gmsh -2 -order 2 plate.geo -format $fmt -o t6_$fmt.msh >/dev/null
  gmsh -2 -order 1 -setnumber Mesh.RecombineAll 1 plate.geo -format $fmt -o q4_$fmt.msh >/dev/null
  gmsh -2 -order 2 -setnumber Mesh.RecombineAll 1 -setnumber Mesh.SecondOrderIncomplete 1 plate.geo -format $fmt -o q8_$fmt.msh >/dev/null
done
