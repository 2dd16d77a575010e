"""What the game-AI framework adapters share (OpenSpiel, PettingZoo, Gymnasium: the extra
`rl`): `actions`, the one numbering of moves as integer actions, so that action i is the same
move in every framework; `views`, what an agent observes of a board and how a screen shows it;
`episodes`, how long a game may run and what it pays at its end. None of them imports a
framework: the adapters (`quixo_solver.pettingzoo`, `quixo_solver.gymnasium`, the OpenSpiel
game) do.
"""
