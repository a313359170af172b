/* solve5: an offline exact solver of two-player SOS on boards of up to 25 cells.
 *
 * Not part of the game (which stays pure Python): built by tools/solve5/build.sh, driven by
 * tools/solve5/run.py and checked, without this code, by sos_tui/ai/certificate.py.
 *
 * A board is two masks (S cells, O cells) on a padded layout: each row takes cols + 2 bits, so a
 * shift by one step in any of the four directions never wraps a line into the next row (the same
 * layout as sos_tui/ai/bitboard.py). Values are for the player to move:
 *   simple mode: +1 win, 0 draw, -1 loss. A player who can complete an SOS wins at once, so a
 *     player never leaves a threat unless every move does: the search plays safe moves only
 *     (no SOS, no threat left), and a player with empty cells but no safe move loses.
 *     Mirror knowledge: on a board symmetric through its centre (the centre cell filled, if
 *     any) the player NOT to move can copy every move point-symmetrically and never lose
 *     (sos_tui/ai/mirror.py proves it), so the mover's value is <= 0 there; with one letter
 *     short of symmetric (its image empty) the mover copies it and has >= 0.
 *   general mode: the best final score margin the mover can still force; a move that scores
 *     moves again. Bounded by +/- the number of lines that can still become an SOS.
 * Search: alpha-beta negamax with null windows for the simple questions (win? loss?), principal
 * variation search in general mode, a fixed-size transposition table of two-entry buckets keyed
 * on the canonical board (least image under the board's symmetries: 8 on a square, 4 on a
 * rectangle), enhanced transposition cutoffs near the root, moves ordered by the opponent's
 * mobility (simple) or by threats left (general).
 *
 * Commands (board: row-major string of '.', 'S', 'O', of rows*cols cells):
 *   solve5 [opts] value BOARD            the mover's value
 *   solve5 [opts] test BOARD V           null-window: is the mover's value >= V? (prints 1/0)
 *   solve5 [opts] moves BOARD [OUT]      every distinct move (up to symmetry) with its value,
 *                                        one line each, appended to OUT; moves already in OUT
 *                                        are skipped (the checkpoint: rerun to resume)
 *   solve5 [opts] strategy BOARD SIDE K  a strategy for the mover (SIDE=0) or the other player
 *                                        (SIDE=1) that keeps the value of BOARD: one line
 *                                        "canonical-board cell letter" for every position of
 *                                        the strategist with more than K empty cells (simple)
 *   solve5 [opts] certificate BOARD SIDE OUT  the strategy of every depth as a byte stream (cert)
 * Options: --rows R --cols C (default 5 5), --mode simple|general, --tt-mb MB (default 1024),
 *          --etc N (enhanced transposition cutoffs at nodes with >= N empty cells),
 *          --mtd 1 (general mode: the value by MTD(f), null-window tests from 0, not one wide window),
 *          --order 0 (general mode: safe moves in cell order, not fewest safe replies first).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef uint32_t u32;

static int R = 5, C = 5, N, W, SIMPLE = 1, NSYM;
static u64 VALID, CENTRE; /* CENTRE: the centre cell of an odd x odd board, else 0 */
static int DIRS[4];
static int ETC_MIN = 99, MTD = 0, ORDER = 1;
static u64 nodes;
static double t0;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int popcount(u64 x) { return __builtin_popcountll(x); }
static inline int ctz(u64 x) { return __builtin_ctzll(x); }

/* -- geometry ----------------------------------------------------------------------------- */
static int pos_of(int r, int c) { return r * W + c; }
static u64 SYM[8][4][256]; /* symmetry, byte of the compact mask -> transformed compact mask */
static int SYMPERM[8][32]; /* symmetry: compact index -> compact index of its image */
static u32 ROT[4][256];    /* point reflection, for the mirror test */

static u32 compact(u64 m) {
    u32 out = 0;
    for (int r = 0; r < R; r++) out |= (u32)((m >> (r * W)) & ((1ull << C) - 1)) << (r * C);
    return out;
}
static u64 expand(u32 m) {
    u64 out = 0;
    for (int r = 0; r < R; r++) out |= (u64)((m >> (r * C)) & ((1u << C) - 1)) << (r * W);
    return out;
}

static void setup(void) {
    N = R * C;
    W = C + 2;
    VALID = 0;
    for (int r = 0; r < R; r++) VALID |= ((1ull << C) - 1) << (r * W);
    DIRS[0] = 1; DIRS[1] = W; DIRS[2] = W + 1; DIRS[3] = W - 1;
    CENTRE = (R % 2 && C % 2) ? 1ull << pos_of(R / 2, C / 2) : 0;
    NSYM = R == C ? 8 : 4;
    for (int k = 0; k < NSYM; k++)
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                int n = R - 1, m = C - 1, nr, nc;
                switch (k) {
                case 0: nr = r; nc = c; break;
                case 1: nr = r; nc = m - c; break;
                case 2: nr = n - r; nc = c; break;
                case 3: nr = n - r; nc = m - c; break;
                case 4: nr = c; nc = n - r; break; /* the square's other four */
                case 5: nr = n - c; nc = r; break;
                case 6: nr = c; nc = r; break;
                default: nr = n - c; nc = n - r; break;
                }
                SYMPERM[k][r * C + c] = nr * C + nc;
            }
    for (int k = 0; k < NSYM; k++)
        for (int b = 0; b < 4; b++)
            for (int v = 0; v < 256; v++) {
                u64 out = 0;
                for (int i = 0; i < 8; i++)
                    if (v >> i & 1 && b * 8 + i < N) out |= 1ull << SYMPERM[k][b * 8 + i];
                SYM[k][b][v] = out;
                if (k == 3) ROT[b][v] = (u32)out;
            }
}

static inline u32 transform(int k, u32 m) {
    return (u32)(SYM[k][0][m & 255] | SYM[k][1][m >> 8 & 255] | SYM[k][2][m >> 16 & 255] |
                 SYM[k][3][m >> 24 & 255]);
}
static inline u32 rot180(u32 m) {
    return ROT[0][m & 255] | ROT[1][m >> 8 & 255] | ROT[2][m >> 16 & 255] | ROT[3][m >> 24 & 255];
}

static u64 canon(u64 s, u64 o) {
    u32 cs = compact(s), co = compact(o);
    u64 best = (u64)cs << N | co;
    for (int k = 1; k < NSYM; k++) {
        u64 key = (u64)transform(k, cs) << N | transform(k, co);
        if (key < best) best = key;
    }
    return best;
}

/* -- the rule ----------------------------------------------------------------------------- */
static inline void win_sets(u64 s, u64 o, u64 empty, u64 *ws, u64 *wo) {
    u64 a = 0, b = 0;
    for (int i = 0; i < 4; i++) {
        int d = DIRS[i];
        a |= ((o >> d) & (s >> 2 * d)) | ((o << d) & (s << 2 * d));
        b |= (s >> d) & (s << d);
    }
    *ws = a & empty;
    *wo = b & empty;
}

static inline void safe_sets(u64 s, u64 o, u64 empty, u64 *ss, u64 *so) {
    u64 bs = 0, bo = 0;
    for (int i = 0; i < 4; i++) {
        int d = DIRS[i];
        u64 e1 = empty >> d, e2 = empty << d;
        bs |= ((o >> d) & (e1 >> d)) | ((o << d) & (e2 << d)) | ((s >> 2 * d) & e1) | ((s << 2 * d) & e2);
        bo |= ((s >> d) & e2) | ((s << d) & e1);
    }
    *ss = empty & ~bs;
    *so = empty & ~bo;
}

static inline int points(u64 s, u64 o, u64 bit, int is_s) {
    int total = 0;
    for (int i = 0; i < 4; i++) {
        int d = DIRS[i];
        if (is_s)
            total += ((o & bit << d) && (s & bit << 2 * d)) + ((o & bit >> d) && (s & bit >> 2 * d));
        else
            total += (s & bit << d) && (s & bit >> d);
    }
    return total;
}

static inline int open_lines(u64 s, u64 o, u64 empty) {
    u64 fs = s | empty, fo = o | empty;
    int total = 0;
    for (int i = 0; i < 4; i++) {
        int d = DIRS[i];
        total += popcount(fs & (fo >> d) & (fs >> 2 * d) & (empty | empty >> d | empty >> 2 * d) & VALID);
    }
    return total;
}

/* threat counts: cells where an S (an O) leaves at least one / at least two threats */
static inline void threat_counts(u64 s, u64 o, u64 empty, u64 *s1, u64 *s2, u64 *o1, u64 *o2) {
    u64 a1 = 0, a2 = 0, b1 = 0, b2 = 0;
    for (int i = 0; i < 4; i++) {
        int d = DIRS[i];
        u64 e1 = empty >> d, e2 = empty << d;
        u64 ms[4] = {(o >> d) & (empty >> 2 * d), (s >> 2 * d) & e1, (o << d) & (empty << 2 * d),
                     (s << 2 * d) & e2};
        u64 mo[2] = {(s >> d) & e2, (s << d) & e1};
        for (int j = 0; j < 4; j++) { a2 |= a1 & ms[j]; a1 |= ms[j]; }
        for (int j = 0; j < 2; j++) { b2 |= b1 & mo[j]; b1 |= mo[j]; }
    }
    *s1 = a1; *s2 = a2; *o1 = b1; *o2 = b2;
}

/* -- the transposition table ---------------------------------------------------------------- */
/* entry: key (50 bits) << 14 | value + 64 (7 bits) << 7 | flag (2 bits) << 5 | work (5 bits) */
enum { LOWER = 1, UPPER = 2, EXACT = 3 };
static u64 *tt;
static u64 tt_buckets; /* a bucket is two entries */
static u64 tt_stores, tt_hits;

static void tt_init(u64 mb) {
    tt_buckets = (mb << 20) / 16;
    if (tt_buckets < 1024) tt_buckets = 1024;
    tt = calloc(tt_buckets * 2, sizeof(u64));
    if (!tt) { fprintf(stderr, "no memory for the table\n"); exit(2); }
}
static inline u64 *tt_bucket(u64 key) {
    u64 h = (key ^ key >> 29) * 0x9E3779B97F4A7C15ull;
    return tt + 2 * (u64)(((unsigned __int128)h * tt_buckets) >> 64);
}
/* 1 if found: *lo, *hi the bounds it holds */
static inline int tt_probe(u64 key, int *lo, int *hi) {
    u64 *b = tt_bucket(key);
    for (int i = 0; i < 2; i++) {
        u64 e = b[i];
        if (e && e >> 14 == key) {
            int v = (int)(e >> 7 & 127) - 64, f = e >> 5 & 3;
            *lo = f & LOWER ? v : -99;
            *hi = f & UPPER ? v : 99;
            return 1;
        }
    }
    return 0;
}
/* Narrow [*lo, *hi] by what the table holds for key: 1 if that settles the node against
   (alpha, beta), its value then in *value */
static inline int tt_narrow(u64 key, int *lo, int *hi, int alpha, int beta, int *value) {
    int tlo, thi;
    if (!tt_probe(key, &tlo, &thi)) return 0;
    tt_hits++;
    if (tlo > *lo) *lo = tlo;
    if (thi < *hi) *hi = thi;
    if (*lo >= beta || *lo == *hi) { *value = *lo; return 1; }
    if (*hi <= alpha) { *value = *hi; return 1; }
    return 0;
}
static inline void tt_store(u64 key, int v, int flag, u64 work) {
    int w = 0;
    while (work > 1 && w < 31) { work >>= 1; w++; }
    u64 e = key << 14 | (u64)(v + 64) << 7 | (u64)flag << 5 | (u64)w;
    u64 *b = tt_bucket(key);
    tt_stores++;
    if (b[0] >> 14 == key || !b[0]) { b[0] = e; return; }
    if (b[1] >> 14 == key) { b[1] = e; return; }
    if (w >= (int)(b[0] & 31)) { b[1] = b[0]; b[0] = e; } /* the bigger work stays in slot 0 */
    else b[1] = e;
}

/* -- mirror knowledge (simple mode) -------------------------------------------------------- */
/* +1: the mover can copy the opponent's last move through the centre (value >= 0);
 * -1: the board is symmetric, so the opponent can (value <= 0); 0: neither. */
static int mirror(u64 s, u64 o) {
    if (CENTRE && !((s | o) & CENTRE)) return 0;
    u32 cs = compact(s), co = compact(o);
    u32 rs = rot180(cs), ro = rot180(co);
    u32 ds = cs ^ rs, dz = co ^ ro;
    if (!ds && !dz) return -1;
    /* one letter short: the difference is one cell and its image, one of them empty */
    u32 diff = ds | dz;
    if (popcount(diff) != 2 || (ds && dz)) return 0;
    return 1;
}

/* -- simple mode ---------------------------------------------------------------------------- */
typedef struct { u64 bit; int is_s; int key; } Move;

static int gen_simple(u64 s, u64 o, u64 empty, Move *mv) {
    u64 ss, so;
    safe_sets(s, o, empty, &ss, &so);
    int n = 0;
    for (u64 cells = ss | so; cells; cells &= cells - 1) {
        u64 bit = cells & -cells;
        for (int is_s = 1; is_s >= 0; is_s--) {
            if (!((is_s ? ss : so) & bit)) continue;
            u64 s2 = is_s ? s | bit : s, o2 = is_s ? o : o | bit, e2 = empty & ~bit, a, b;
            safe_sets(s2, o2, e2, &a, &b);
            mv[n].bit = bit;
            mv[n].is_s = is_s;
            mv[n].key = popcount(a) + popcount(b); /* the opponent's safe moves: fewest first */
            n++;
        }
    }
    for (int i = 1; i < n; i++) { /* insertion sort, stable */
        Move m = mv[i];
        int j = i;
        while (j > 0 && mv[j - 1].key > m.key) { mv[j] = mv[j - 1]; j--; }
        mv[j] = m;
    }
    return n;
}

static int simple(u64 s, u64 o, int alpha, int beta) {
    nodes++;
    if ((nodes & ((1ull << 26) - 1)) == 0)
        fprintf(stderr, "  ... %llu nodes, %.0f s, %.2f M/s\n", (unsigned long long)nodes, now() - t0,
                nodes / (now() - t0) / 1e6);
    u64 empty = VALID & ~(s | o);
    if (!(empty & (empty - 1))) return 0; /* the last cell (never a threat left): a draw */
    int lo = -1, hi = 1;
    int m = mirror(s, o);
    if (m > 0) lo = 0;
    else if (m < 0) hi = 0;
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    u64 key = canon(s, o);
    int settled;
    if (tt_narrow(key, &lo, &hi, alpha, beta, &settled)) return settled;
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    Move mv[64];
    int n = gen_simple(s, o, empty, mv);
    if (!n) { /* every move hands the opponent an SOS */
        tt_store(key, -1, EXACT, 1);
        return -1;
    }
    int depth = popcount(empty);
    if (depth >= ETC_MIN) { /* enhanced transposition cutoff: a child already known lost */
        for (int i = 0; i < n; i++) {
            u64 s2 = mv[i].is_s ? s | mv[i].bit : s, o2 = mv[i].is_s ? o : o | mv[i].bit;
            int clo, chi;
            if (tt_probe(canon(s2, o2), &clo, &chi) && -chi >= beta) return -chi;
        }
    }
    u64 start = nodes;
    int a0 = alpha, best = -2;
    for (int i = 0; i < n; i++) {
        u64 s2 = mv[i].is_s ? s | mv[i].bit : s, o2 = mv[i].is_s ? o : o | mv[i].bit;
        int v = -simple(s2, o2, -beta, -alpha);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    int flag = best <= a0 ? UPPER : best >= beta ? LOWER : EXACT;
    tt_store(key, best, flag, nodes - start);
    return best;
}

/* -- general mode --------------------------------------------------------------------------- */
static int general(u64 s, u64 o, int alpha, int beta);

static int gen_general(u64 s, u64 o, u64 empty, Move *mv) {
    u64 ws, wo, s1, s2, o1, o2;
    int n = 0;
    win_sets(s, o, empty, &ws, &wo);
    for (u64 cells = ws | wo; cells; cells &= cells - 1) {
        u64 bit = cells & -cells;
        if (ws & bit) { mv[n].bit = bit; mv[n].is_s = 1; mv[n].key = -points(s, o, bit, 1); n++; }
        if (wo & bit) { mv[n].bit = bit; mv[n].is_s = 0; mv[n].key = -points(s, o, bit, 0); n++; }
    }
    threat_counts(s, o, empty, &s1, &s2, &o1, &o2);
    u64 rs = empty & ~ws, ro = empty & ~wo;
    u64 cls[3][2] = {{rs & ~s1, ro & ~o1}, {rs & s1 & ~s2, ro & o1 & ~o2}, {rs & s2, ro & o2}};
    for (int k = 0; k < 3; k++)
        for (u64 cells = cls[k][0] | cls[k][1]; cells; cells &= cells - 1) {
            u64 bit = cells & -cells;
            for (int is_s = 1; is_s >= 0; is_s--) {
                if (!(cls[k][!is_s] & bit)) continue;
                int key = (k + 1) * 64;
                if (k == 0 && ORDER) { /* safe moves: the fewest safe replies first */
                    u64 s2 = is_s ? s | bit : s, o2 = is_s ? o : o | bit, a, b;
                    safe_sets(s2, o2, empty & ~bit, &a, &b);
                    key += popcount(a) + popcount(b);
                }
                mv[n].bit = bit; mv[n].is_s = is_s; mv[n].key = key; n++;
            }
        }
    for (int i = 1; i < n; i++) {
        Move m = mv[i];
        int j = i;
        while (j > 0 && mv[j - 1].key > m.key) { mv[j] = mv[j - 1]; j--; }
        mv[j] = m;
    }
    return n;
}

static inline int child_general(u64 s, u64 o, Move *m, int alpha, int beta) {
    int gained = m->key < 0 ? -m->key : 0;
    u64 s2 = m->is_s ? s | m->bit : s, o2 = m->is_s ? o : o | m->bit;
    if (gained) return gained + general(s2, o2, alpha - gained, beta - gained);
    return -general(s2, o2, -beta, -alpha);
}

static int general(u64 s, u64 o, int alpha, int beta) {
    nodes++;
    if ((nodes & ((1ull << 26) - 1)) == 0)
        fprintf(stderr, "  ... %llu nodes, %.0f s, %.2f M/s\n", (unsigned long long)nodes, now() - t0,
                nodes / (now() - t0) / 1e6);
    u64 empty = VALID & ~(s | o);
    if (!empty) return 0;
    int reach = open_lines(s, o, empty);
    int lo = -reach, hi = reach;
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    u64 key = canon(s, o);
    int settled;
    if (tt_narrow(key, &lo, &hi, alpha, beta, &settled)) return settled;
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    Move mv[64];
    int n = gen_general(s, o, empty, mv);
    if (popcount(empty) >= ETC_MIN) { /* enhanced transposition cutoff: a child already good enough */
        for (int i = 0; i < n; i++) {
            int gained = mv[i].key < 0 ? -mv[i].key : 0, clo, chi;
            u64 s2 = mv[i].is_s ? s | mv[i].bit : s, o2 = mv[i].is_s ? o : o | mv[i].bit;
            if (!tt_probe(canon(s2, o2), &clo, &chi)) continue;
            int v = gained ? (clo > -99 ? gained + clo : -99) : (chi < 99 ? -chi : -99);
            if (v >= beta) return v;
        }
    }
    u64 start = nodes;
    int a0 = alpha, best = -99;
    for (int i = 0; i < n; i++) {
        int v;
        if (i > 0 && beta - alpha > 1) {
            v = child_general(s, o, &mv[i], alpha, alpha + 1);
            if (alpha < v && v < beta) v = child_general(s, o, &mv[i], v, beta);
        } else {
            v = child_general(s, o, &mv[i], alpha, beta);
        }
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    int flag = best <= a0 ? UPPER : best >= beta ? LOWER : EXACT;
    tt_store(key, best, flag, nodes - start);
    return best;
}

/* -- the questions ---------------------------------------------------------------------------- */
static int parse(const char *board, u64 *s, u64 *o) {
    if ((int)strlen(board) != N) return 0;
    *s = *o = 0;
    for (int i = 0; i < N; i++) {
        u64 bit = 1ull << pos_of(i / C, i % C);
        if (board[i] == 'S') *s |= bit;
        else if (board[i] == 'O') *o |= bit;
        else if (board[i] != '.') return 0;
    }
    return 1;
}
static void unparse(u64 s, u64 o, char *out) {
    for (int i = 0; i < N; i++) {
        u64 bit = 1ull << pos_of(i / C, i % C);
        out[i] = s & bit ? 'S' : o & bit ? 'O' : '.';
    }
    out[N] = 0;
}
static void canon_board(u64 s, u64 o, char *out) {
    u64 key = canon(s, o);
    unparse(expand((u32)(key >> N)), expand((u32)(key & ((1ull << N) - 1))), out);
}
static int cell_of(u64 bit) { int p = ctz(bit); return (p / W) * C + p % W; }

/* the mover's value within (alpha, beta): a fail-soft bound outside it */
static int search(u64 s, u64 o, int alpha, int beta) {
    if (SIMPLE) {
        u64 empty = VALID & ~(s | o), ws, wo;
        if (!empty) return 0;
        win_sets(s, o, empty, &ws, &wo);
        if (ws | wo) return 1;
        return simple(s, o, alpha, beta);
    }
    return general(s, o, alpha, beta);
}

/* the exact value, by null-window steps (simple) or an aspiration-free full window (general) */
static int value(u64 s, u64 o) {
    if (SIMPLE) {
        int v = search(s, o, 0, 1); /* a win? */
        if (v >= 1) return 1;
        return search(s, o, -1, 0) <= -1 ? -1 : 0;
    }
    if (MTD) { /* MTD(f): null-window tests from a guess of 0 (a draw), each narrowing the value */
        int lo = -99, hi = 99, g = 0;
        while (lo < hi) {
            int beta = g == lo ? g + 1 : g;
            g = search(s, o, beta - 1, beta);
            if (g < beta) hi = g;
            else lo = g;
            fprintf(stderr, "  value in [%d, %d] after %llu nodes, %.0f s\n", lo, hi,
                    (unsigned long long)nodes, now() - t0);
        }
        return g;
    }
    return search(s, o, -99, 99);
}

/* the mover's value of one move; in simple mode a move that leaves a threat loses (-1) */
static int move_value(u64 s, u64 o, u64 bit, int is_s) {
    u64 s2 = is_s ? s | bit : s, o2 = is_s ? o : o | bit;
    int gained = points(s, o, bit, is_s);
    if (SIMPLE) {
        if (gained) return 1;
        u64 empty = VALID & ~(s2 | o2), a, b;
        if (!empty) return 0;
        win_sets(s2, o2, empty, &a, &b);
        if (a | b) return -1;
        return -value(s2, o2);
    }
    return gained ? gained + value(s2, o2) : -value(s2, o2);
}

static void report(const char *what, int v, double start, u64 n0) {
    printf("%s value %+d nodes %llu seconds %.1f\n", what, v, (unsigned long long)(nodes - n0), now() - start);
    fflush(stdout);
}

static int cmd_moves(u64 s, u64 o, const char *out) {
    char seen[64][32] = {{0}}, done[512][40];
    int nseen = 0, ndone = 0;
    FILE *f;
    if (out && (f = fopen(out, "r"))) { /* the checkpoint: moves already solved */
        char line[256];
        while (ndone < 512 && fgets(line, sizeof line, f)) {
            char b[40];
            if (sscanf(line, "move %39s", b) == 1) strcpy(done[ndone++], b);
        }
        fclose(f);
    }
    u64 empty = VALID & ~(s | o);
    for (u64 cells = empty; cells; cells &= cells - 1) {
        u64 bit = cells & -cells;
        for (int is_s = 1; is_s >= 0; is_s--) {
            u64 s2 = is_s ? s | bit : s, o2 = is_s ? o : o | bit;
            char image[32], name[40];
            canon_board(s2, o2, image);
            int dup = 0;
            for (int i = 0; i < nseen; i++) dup |= !strcmp(seen[i], image);
            if (dup) continue;
            strcpy(seen[nseen++], image);
            int cell = cell_of(bit);
            snprintf(name, sizeof name, "%d%c", cell, is_s ? 'S' : 'O');
            int skip = 0;
            for (int i = 0; i < ndone; i++) skip |= !strcmp(done[i], name);
            if (skip) continue;
            double start = now();
            u64 n0 = nodes;
            int v = move_value(s, o, bit, is_s);
            char line[256];
            snprintf(line, sizeof line, "move %s cell %d letter %c value %+d nodes %llu seconds %.1f\n",
                     name, cell, is_s ? 'S' : 'O', v, (unsigned long long)(nodes - n0), now() - start);
            fputs(line, stdout);
            fflush(stdout);
            if (out && (f = fopen(out, "a"))) { fputs(line, f); fclose(f); }
        }
    }
    return 0;
}

/* -- strategies (simple mode) ----------------------------------------------------------------- */
/* Visit every position the strategy can meet and print the strategist's move where more than
 * K cells are empty. target: the value the strategist keeps (>= target for the strategist). */
static int K;
static u64 *seen_keys;
static u64 seen_mask, nlines;

static u64 seen_count;
static int seen_add(u64 key) {
    u64 i = (key * 0x9E3779B97F4A7C15ull >> 17) & seen_mask;
    while (seen_keys[i]) {
        if (seen_keys[i] == key + 1) return 0;
        i = (i + 1) & seen_mask;
    }
    seen_keys[i] = key + 1;
    if (++seen_count > seen_mask / 4 * 3) { fprintf(stderr, "the strategy outgrew its table\n"); exit(4); }
    return 1;
}

static void strategy(u64 s, u64 o, int mine, int target) {
    u64 empty = VALID & ~(s | o);
    if (popcount(empty) <= K || !empty) return;
    u64 key = canon(s, o);
    if (!seen_add(key << 1 | (u64)mine)) return;
    Move mv[64];
    int n = gen_simple(s, o, empty, mv);
    if (mine) {
        for (int i = 0; i < n; i++) {
            u64 s2 = mv[i].is_s ? s | mv[i].bit : s, o2 = mv[i].is_s ? o : o | mv[i].bit;
            int v = -search(s2, o2, -target, -target + 1);
            if (v >= target) {
                char image[32];
                canon_board(s, o, image);
                /* the move in the canonical frame: find the symmetry that maps the board to it */
                u32 cs = compact(s), co = compact(o), cb = compact(mv[i].bit);
                for (int k = 0; k < NSYM; k++)
                    if (((u64)transform(k, cs) << N | transform(k, co)) == key) {
                        printf("%s %d %c\n", image, ctz(transform(k, cb)), mv[i].is_s ? 'S' : 'O');
                        break;
                    }
                nlines++;
                strategy(s2, o2, 0, target);
                return;
            }
        }
        fprintf(stderr, "no move keeps the value: the table was wrong\n");
        exit(3);
    }
    for (int i = 0; i < n; i++) {
        u64 s2 = mv[i].is_s ? s | mv[i].bit : s, o2 = mv[i].is_s ? o : o | mv[i].bit;
        strategy(s2, o2, 1, target);
    }
}

/* The same strategy as a certificate: a depth-first walk in a fixed order, one byte per position
 * of the strategist met for the first time (its symmetry class unseen): cell * 2 + (1 if O).
 * The opponent's moves are every safe move, cells in row-major order, S before O (a move that
 * leaves a threat loses at once and is not followed). sos_tui/ai/certificate.py walks the same
 * order and reads the bytes back. target: what the strategist keeps (1 a win, 0 a draw). */
static FILE *cert_out;

static void cert(u64 s, u64 o, int mine, int target) {
    u64 empty = VALID & ~(s | o);
    if (!empty) return;
    if (!seen_add(canon(s, o) << 1 | (u64)mine)) return;
    Move mv[64];
    int n = gen_simple(s, o, empty, mv);
    if (mine) {
        for (int i = 0; i < n; i++) {
            u64 s2 = mv[i].is_s ? s | mv[i].bit : s, o2 = mv[i].is_s ? o : o | mv[i].bit;
            if (-search(s2, o2, -target, -target + 1) >= target) {
                fputc(cell_of(mv[i].bit) * 2 + !mv[i].is_s, cert_out);
                nlines++;
                cert(s2, o2, 0, target);
                return;
            }
        }
        fprintf(stderr, "no move keeps the value: the table was wrong\n");
        exit(3);
    }
    u64 ss, so;
    safe_sets(s, o, empty, &ss, &so);
    for (u64 cells = ss | so; cells; cells &= cells - 1) {
        u64 bit = cells & -cells;
        if (ss & bit) cert(s | bit, o, 1, target);
        if (so & bit) cert(s, o | bit, 1, target);
    }
}

int main(int argc, char **argv) {
    u64 mb = 1024;
    int i = 1;
    for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
        if (i + 1 >= argc) break;
        if (!strcmp(argv[i], "--rows")) R = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--cols")) C = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--mode")) SIMPLE = !strcmp(argv[i + 1], "simple");
        else if (!strcmp(argv[i], "--tt-mb")) mb = strtoull(argv[i + 1], 0, 10);
        else if (!strcmp(argv[i], "--etc")) ETC_MIN = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--mtd")) MTD = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--order")) ORDER = atoi(argv[i + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
    }
    if (R < 1 || C < 1 || R * C > 25 || (R > 1 && C + 2 > 7 && R * (C + 2) > 40)) {
        /* 1 x n strips up to 25 cells; grids whose padded layout fits well within 64 bits */
        fprintf(stderr, "unsupported board %dx%d\n", R, C);
        return 2;
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "usage: solve5 [--rows R --cols C --mode simple|general --tt-mb MB --etc N] "
                        "value|test|moves|strategy BOARD ...\n");
        return 2;
    }
    setup();
    tt_init(mb);
    const char *cmd = argv[i], *board = argv[i + 1];
    u64 s, o;
    if (!parse(board, &s, &o)) { fprintf(stderr, "bad board %s\n", board); return 2; }
    t0 = now();
    if (!strcmp(cmd, "value")) {
        int v = value(s, o);
        report("board", v, t0, 0);
    } else if (!strcmp(cmd, "test") && i + 2 < argc) {
        int target = atoi(argv[i + 2]);
        int v = search(s, o, target - 1, target);
        printf("%d nodes %llu seconds %.1f\n", v >= target, (unsigned long long)nodes, now() - t0);
    } else if (!strcmp(cmd, "moves")) {
        return cmd_moves(s, o, i + 2 < argc ? argv[i + 2] : NULL);
    } else if (!strcmp(cmd, "strategy") && i + 3 < argc && SIMPLE) {
        int side = atoi(argv[i + 2]);
        K = atoi(argv[i + 3]);
        int v = value(s, o);
        /* the strategist keeps its value: the mover keeps v, the other player -v */
        int target = side ? -v : v;
        seen_mask = (1ull << 26) - 1; /* 512 MB: 50 million positions */
        seen_keys = calloc(seen_mask + 1, sizeof(u64));
        fprintf(stderr, "value %+d, strategy for the %s\n", v, side ? "other player" : "mover");
        strategy(s, o, side == 0, target);
        fprintf(stderr, "%llu positions, %llu nodes, %.1f s\n", (unsigned long long)nlines,
                (unsigned long long)nodes, now() - t0);
    } else if (!strcmp(cmd, "certificate") && i + 3 < argc && SIMPLE) {
        int side = atoi(argv[i + 2]);
        int v = value(s, o);
        int target = side ? -v : v;
        if (target < 0) { fprintf(stderr, "the strategist loses: nothing to certify\n"); return 1; }
        cert_out = fopen(argv[i + 3], "wb");
        if (!cert_out) { perror(argv[i + 3]); return 2; }
        seen_mask = (1ull << 26) - 1; /* 512 MB: 50 million positions */
        seen_keys = calloc(seen_mask + 1, sizeof(u64));
        cert(s, o, side == 0, target);
        fclose(cert_out);
        printf("value %+d target %+d positions %llu\n", v, target, (unsigned long long)nlines);
    } else {
        fprintf(stderr, "unknown command %s\n", cmd);
        return 2;
    }
    fprintf(stderr, "nodes %llu table stores %llu hits %llu seconds %.1f\n", (unsigned long long)nodes,
            (unsigned long long)tt_stores, (unsigned long long)tt_hits, now() - t0);
    return 0;
}
