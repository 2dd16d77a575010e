"""Support that quixo_solver and qwixx_stats share and that belongs to neither game: checked
array and table files written atomically (`arrayfile`), and the terminal progress bar
(`progress`). Internal: its interface follows what the two packages need."""
