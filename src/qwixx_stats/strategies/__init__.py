"""The strategies, above the rules and the tables: the registry names each one once
(registry), with its Python player (simple, heuristics, qwixxer, winning, lookahead), and the
games they play: series of games (simulate) and rollouts (rollouts), through the `_simulate`
kernel (its game loop; one .pxd per strategy family, their codes in _codes.pxd; kernel_view:
the kernel's view of the sheets and of the race model)."""
