// A 2 x 1 plate with a hole-free boundary in four named curves, meshed
// coarsely; run by mesh/testdata/regen.sh to write the fixtures.
lc = 0.5;
Point(1) = {0, 0, 0, lc}; Point(2) = {2, 0, 0, lc}; Point(3) = {2, 1, 0, lc}; Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Physical Surface("body") = {1};
Physical Curve("bottom") = {1}; Physical Curve("right") = {2}; Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Point("origin") = {1};
