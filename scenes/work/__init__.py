"""Work off the frame loop, with no pygame: computer players, the board AI, the solvers."""
