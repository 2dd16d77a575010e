# The typed contract of the two-player rules kernel. Bit layout: see geometry.py (square
# rank_index * N + file_index, a1 = bit 0). A position is (mover, opponent): the cubes of the
# player to move and of the other player; blanks are the squares in neither mask.
#
# Kernels here are inline so that other Cython modules (tablebases, search) compile them into
# their own loops; the tables they read are filled once, at import, from geometry.py.
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from .._portable cimport quixo_ctz32

cdef extern from *:
    """
    /* Without a popcnt-capable target (we never assume one), __builtin_popcount becomes a
       libgcc call: a SWAR count inlines to a dozen integer operations instead. */
    static inline int quixo_popcount(unsigned int x) {
    #if defined(__POPCNT__)
        return __builtin_popcount(x);
    #else
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        x = (x + (x >> 4)) & 0x0F0F0F0Fu;
        return (int)((x * 0x01010101u) >> 24);
    #endif
    }
    """
    int quixo_popcount(unsigned int) nogil

ctypedef uint32_t mask_t

cdef enum:
    MAX_SIZE = 5
    MAX_CELLS = 25
    MAX_MOVES = 44
    MAX_LINES = 12
    SYMMETRIES = 8
    NO_MOVE = 255

# Status of a position for the player to move (SPEC "Terminal positions").
cdef enum:
    STATUS_LOSS = -1
    STATUS_ONGOING = 0
    STATUS_WIN = 1

cdef struct Geometry:
    int size
    int cell_count
    int move_count
    int line_count
    mask_t full
    mask_t corners
    mask_t edges                      # border squares that are not corners
    mask_t move_source[MAX_MOVES]     # moves are ordered by source, then target
    mask_t move_target[MAX_MOVES]
    mask_t move_keep[MAX_MOVES]
    mask_t move_slide[MAX_MOVES]
    uint8_t move_left_shift[MAX_MOVES]
    uint8_t move_right_shift[MAX_MOVES]
    uint8_t move_source_square[MAX_MOVES]
    uint8_t move_target_square[MAX_MOVES]
    uint8_t move_index[MAX_CELLS][MAX_CELLS]   # NO_MOVE where (source, target) is no move
    uint8_t source_first_move[MAX_CELLS]       # moves from a square: first, first + count
    uint8_t source_move_count[MAX_CELLS]
    uint8_t target_moves[MAX_MOVES]            # move numbers grouped by target square:
    uint8_t target_first_move[MAX_CELLS]       # target_moves[first .. first + count]
    uint8_t target_move_count[MAX_CELLS]
    mask_t lines[MAX_LINES]
    # symmetry k of a mask is the OR of symmetry_bytes[k][j][byte j of the mask], j = 0..3
    mask_t symmetry_bytes[SYMMETRIES][4][256]

cdef const Geometry* geometry_of(int size) noexcept nogil


cdef inline bint has_line(const Geometry* g, mask_t cubes) noexcept nogil:
    """Whether `cubes` fill a line (lines_filled, with the size a constant on 5x5, where the
    compiler then unrolls its shifts: the searches call this at every node)."""
    if g.size == 5:
        return lines_filled(g, cubes, 5)
    return lines_filled(g, cubes, g.size)


cdef inline bint lines_filled(const Geometry* g, mask_t cubes, int n) noexcept nogil:
    """Whether `cubes` fill a line of the n x n board. Squares are rank-major
    (geometry.square), so after `full &= cubes >> k` for k = 1 .. n - 1 the bit of a rank's
    first square is set only if the rank is full, and with shifts by k * n the bit of a file's
    square on the first rank only if the file is: every rank and file at once (lines: ranks,
    files, then the two diagonals, geometry.lines)."""
    cdef int k
    cdef mask_t ranks = cubes, files = cubes
    for k in range(1, n):
        ranks &= cubes >> k
        files &= cubes >> (k * n)
    return ((ranks & g.lines[n]) | (files & g.lines[0])) != 0 or \
        (cubes & g.lines[2 * n]) == g.lines[2 * n] or \
        (cubes & g.lines[2 * n + 1]) == g.lines[2 * n + 1]


cdef inline int status(const Geometry* g, mask_t mover, mask_t opponent) noexcept nogil:
    if has_line(g, mover):
        return STATUS_WIN
    if has_line(g, opponent):
        return STATUS_LOSS
    return STATUS_ONGOING


cdef inline bint is_legal(const Geometry* g, int move, mask_t opponent) noexcept nogil:
    return (opponent & g.move_source[move]) == 0


cdef inline mask_t slide(const Geometry* g, int move, mask_t cubes) noexcept nogil:
    return (cubes & g.move_keep[move]) | (
        ((cubes & g.move_slide[move]) << g.move_left_shift[move]) >> g.move_right_shift[move])


cdef inline mask_t unslide(const Geometry* g, int move, mask_t cubes) noexcept nogil:
    """Undo the slide of ``move`` on cubes other than the one that entered at the target."""
    cdef mask_t back = ((g.move_slide[move] << g.move_left_shift[move])
                        >> g.move_right_shift[move])
    return (cubes & g.move_keep[move]) | (
        ((cubes & back) << g.move_right_shift[move]) >> g.move_left_shift[move])


cdef inline int take_lowest_square(mask_t* squares) noexcept nogil:
    """The lowest square of the non-empty *squares, taken out of it: a walk over a mask."""
    cdef int square = quixo_ctz32(squares[0])
    squares[0] &= squares[0] - 1
    return square


cdef inline void play(const Geometry* g, int move, mask_t mover, mask_t opponent,
                      mask_t* next_mover, mask_t* next_opponent) noexcept nogil:
    """Apply a legal move. The result is seen from the next player: the old opponent moves."""
    next_mover[0] = slide(g, move, opponent)
    next_opponent[0] = slide(g, move, mover) | g.move_target[move]


cdef inline int popcount(mask_t x) noexcept nogil:
    return quixo_popcount(x)


cdef inline bint near_line(const Geometry* g, mask_t cubes) noexcept nogil:
    """Whether some line holds all but at most one of its squares in `cubes`: a move can
    complete a line for these cubes only then (a push changes the pushed line's cells, whose
    other N - 1 cubes only shift, and one cell of every other line)."""
    cdef int i
    cdef mask_t missing
    for i in range(g.line_count):
        missing = g.lines[i] & ~cubes
        if missing & (missing - 1) == 0:         # no square of the line missing, or one
            return True
    return False


cdef inline int count_moves(const Geometry* g, mask_t opponent) noexcept nogil:
    """Legal moves of a position that is not over: every border cube not the opponent's."""
    return 3 * popcount(g.edges & ~opponent) + 2 * popcount(g.corners & ~opponent)


cdef inline mask_t transform(const Geometry* g, int symmetry, mask_t cubes) noexcept nogil:
    return (g.symmetry_bytes[symmetry][0][cubes & 0xFF]
            | g.symmetry_bytes[symmetry][1][(cubes >> 8) & 0xFF]
            | g.symmetry_bytes[symmetry][2][(cubes >> 16) & 0xFF]
            | g.symmetry_bytes[symmetry][3][cubes >> 24])


cdef inline uint64_t pack(const Geometry* g, mask_t mover, mask_t opponent) noexcept nogil:
    return <uint64_t>mover | (<uint64_t>opponent << g.cell_count)


cdef inline uint64_t canonical(const Geometry* g, mask_t mover, mask_t opponent,
                               int* symmetry) noexcept nogil:
    """The least packed position among the 8 images; ``symmetry`` receives the symmetry that
    produces it."""
    cdef uint64_t best = pack(g, mover, opponent), candidate
    cdef int k
    symmetry[0] = 0
    for k in range(1, SYMMETRIES):
        candidate = pack(g, transform(g, k, mover), transform(g, k, opponent))
        if candidate < best:
            best = candidate
            symmetry[0] = k
    return best


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    # splitmix64 finaliser: a bijection that spreads packed positions over all 64 bits
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


# Perft shared by both variants (_rules.pyx): a position's masks as a row of the frontier, and
# the count of one row with `depth` plies left.
cdef enum:
    POLL_DEPTH = 4          # perft nodes with this many plies left look at the Ctrl-C flag

ctypedef uint64_t (*RowPerft)(const Geometry* g, const mask_t* row, int depth) noexcept nogil

cdef object perft_in_parallel(const Geometry* g, tuple start, int depth, int threads,
                              children, RowPerft count)
