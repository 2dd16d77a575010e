"""The table files: their format (compressed blocks with checksums, format 4; the older
byte-an-entry format 3, read to be converted), the index of a class (one entry per symmetry
class of positions), the coding of values, and reading and writing them. Everything that
reads or builds tables stands on this folder; it imports nothing of theirs."""
