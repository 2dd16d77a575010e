"""`qwixx track`, above the advisor: the tracker of a game at a real table (tracker) and its
save file (savefile)."""
