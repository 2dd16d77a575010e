"""The tablebase generator: retrograde analysis of class pairs (_retro.pyx), a pair solved
in a folder with checkpoints (pair_solver, checkpoint), builds of many pairs on this machine
(builder) or a Dask cluster (cluster), their plan and forecast, progress and journal.

Nothing that only reads tables imports this folder: `import quixo_solver.tablebase` and a
probe load none of it (the face's `build` is imported when first asked for)."""
