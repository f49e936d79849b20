// The disc of [BRF]: r = 0.05 m, centre (0, 0.05) so that it
// touches y = 0 at its lowest point; 387 Q4 cells of about 5 mm.
//   gmsh -2 -format msh41 disc.geo -o disc.msh
r = 0.05;
lc = 0.005;
Point(1) = {0, 0.05, 0, lc};
Point(2) = {r, 0.05, 0, lc};
Point(3) = {0, 0.05 + r, 0, lc};
Point(4) = {-r, 0.05, 0, lc};
Point(5) = {0, 0.05 - r, 0, lc};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Physical Curve("rim") = {1, 2, 3, 4};
Physical Surface("disc") = {1};
Recombine Surface {1};
