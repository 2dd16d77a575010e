/* A plain reference perft for Quixo, written apart from the package's engine: the board is an
   array of cells (+1 the player to move, -1 the other, 0 blank), a move shifts the cells of
   one row or column in a loop, lines are checked cell by cell. Single-threaded, no tables.

       reference_perft DEPTH [SIZE]      (from the empty board, X to move; SIZE 3, 4 or 5)

   Prints the number of move sequences of exactly DEPTH moves (a move that ends the game has
   no continuations), as the project's SPEC defines perft. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int N;

static int has_line(const signed char *b, int who) {
    int r, c, full;
    for (r = 0; r < N; r++) {
        for (full = 1, c = 0; c < N; c++) full &= b[r * N + c] == who;
        if (full) return 1;
    }
    for (c = 0; c < N; c++) {
        for (full = 1, r = 0; r < N; r++) full &= b[r * N + c] == who;
        if (full) return 1;
    }
    for (full = 1, r = 0; r < N; r++) full &= b[r * N + r] == who;
    if (full) return 1;
    for (full = 1, r = 0; r < N; r++) full &= b[r * N + (N - 1 - r)] == who;
    return full;
}

/* Take the cube at (r, c) and push it in at (tr, tc), an end of its row or column. */
static void push(signed char *b, int r, int c, int tr, int tc, int who) {
    int k;
    if (tr == r) {
        if (tc < c) for (k = c; k > tc; k--) b[r * N + k] = b[r * N + k - 1];
        else        for (k = c; k < tc; k++) b[r * N + k] = b[r * N + k + 1];
    } else {
        if (tr < r) for (k = r; k > tr; k--) b[k * N + c] = b[(k - 1) * N + c];
        else        for (k = r; k < tr; k++) b[k * N + c] = b[(k + 1) * N + c];
    }
    b[tr * N + tc] = (signed char)who;
}

static unsigned long long perft(const signed char *b, int depth) {
    /* the player to move is +1; the child is negated so that its mover is +1 again */
    signed char child[25];
    unsigned long long total = 0;
    int r, c, t, i;
    for (r = 0; r < N; r++) {
        for (c = 0; c < N; c++) {
            int targets[4][2] = {{r, 0}, {r, N - 1}, {0, c}, {N - 1, c}};
            if (r != 0 && r != N - 1 && c != 0 && c != N - 1) continue;   /* not on the border */
            if (b[r * N + c] == -1) continue;                               /* the opponent's */
            for (t = 0; t < 4; t++) {
                int tr = targets[t][0], tc = targets[t][1];
                if (tr == r && tc == c) continue;
                memcpy(child, b, (size_t)(N * N));
                push(child, r, c, tr, tc, 1);
                if (depth == 1) { total++; continue; }
                if (has_line(child, 1) || has_line(child, -1)) continue;    /* game over */
                for (i = 0; i < N * N; i++) child[i] = (signed char)-child[i];
                total += perft(child, depth - 1);
            }
        }
    }
    return total;
}

int main(int argc, char **argv) {
    signed char board[25] = {0};
    int depth;
    if (argc < 2) { fprintf(stderr, "usage: reference_perft DEPTH [SIZE]\n"); return 2; }
    depth = atoi(argv[1]);
    N = argc > 2 ? atoi(argv[2]) : 5;
    if (N < 3 || N > 5 || depth < 0) { fprintf(stderr, "bad depth or size\n"); return 2; }
    printf("%llu\n", depth == 0 ? 1ULL : perft(board, depth));
    return 0;
}
