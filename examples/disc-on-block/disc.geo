// The disc of [BRF] Figure 9: r = 0.5 m, centre (0, 0.5) so
// that it touches y = 0 at its lowest point; Q4 cells of about 5 cm.
//   gmsh -2 -format msh41 disc.geo -o disc.msh
r = 0.5;
lc = 0.05;
Point(1) = {0, 0.5, 0, lc};
Point(2) = {r, 0.5, 0, lc};
Point(3) = {0, 0.5 + r, 0, lc};
Point(4) = {-r, 0.5, 0, lc};
Point(5) = {0, 0.5 - r, 0, lc};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Physical Curve("rim") = {1, 2, 3, 4};
Physical Surface("disc") = {1};
Recombine Surface {1};
