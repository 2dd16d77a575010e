"""The rules of Qwixx, the bottom layer above the errors: their numbers (constants), a
sheet and the dice (sheet), a game of any number of players with its checked turns (game),
the random stream of simulated games (stream) and the exact probabilities of the dice
(probabilities); and their copies that the kernels above cimport (_constants, _rows, _sheet,
_options, _game, _stream). Nothing here imports from the layers above (tables, strategies,
the advisor, the tracker, the command line)."""
