/* The compiled core of the open-card solver (skat.players.solver._csolver).
 *
 * The same search as python.py: fail-soft alpha-beta over single card plays,
 * a transposition table at trick starts with lower and upper bounds of the
 * future score and the best lead, equivalent cards merged, move ordering,
 * zero-window tests and MTD(f) for the exact value. See docs/players.md.
 *
 * Cards are renumbered per game type so that each effective suit (trumps
 * first) is a run of bits with its strongest card lowest: following suit is
 * one AND, "is there a remaining card between these two" is one mask, and a
 * card beats another of its suit when its index is smaller.
 *
 * In POINTS_MODE (the hot path: exact values and `reaches`) each card of a
 * trick has a node of its own (lead, second, third), with the trick's cards
 * as arguments and the same move order as gen_moves, which the other modes
 * use through node().
 *
 * Every search runs with the GIL released. The transposition table belongs
 * to the calling thread (a pthread key), so threads never share one; it stays
 * valid across calls with the same game type, declarer and mode.
 */
/* On x86-64 with GCC the whole module may use the popcnt instruction (every
 * x86-64 CPU since 2008 has it; the module refuses to load on one without,
 * and the pure-Python core answers instead): the counts of the hot path in
 * one instruction, 0.95 of the CPU. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__POPCNT__)
#pragma GCC target("popcnt")
#define NEED_POPCNT_CHECK 1
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

enum { POINTS_MODE = 0, ALL_MODE = 1, NULL_MODE = 2 };
#define NGAMES 6
#define NULL_GAME 5
/* 2^19 entries of 16 bytes, 8 MB a thread: measured faster than 16 MB
 * (fewer cache and TLB misses) and than 4 MB (more entries lost) */
#ifndef TT_BITS
#define TT_BITS 19
#endif
#define TT_SIZE (1u << TT_BITS)
#define MAX_GEN 63

static const uint8_t RANK_POINTS[8] = {11, 10, 4, 3, 2, 0, 0, 0};
static const uint8_t PTS_LEVELS[6] = {0, 2, 3, 4, 10, 11};

typedef struct {
    uint8_t to_idx[32];     /* card -> index */
    uint8_t group[32];      /* index -> effective suit group (0 = trumps when there are any) */
    uint32_t group_mask[5]; /* indices of each group */
    uint8_t pts[32];        /* card points by index */
    uint8_t pts8[4][256];   /* card points of each byte of a mask of indices */
    uint32_t by_pts[6];     /* indices worth 0, 2, 3, 4, 10, 11 points */
    int trump;              /* the trump group (0) or -1 in Null */
    /* per mode: runs of cards next to each other in one group that only
     * their order tells apart, for the table's canonical key: in ALL_MODE
     * and NULL_MODE, where points do not count, each whole group */
    uint32_t runs[3][16];
    int nruns[3];
} Game;

static Game GAMES[NGAMES];
static int initialised = 0;

typedef struct {
    uint32_t h0, h1, h2;
    uint8_t meta; /* leader | generation << 2; 0 = empty */
    uint8_t lo, hi, best;
} Entry;

typedef struct {
    Entry *e;
    /* per entry, a byte of its key's hash and generation (0: empty), in an
     * array of its own, a sixteenth of the entries' memory */
    uint8_t *fp;
    int gen, game, decl, mode;
} Table;

typedef struct {
    const Game *G;
    Table *tt;
    uint32_t h[3];
    int trick[3];
    int nt;
    int decl, mode;
    /* the call's limits: stopped is set once the clock passes deadline_ns
     * (read every STOP_EVERY nodes); a stopped search returns garbage and
     * stores nothing, so the table holds only finished results */
    int64_t deadline_ns;
    long max_nodes;
    int stopped;
} Search;

#define STOP_EVERY 1024

/* Statistics of the calling thread's last call (for the benchmark). */
/* (initial-exec: a plain load, not a call of __tls_get_addr per node) */
#if defined(__GNUC__) && defined(__linux__)
#define TLS_FAST __attribute__((tls_model("initial-exec")))
#else
#define TLS_FAST
#endif
static __thread long stat_nodes TLS_FAST, stat_passes TLS_FAST;

static pthread_key_t tt_key;
static pthread_once_t tt_once = PTHREAD_ONCE_INIT;

static void tt_free(void *p) {
    Table *t = (Table *)p;
    if (t) {
        free(t->e);
        free(t->fp);
        free(t);
    }
}

static void tt_make_key(void) { pthread_key_create(&tt_key, tt_free); }

/* The entries, zeroed; on Linux in huge pages where the kernel gives them
 * (2 MB pages: the probes, scattered over the table, then miss the TLB far
 * less often). */
static Entry *tt_alloc(void) {
    size_t bytes = (size_t)TT_SIZE * sizeof(Entry);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *p = NULL;
    if (posix_memalign(&p, 1u << 21, bytes) != 0) return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    memset(p, 0, bytes);
    return (Entry *)p;
#else
    return (Entry *)calloc(TT_SIZE, sizeof(Entry));
#endif
}

/* The calling thread's table, set up for this context; NULL if out of memory. */
static Table *tt_get(int game, int decl, int mode) {
    pthread_once(&tt_once, tt_make_key);
    Table *t = (Table *)pthread_getspecific(tt_key);
    if (!t) {
        t = (Table *)calloc(1, sizeof(Table));
        if (!t) return NULL;
        t->e = tt_alloc();
        t->fp = (uint8_t *)calloc(TT_SIZE, 1);
        if (!t->e || !t->fp) {
            free(t->e);
            free(t->fp);
            free(t);
            return NULL;
        }
        t->gen = 1;
        t->game = game;
        t->decl = decl;
        t->mode = mode;
        pthread_setspecific(tt_key, t);
        return t;
    }
    if (t->game != game || t->decl != decl || t->mode != mode) {
        t->game = game;
        t->decl = decl;
        t->mode = mode;
        if (++t->gen > MAX_GEN) {
            memset(t->e, 0, TT_SIZE * sizeof(Entry));
            memset(t->fp, 0, TT_SIZE);
            t->gen = 1;
        }
    }
    return t;
}

static void tt_clear(void) {
    pthread_once(&tt_once, tt_make_key);
    Table *t = (Table *)pthread_getspecific(tt_key);
    if (t) {
        memset(t->e, 0, TT_SIZE * sizeof(Entry));
        memset(t->fp, 0, TT_SIZE);
        t->gen = 1;
        t->game = -1;
    }
}

/* The hash of a key: a sum of products, so that taking a card out of a
 * hand takes its part out of the sum (the third card's node works out its
 * children's hashes so, without multiplying), then mixed down. */
#define HC0 0x9E3779B97F4A7C15ULL
#define HC1 0xC2B2AE3D27D4EB4FULL
#define HC2 0x165667B19E3779F9ULL
static inline uint64_t hash_sum(uint32_t h0, uint32_t h1, uint32_t h2) {
    return (uint64_t)h0 * HC0 + (((uint64_t)h1 << 32) | h2) * HC1;
}

static inline uint64_t hash_mix(uint64_t k, int leader) {
    k += (uint64_t)leader * HC2;
    return k ^ (k >> 31);
}

/* the part of card 0 of hand p in hash_sum; card c's is this << c */
static inline uint64_t hash_part(int p) { return p == 0 ? HC0 : p == 1 ? HC1 << 32 : HC1; }

static inline uint64_t hash_of(uint32_t h0, uint32_t h1, uint32_t h2, int leader) {
    return hash_mix(hash_sum(h0, h1, h2), leader);
}

static inline uint32_t slot_of(uint64_t k) {
    return (uint32_t)(k >> (64 - TT_BITS)) & ~1u; /* two entries per bucket */
}

/* The byte that stands for an entry in the table's fingerprints: other
 * bits of the hash than the slot's, mixed with the generation (so that an
 * older generation's bytes mostly differ without clearing them); never 0. */
static inline uint8_t fp_of(uint64_t k, int gen) {
    uint8_t f = (uint8_t)((k >> 8) ^ (uint64_t)gen * 0x9Du);
    return f ? f : 1;
}

/* without popcnt (see the top) __builtin_popcount is a library call: count inline */
static inline int popc(uint32_t m) {
#ifdef __POPCNT__
    return __builtin_popcount(m);
#else
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (int)((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif
static inline int lowest(uint32_t m) { return __builtin_ctz(m); }
static inline int highest(uint32_t m) { return 31 - __builtin_clz(m); }

/* The key of a trick start: within each run the cards left are moved to
 * the run's strongest places, in order. Two positions that differ only in
 * which cards of a run are gone play alike (the same order, and no points
 * to tell the cards apart), so they share one entry. */
static inline void canon(const Search *s, uint32_t rest, uint32_t *k) {
    const Game *G = s->G;
    int m = s->mode;
    k[0] = s->h[0];
    k[1] = s->h[1];
    k[2] = s->h[2];
    for (int j = 0; j < G->nruns[m]; j++) {
        uint32_t R = G->runs[m][j];
        uint32_t r = rest & R;
        if (!r) continue;
        int b = lowest(R);
        if (r == ((1u << popc(r)) - 1) << b) continue; /* already in place */
        uint32_t n0 = 0, n1 = 0, n2 = 0, nb = 1u << b;
        for (uint32_t x = r; x; x &= x - 1, nb <<= 1) {
            uint32_t bit = x & -x;
            if (k[0] & bit)
                n0 |= nb;
            else if (k[1] & bit)
                n1 |= nb;
            else
                n2 |= nb;
        }
        k[0] = (k[0] & ~R) | n0;
        k[1] = (k[1] & ~R) | n1;
        k[2] = (k[2] & ~R) | n2;
    }
}

static inline int mask_points(const Game *G, uint32_t m) {
    return G->pts8[0][m & 255] + G->pts8[1][m >> 8 & 255] + G->pts8[2][m >> 16 & 255] +
           G->pts8[3][m >> 24];
}

/* Does card x beat the card ``best`` that is winning the trick so far? */
static inline int beats(const Game *G, int x, int best) {
    int gx = G->group[x], gb = G->group[best];
    if (gx == gb) return x < best;
    return gx == G->trump;
}

/* Position (offset from the leader 0..2) that wins the trick a, b, c. */
static inline int winner_offset(const Game *G, int a, int b, int c) {
    int w = 0, best = a;
    if (beats(G, b, best)) {
        w = 1;
        best = b;
    }
    if (beats(G, c, best)) w = 2;
    return w;
}

static inline int trick_score(const Search *s, int w, int a, int b, int c) {
    if (s->mode == POINTS_MODE)
        return w == s->decl ? s->G->pts[a] + s->G->pts[b] + s->G->pts[c] : 0;
    if (s->mode == NULL_MODE) return w != s->decl;
    return w == s->decl;
}

static int future_max(const Search *s) {
    uint32_t rest = s->h[0] | s->h[1] | s->h[2];
    if (s->mode == POINTS_MODE) {
        int p = mask_points(s->G, rest);
        for (int i = 0; i < s->nt; i++) p += s->G->pts[s->trick[i]];
        return p;
    }
    return (popc(rest) + s->nt) / 3;
}

/* Bounds from the run of the highest trumps left that one side holds: a
 * trick with one of them is won by that side (every higher trump is its
 * own), so their points (POINTS_MODE) are the declarer's at least, or the
 * defenders'; in tricks (ALL_MODE), the declarer takes one trick per card
 * of his run, the defenders at least one per two of theirs. */
static inline void top_trumps(const Search *s, uint32_t rest, int *lo, int *hi) {
    const Game *G = s->G;
    if (G->trump < 0) return;
    uint32_t tr = rest & G->group_mask[G->trump];
    if (!tr) return;
    uint32_t decl = s->h[s->decl];
    uint32_t mine = (decl >> lowest(tr)) & 1;
    int pts = 0, run = 0;
    for (; tr; tr &= tr - 1) {
        int c = lowest(tr);
        if (((decl >> c) & 1) != mine) break;
        pts += G->pts[c];
        run++;
    }
    if (s->mode == POINTS_MODE) {
        if (mine)
            *lo = pts;
        else
            *hi -= pts;
    } else if (mine) {
        *lo = run;
    } else {
        *hi -= (run + 1) / 2;
    }
}

/* Quick tricks of the side to lead, at a trick start (POINTS_MODE and
 * ALL_MODE): a bound that holds whatever the others play.
 *
 * The leader first leads his own run of the highest trumps left (t cards):
 * each takes its trick, as no higher trump is out, and the partner, below
 * it, never takes the lead away. An opponent with trumps must follow
 * trumps, so after those t tricks an opponent holds trumps only if he had
 * more than t, and then he discarded nothing. Then the leader leads, in
 * each other group g, his run of the highest cards of g left: the i-th of
 * them takes its trick when every opponent either still follows g (holds
 * at least i cards of g: he followed every earlier lead of g and of the
 * trumps) or has no trump left to ruff with; an opponent with no trump
 * left never gets one. The partner (of a defender) must not take the lead
 * away: to the trumps he follows lower or throws a side card; to the other
 * leads he follows lower or throws any side card (no duty to ruff, R4.3),
 * which he can while he has side cards. He has enough of them unless he
 * keeps trumps after the t tricks and holds fewer side cards than the side
 * suit tricks: then those are not counted. The number of such tricks k_g is
 * the run's length, capped by the fewest cards of g among the opponents
 * who keep trumps after the t tricks.
 *
 * The leader's side then takes at least t + sum k_g tricks (ALL_MODE),
 * or at least the points of those cards (POINTS_MODE; the others' cards
 * count 0 at least); in POINTS_MODE also the points of the whole run of
 * top trumps the side holds (top_trumps: every trick with one of them is
 * the side's whatever is played), which holds the leader's t trumps, and
 * the suit cards led are other cards: the two add up. A bound for the
 * declarer is a lower bound (lo), one for the defenders lowers hi from
 * the total left (fmax). */
/* The points of the n cheapest cards of hand. */
static inline int cheapest(const Game *G, uint32_t hand, int n) {
    int sum = 0;
    for (int v = 0; v < 6 && n > 0; v++) {
        int k = popc(hand & G->by_pts[v]);
        if (k > n) k = n;
        sum += k * PTS_LEVELS[v];
        n -= k;
    }
    return sum;
}

static inline void quick_tricks(const Search *s, uint32_t rest, int leader, int fmax, int *lo,
                                int *hi) {
    const Game *G = s->G;
    uint32_t own = s->h[leader];
    int ldecl = leader == s->decl;
    int t = 0, side_pts = 0;
    uint32_t tm = G->trump >= 0 ? G->group_mask[G->trump] : 0, srun = 0;
    /* the opponents who keep trumps after the leader's run of them, and
     * the points of the cards they must follow with */
    int ruffer[2], forced[2], forced_t[2], nruff = 0;
    if (G->trump >= 0) {
        uint32_t tr = rest & tm;
        if (tr) {
            uint32_t gap = tr & ~own;
            uint32_t run = gap ? tr & ((gap & -gap) - 1) : tr;
            t = popc(run);
            /* the whole run of top trumps of the leader's side */
            uint32_t side = ldecl ? own : rest & ~s->h[s->decl];
            uint32_t sgap = tr & ~side;
            srun = sgap ? tr & ((sgap & -sgap) - 1) : tr;
            side_pts = mask_points(G, srun);
            for (int q = 0; q < 3; q++)
                if ((q == s->decl) != ldecl && popc(s->h[q] & tm) > t) {
                    ruffer[nruff] = q;
                    forced[nruff] = forced_t[nruff] = cheapest(G, s->h[q] & tm, t);
                    nruff++;
                }
        }
    }
    int tricks = t, pts = side_pts;
    for (int g = 0; g < 5; g++) {
        if (g == G->trump) continue;
        uint32_t r = rest & G->group_mask[g];
        if (!r || !(own & r & -r)) continue; /* the leader lacks the highest card of g */
        uint32_t gap = r & ~own;
        uint32_t run = gap ? r & ((gap & -gap) - 1) : r;
        int k = popc(run);
        for (int j = 0; j < nruff; j++) {
            int n = popc(s->h[ruffer[j]] & r);
            if (n < k) k = n;
        }
        if (!k) continue;
        tricks += k;
        for (int j = 0; j < nruff; j++) forced[j] += cheapest(G, s->h[ruffer[j]] & r, k);
        for (; k > 0; k--, run &= run - 1) pts += G->pts[lowest(run)];
    }
    if (!ldecl && tricks > t) {
        uint32_t ph = s->h[3 - leader - s->decl];
        if (popc(ph & tm) > t && popc(ph & ~tm) < tricks - t) {
            /* the partner would have to ruff a side suit trick */
            tricks = t;
            pts = side_pts;
            for (int j = 0; j < nruff; j++) forced[j] = forced_t[j];
        }
    }
    if (s->mode == POINTS_MODE && tricks) {
        /* each of the other two plays one card to each of those tricks,
         * all of them the leader's side's. Those of the side's top trumps
         * (the partner's) are in side_pts already: only his other cards
         * count, at most that many fewer of them. An opponent who keeps
         * trumps follows every lead (forced); a player with at most t
         * trumps gives them all to the leader's trumps (he must follow),
         * and then his cheapest other cards; any other player at least
         * his cheapest cards. */
        for (int q = 0; q < 3; q++) {
            if (q == leader) continue;
            int j = 0;
            while (j < nruff && ruffer[j] != q) j++;
            uint32_t h = s->h[q] & ~srun;
            int n = tricks - popc(s->h[q] & srun);
            if (j < nruff) {
                pts += forced[j];
            } else if (t && popc(s->h[q] & tm) <= t) {
                uint32_t must = h & tm;
                pts += mask_points(G, must) + cheapest(G, h & ~tm, n - popc(must));
            } else {
                pts += cheapest(G, h, n);
            }
        }
    }
    int x = s->mode == POINTS_MODE ? pts : tricks;
    if (ldecl) {
        if (x > *lo) *lo = x;
    } else if (fmax - x < *hi) {
        *hi = fmax - x;
    }
}

/* Can a player holding hq beat x, the card winning a trick led in group led? */
static inline int can_beat(const Game *G, uint32_t hq, int led, int x) {
    uint32_t f = hq & G->group_mask[led];
    if (f) return G->group[x] == led && (f & ((1u << x) - 1)) != 0;
    if (G->trump < 0) return 0;
    uint32_t t = hq & G->group_mask[G->trump];
    if (!t) return 0;
    if (G->group[x] == G->trump) return (t & ((1u << x) - 1)) != 0;
    return 1;
}

/* Legal cards of p with equivalent cards merged, best first (move ordering).
 * lead(), second() and third() give POINTS_MODE's order of it, card for card
 * (the pure-Python core follows it too): change them together. */
static int gen_moves(const Search *s, int p, int *out) {
    const Game *G = s->G;
    uint32_t own = s->h[p], hand = own;
    uint32_t rest = s->h[0] | s->h[1] | s->h[2];
    int nt = s->nt;
    for (int i = 0; i < nt; i++) rest |= 1u << s->trick[i];
    if (nt) {
        uint32_t f = hand & G->group_mask[G->group[s->trick[0]]];
        if (f) hand = f;
    }
    if (!(hand & (hand - 1))) { /* one legal card: nothing to order */
        out[0] = lowest(hand);
        return 1;
    }
    int n = 0;
    int score[10];
    int by_points = s->mode == POINTS_MODE;
    int declarer = p == s->decl;
    int best = -1, wpos = -1;
    if (nt) {
        best = s->trick[0];
        wpos = 0;
        if (nt == 2 && beats(G, s->trick[1], best)) {
            best = s->trick[1];
            wpos = 1;
        }
    }
    /* Does the side of p win the trick so far? */
    int lead_pos = (p + 3 - nt) % 3;
    int friend_wins = 0;
    if (nt) {
        int wp = (lead_pos + wpos) % 3;
        friend_wins = (wp == s->decl) == declarer;
    }
    for (uint32_t m = hand; m; m &= m - 1) {
        int c = lowest(m);
        int g = G->group[c];
        uint32_t above = rest & G->group_mask[g] & ((1u << c) - 1);
        if (above) {
            int u = highest(above);
            if ((own >> u & 1) && (!by_points || G->pts[u] == G->pts[c])) continue;
        }
        int pts = G->pts[c], sc;
        int takes = nt && beats(G, c, best); /* takes the trick so far */
        if (s->mode == NULL_MODE) {
            if (!nt) {
                sc = c; /* lead low cards */
            } else if (declarer) {
                sc = takes ? 50 - c : 100 - c; /* stay under with the highest */
            } else {
                sc = takes ? c : 100 - c;
            }
        } else if (!nt) {
            int o1 = (p + 1) % 3, o2 = (p + 2) % 3;
            uint32_t gm = G->group_mask[g];
            /* a sure winner: no opponent can follow higher or trump it */
            int sure = 1;
            for (int k = 0; k < 2; k++) {
                int q = k ? o2 : o1;
                if ((q == s->decl) != declarer && can_beat(G, s->h[q], g, c)) sure = 0;
            }
            if (declarer && g == G->trump && !((s->h[o1] | s->h[o2]) & gm)) {
                /* no trumps left to draw: the declarer's trumps are sure
                 * winners at any time, so after his low leads (4-8% fewer
                 * nodes than among the sure winners) */
                sc = 40 - pts;
            } else if (sure) {
                sc = 200 + pts;
            } else if (!above) {
                sc = 60 + pts; /* a master an opponent can trump */
            } else if (declarer && g == G->trump) {
                sc = 100 + (32 - c);
            } else {
                sc = 50 - pts;
                if (!declarer) {
                    /* a trick the partner surely takes: he holds a card of g
                     * above all of the declarer's (who must follow, or cannot
                     * trump), or he can trump g while the declarer must
                     * follow it. The side's trick as surely as with a sure
                     * winner: the most points first, among those too. */
                    int partner = o1 == s->decl ? o2 : o1;
                    uint32_t ph = s->h[partner] & gm, dh = s->h[s->decl] & gm;
                    uint32_t tm = G->trump >= 0 ? G->group_mask[G->trump] : 0;
                    if (ph ? (dh ? lowest(ph) < lowest(dh) : !(s->h[s->decl] & tm))
                           : dh && g != G->trump && (s->h[partner] & tm))
                        sc = 200 + pts;
                }
            }
        } else if (nt == 1) {
            /* second hand: smear only on a trick the third player cannot take,
             * and prefer the cards that surely take it */
            uint32_t h3 = s->h[(p + 1) % 3];
            int led = G->group[s->trick[0]];
            /* a card of the led suit that takes the trick over from the
             * partner, where the trick is the side's either way, is a smear
             * too; a ruff is not (it spends a trump) */
            int follows = G->group[c] == led;
            if (friend_wins) {
                /* the partner led: smear on his sure trick; else take it
                 * over with a card the declarer, last, cannot beat */
                int sure = !can_beat(G, h3, led, best);
                if (takes && !(sure && follows))
                    sc = !sure && !can_beat(G, h3, led, c) ? 150 + pts : 40 - pts;
                else
                    sc = sure ? 100 + pts : 100 - pts;
            } else if (!declarer && (p + 1) % 3 != s->decl) {
                /* a defender after the declarer: smear when the partner
                 * can take the trick, else take it, else throw low */
                if ((!takes || follows) && can_beat(G, h3, led, best))
                    sc = 250 + pts;
                else
                    sc = takes ? 200 + pts : 100 - pts;
            } else if (takes) {
                sc = can_beat(G, h3, led, c) ? 150 + pts : 200 + pts;
            } else {
                sc = 100 - pts;
            }
        } else if (friend_wins) {
            /* third hand on the own side's trick: it stays the side's, so
             * a card of the led suit, higher or not, is a smear (the most
             * points first); a ruff only spends a trump */
            sc = takes && G->group[c] != G->group[s->trick[0]] ? 40 - pts : 100 + pts;
        } else if (takes) {
            sc = 200 + pts; /* take the trick, with the most points */
        } else {
            sc = 100 - pts;
        }
        /* among cards of one score: leading or taking the trick, the weakest
         * first (the higher ones may take a later trick); else, and in Null,
         * the strongest */
        int weaker_first = s->mode != NULL_MODE && (!nt || takes);
        sc = sc * 32 + (weaker_first ? c : 31 - c);
        int i = n++;
        while (i > 0 && score[i - 1] < sc) {
            score[i] = score[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        score[i] = sc;
        out[i] = c;
    }
    return n;
}

static int start(Search *s, int leader, int alpha, int beta);
static inline int start_h(Search *s, int leader, int alpha, int beta, uint64_t hk);

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether a limited search must stop now. */
static inline int must_stop(Search *s) {
    if (s->stopped) return 1;
    if (s->max_nodes && stat_nodes > s->max_nodes) s->stopped = 1;
    if (s->deadline_ns && (stat_nodes & (STOP_EVERY - 1)) == 0 && now_ns() > s->deadline_ns)
        s->stopped = 1;
    return s->stopped;
}

/* One child's value v into a node's best value so far and its window:
 * 0, no better; 1, better; 2, better and the window closed (cut off the
 * rest). The declarer maximises, the defenders minimise. */
static inline __attribute__((always_inline)) int improve(int maximise, int v, int *best,
                                                         int *alpha, int *beta) {
    if (maximise) {
        if (v <= *best) return 0;
        *best = v;
        if (v <= *alpha) return 1;
        *alpha = v;
    } else {
        if (v >= *best) return 0;
        *best = v;
        if (v >= *beta) return 1;
        *beta = v;
    }
    return *alpha >= *beta ? 2 : 1;
}

/* The third card of a trick in POINTS_MODE: the legal cards' trick winners,
 * scores and table buckets worked out in one go with their order (the same
 * order as gen_moves'), the buckets fetched early (the probes then wait on
 * memory far less), each trick start searched with its key's hash. */
static int third(Search *s, int leader, int a, int b, int alpha, int beta) {
    const Game *G = s->G;
    int p = (leader + 2) % 3;
    uint32_t own = s->h[p], hand = own & G->group_mask[G->group[a]];
    if (!hand) hand = own;
    /* each legal card as its order's score << 8 | trick winner << 5 | card,
     * best first (the scores differ card by card) */
    uint32_t moves[10];
    int n = 0;
    int declarer = p == s->decl;
    /* the card winning the trick so far and whether it is p's side's */
    int best = a, wpos = 0;
    if (beats(G, b, a)) {
        best = b;
        wpos = 1;
    }
    int wl = (leader + wpos) % 3;
    int friend_wins = (wl == s->decl) == declarer;
    int ab = G->pts[a] + G->pts[b];
    uint32_t h0 = s->h[0], h1 = s->h[1], h2 = s->h[2];
    int fetch = popc(h0 | h1 | h2) > 4;
    uint64_t base = hash_sum(h0, h1, h2), part = hash_part(p);
    if (!(hand & (hand - 1))) {
        int c = lowest(hand);
        int w = beats(G, c, best) ? p : wl;
        moves[0] = (uint32_t)(w << 5 | c);
        n = 1;
    } else {
        uint32_t rest = h0 | h1 | h2 | 1u << a | 1u << b;
        int led = G->group[a];
        for (uint32_t m = hand; m; m &= m - 1) {
            int c = lowest(m);
            int g = G->group[c];
            int pc = G->pts[c];
            int takes = beats(G, c, best);
            int w = takes ? p : wl;
            if (fetch) {
                uint32_t i = slot_of(hash_mix(base - (part << c), w));
                PREFETCH(&s->tt->fp[i]);
                PREFETCH(&s->tt->e[i]);
            }
            uint32_t above = rest & G->group_mask[g] & ((1u << c) - 1);
            if (above) {
                int u = highest(above);
                if ((own >> u & 1) && G->pts[u] == pc) continue;
            }
            int sc;
            if (friend_wins)
                sc = takes && g != led ? 40 - pc : 100 + pc;
            else if (takes)
                sc = 200 + pc;
            else
                sc = 100 - pc;
            uint32_t key = (uint32_t)(sc * 32 + (takes ? c : 31 - c)) << 8 | (uint32_t)(w << 5 | c);
            int i = n++;
            while (i > 0 && moves[i - 1] < key) {
                moves[i] = moves[i - 1];
                i--;
            }
            moves[i] = key;
        }
    }
    int maximise = declarer;
    int bestv = maximise ? -1 : 1 << 10;
    for (int i = 0; i < n; i++) {
        int c = moves[i] & 31, w = moves[i] >> 5 & 3, v;
        int sc = w == s->decl ? ab + G->pts[c] : 0;
        uint64_t hk = fetch ? hash_mix(base - (part << c), w) : 0;
        s->h[p] ^= 1u << c;
        v = sc + start_h(s, w, alpha - sc, beta - sc, hk);
        s->h[p] ^= 1u << c;
        if (s->stopped) return 0;
        if (improve(maximise, v, &bestv, &alpha, &beta) == 2) break;
    }
    return bestv;
}

/* The second card of a trick in POINTS_MODE: gen_moves' order for it, with
 * what does not depend on the card worked out once, and the third card's
 * node called directly. */
static int second(Search *s, int leader, int a, int alpha, int beta) {
    const Game *G = s->G;
    int p = (leader + 1) % 3, q3 = (leader + 2) % 3;
    int led = G->group[a];
    uint32_t own = s->h[p], hand = own & G->group_mask[led];
    if (!hand) hand = own;
    int moves[10];
    int n = 0;
    int declarer = p == s->decl;
    if (!(hand & (hand - 1))) {
        moves[0] = lowest(hand);
        n = 1;
    } else {
        uint32_t rest = s->h[0] | s->h[1] | s->h[2] | 1u << a;
        uint32_t h3 = s->h[q3];
        int score[10];
        int friend_wins = (leader == s->decl) == declarer;
        /* the third player can beat the card led */
        int cb_led = can_beat(G, h3, led, a);
        /* a defender after the declarer's lead */
        int def_after = !declarer && q3 != s->decl;
        for (uint32_t m = hand; m; m &= m - 1) {
            int c = lowest(m);
            int g = G->group[c];
            int pc = G->pts[c];
            uint32_t above = rest & G->group_mask[g] & ((1u << c) - 1);
            if (above) {
                int u = highest(above);
                if ((own >> u & 1) && G->pts[u] == pc) continue;
            }
            int takes = beats(G, c, a), sc;
            int follows = g == led;
            if (friend_wins) {
                int sure = !cb_led;
                if (takes && !(sure && follows))
                    sc = !sure && !can_beat(G, h3, led, c) ? 150 + pc : 40 - pc;
                else
                    sc = sure ? 100 + pc : 100 - pc;
            } else if (def_after) {
                if ((!takes || follows) && cb_led)
                    sc = 250 + pc;
                else
                    sc = takes ? 200 + pc : 100 - pc;
            } else if (takes) {
                sc = can_beat(G, h3, led, c) ? 150 + pc : 200 + pc;
            } else {
                sc = 100 - pc;
            }
            sc = sc * 32 + (takes ? c : 31 - c);
            int i = n++;
            while (i > 0 && score[i - 1] < sc) {
                score[i] = score[i - 1];
                moves[i] = moves[i - 1];
                i--;
            }
            score[i] = sc;
            moves[i] = c;
        }
    }
    int bestv = declarer ? -1 : 1 << 10;
    for (int i = 0; i < n; i++) {
        int c = moves[i], v;
        s->h[p] ^= 1u << c;
        stat_nodes++;
        if ((s->deadline_ns || s->max_nodes) && must_stop(s))
            v = 0;
        else
            v = third(s, leader, a, c, alpha, beta);
        s->h[p] ^= 1u << c;
        if (s->stopped) return 0;
        if (improve(declarer, v, &bestv, &alpha, &beta) == 2) break;
    }
    return bestv;
}

/* The lead of a trick in POINTS_MODE: gen_moves' order for it (the table's
 * move first), with what does not depend on the card worked out once, and
 * the second card's node called directly. */
static int lead(Search *s, int leader, int alpha, int beta, int ttmove, int *bestmove) {
    const Game *G = s->G;
    int p = leader, o1 = (p + 1) % 3, o2 = (p + 2) % 3;
    uint32_t own = s->h[p];
    int moves[10];
    int n = 0;
    int declarer = p == s->decl;
    if (!(own & (own - 1))) {
        moves[0] = lowest(own);
        n = 1;
    } else {
        uint32_t rest = s->h[0] | s->h[1] | s->h[2];
        uint32_t others = s->h[o1] | s->h[o2];
        uint32_t tm = G->trump >= 0 ? G->group_mask[G->trump] : 0;
        /* a defender's partner and the declarer */
        int partner = o1 == s->decl ? o2 : o1;
        uint32_t dhand = s->h[s->decl];
        int score[10];
        for (uint32_t m = own; m; m &= m - 1) {
            int c = lowest(m);
            int g = G->group[c];
            int pc = G->pts[c], sc;
            uint32_t gm = G->group_mask[g];
            uint32_t above = rest & gm & ((1u << c) - 1);
            if (above) {
                int u = highest(above);
                if ((own >> u & 1) && G->pts[u] == pc) continue;
            }
            /* a sure winner: no opponent can follow higher or trump it */
            int sure;
            if (declarer)
                sure = !can_beat(G, s->h[o1], g, c) && !can_beat(G, s->h[o2], g, c);
            else
                sure = !can_beat(G, dhand, g, c);
            if (declarer && g == G->trump && !(others & gm)) {
                sc = 40 - pc;
            } else if (sure) {
                sc = 200 + pc;
            } else if (!above) {
                sc = 60 + pc;
            } else if (declarer && g == G->trump) {
                sc = 100 + (32 - c);
            } else {
                sc = 50 - pc;
                if (!declarer) {
                    uint32_t ph = s->h[partner] & gm, dh = dhand & gm;
                    if (ph ? (dh ? lowest(ph) < lowest(dh) : !(dhand & tm))
                           : dh && g != G->trump && (s->h[partner] & tm))
                        sc = 200 + pc;
                }
            }
            sc = sc * 32 + c;
            int i = n++;
            while (i > 0 && score[i - 1] < sc) {
                score[i] = score[i - 1];
                moves[i] = moves[i - 1];
                i--;
            }
            score[i] = sc;
            moves[i] = c;
        }
    }
    if (ttmove >= 0) {
        for (int i = 1; i < n; i++)
            if (moves[i] == ttmove) {
                memmove(moves + 1, moves, (size_t)i * sizeof(int));
                moves[0] = ttmove;
                break;
            }
    }
    int bestv = declarer ? -1 : 1 << 10;
    int bm = moves[0];
    for (int i = 0; i < n; i++) {
        int c = moves[i], v;
        s->h[p] ^= 1u << c;
        stat_nodes++;
        if ((s->deadline_ns || s->max_nodes) && must_stop(s))
            v = 0;
        else
            v = second(s, leader, c, alpha, beta);
        s->h[p] ^= 1u << c;
        if (s->stopped) return 0;
        int r = improve(declarer, v, &bestv, &alpha, &beta);
        if (r) bm = c;
        if (r == 2) break;
    }
    if (bestmove) *bestmove = bm;
    return bestv;
}

static int node(Search *s, int leader, int alpha, int beta, int ttmove, int *bestmove) {
    int moves[10];
    int nt = s->nt;
    stat_nodes++;
    if ((s->deadline_ns || s->max_nodes) && must_stop(s)) return 0;
    if (s->mode == POINTS_MODE) {
        /* the trick's cards are the nodes' arguments, s->nt stays 0 below */
        if (!nt) return lead(s, leader, alpha, beta, ttmove, bestmove);
        int a = s->trick[0], b = s->trick[1], v;
        s->nt = 0;
        v = nt == 2 ? third(s, leader, a, b, alpha, beta) : second(s, leader, a, alpha, beta);
        s->nt = nt;
        return v;
    }
    int p = (leader + nt) % 3;
    int n = gen_moves(s, p, moves);
    if (ttmove >= 0) {
        for (int i = 1; i < n; i++)
            if (moves[i] == ttmove) {
                memmove(moves + 1, moves, (size_t)i * sizeof(int));
                moves[0] = ttmove;
                break;
            }
    }
    int maximise = p == s->decl;
    int best = maximise ? -1 : 1 << 10;
    int bm = moves[0];
    for (int i = 0; i < n; i++) {
        int c = moves[i], v;
        s->h[p] ^= 1u << c;
        s->trick[nt] = c;
        if (nt == 2) {
            int a = s->trick[0], b = s->trick[1];
            int w = (leader + winner_offset(s->G, a, b, c)) % 3;
            int sc = trick_score(s, w, a, b, c);
            s->nt = 0;
            v = sc + start(s, w, alpha - sc, beta - sc);
            s->nt = 2;
            s->trick[0] = a;
            s->trick[1] = b;
        } else {
            s->nt = nt + 1;
            v = node(s, leader, alpha, beta, -1, NULL);
            s->nt = nt;
        }
        s->h[p] ^= 1u << c;
        if (s->stopped) return 0;
        int r = improve(maximise, v, &best, &alpha, &beta);
        if (r) bm = c;
        if (r == 2) break;
    }
    if (bestmove) *bestmove = bm;
    return best;
}

/* A trick start: the last trick directly, else through the table. hk: the
 * hash of its key when the caller has it (POINTS_MODE, where the key is the
 * hands themselves), else 0. */
static inline __attribute__((always_inline)) int start_h(Search *s, int leader, int alpha,
                                                         int beta, uint64_t hk) {
    uint32_t h0 = s->h[0], h1 = s->h[1], h2 = s->h[2];
    uint32_t rest = h0 | h1 | h2;
    if (!rest) return 0;
    if (popc(rest) == 3) {
        int a = lowest(s->h[leader]), b = lowest(s->h[(leader + 1) % 3]),
            c = lowest(s->h[(leader + 2) % 3]);
        int w = (leader + winner_offset(s->G, a, b, c)) % 3;
        return trick_score(s, w, a, b, c);
    }
    /* the declarer has reached the window already (every score is at
     * least 0): no need to touch the table's memory for a bound. A fifth
     * of the trick starts end here; the weaker bound than an entry's costs
     * about 2% more nodes but the probes saved are worth more. */
    if (beta <= 0) return 0;
    Table *t = s->tt;
    if (!hk) {
        uint32_t key[3];
        canon(s, rest, key);
        h0 = key[0];
        h1 = key[1];
        h2 = key[2];
        hk = hash_of(h0, h1, h2, leader);
    }
    uint32_t i = slot_of(hk);
    uint8_t f = fp_of(hk, t->gen);
    uint8_t meta = (uint8_t)(leader | t->gen << 2);
    Entry *e = NULL;
    /* the fingerprints (half a megabyte, far more often in the cache than
     * the 8 MB of entries) rule out nearly every missing entry without
     * waiting for the bucket's memory: half the probes miss */
    for (int k = 0; k < 2; k++) {
        Entry *x = &t->e[i + k];
        if (t->fp[i + k] == f && x->meta == meta && x->h0 == h0 && x->h1 == h1 &&
            x->h2 == h2) {
            e = x;
            break;
        }
    }
    int lo, hi, ttmove = -1;
    if (e) {
        lo = e->lo;
        hi = e->hi;
        ttmove = e->best;
        if (lo >= beta) return lo;
        if (hi <= alpha || lo == hi) return hi;
    } else {
        lo = 0;
        hi = future_max(s);
        if (s->mode != NULL_MODE) {
            int fmax = hi;
            top_trumps(s, rest, &lo, &hi);
            if (hi > alpha && lo < beta) quick_tricks(s, rest, leader, fmax, &lo, &hi);
        }
        if (hi <= alpha) return hi;
        if (lo >= beta) return lo;
    }
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    int bm = -1;
    int v = node(s, leader, a, b, ttmove, &bm);
    if (s->stopped) return 0;
    if (v <= a)
        hi = v;
    else if (v >= b)
        lo = v;
    else
        lo = hi = v;
    if (!e) {
        /* replace a stale entry, else the one with fewer cards left */
        Entry *x0 = &t->e[i], *x1 = &t->e[i + 1];
        if ((x0->meta >> 2) != t->gen)
            e = x0;
        else if ((x1->meta >> 2) != t->gen)
            e = x1;
        else
            e = popc(x0->h0 | x0->h1 | x0->h2) <= popc(x1->h0 | x1->h1 | x1->h2) ? x0 : x1;
        e->h0 = h0;
        e->h1 = h1;
        e->h2 = h2;
        e->meta = meta;
        t->fp[e - t->e] = f;
    }
    e->lo = (uint8_t)lo;
    e->hi = (uint8_t)hi;
    e->best = (uint8_t)bm;
    return v;
}

static int start(Search *s, int leader, int alpha, int beta) {
    return start_h(s, leader, alpha, beta, 0);
}

static int root(Search *s, int leader, int alpha, int beta) {
    if (s->nt) return node(s, leader, alpha, beta, -1, NULL);
    return start(s, leader, alpha, beta);
}

/* ------------------------------------------------------------ Python glue */
static uint32_t remap(const Game *G, uint32_t m) {
    uint32_t out = 0;
    for (; m; m &= m - 1) out |= 1u << G->to_idx[lowest(m)];
    return out;
}

/* want_extra: 1, test's mode and threshold; 0, exact's optional first guess
 * (-1: none) in *extra. Both then take optional limits (seconds of wall
 * clock, nodes; 0 for none). */
static int parse_position(PyObject *args, Search *s, int *leader, int *extra, int want_extra) {
    int game, decl, mode = POINTS_MODE, thr = 0, guess = -1;
    double seconds = 0;
    long max_nodes = 0;
    unsigned int h0, h1, h2;
    PyObject *trick;
    int ok;
    if (want_extra)
        ok = PyArg_ParseTuple(args, "iIIIiiO!ii|dl", &game, &h0, &h1, &h2, &decl, leader,
                              &PyTuple_Type, &trick, &mode, &thr, &seconds, &max_nodes);
    else
        ok = PyArg_ParseTuple(args, "iIIIiiO!|idl", &game, &h0, &h1, &h2, &decl, leader,
                              &PyTuple_Type, &trick, &guess, &seconds, &max_nodes);
    if (!ok) return 0;
    if (!(seconds >= 0) || max_nodes < 0) {
        PyErr_SetString(PyExc_ValueError, "seconds and max_nodes must not be negative");
        return 0;
    }
    if (seconds > 1e6) seconds = 1e6; /* a limit that never comes, without overflow */
    s->deadline_ns = seconds > 0 ? now_ns() + (int64_t)(seconds * 1e9) + 1 : 0;
    s->max_nodes = max_nodes;
    s->stopped = 0;
    if (!initialised) {
        PyErr_SetString(PyExc_RuntimeError, "_csolver.init() has not been called");
        return 0;
    }
    if (game < 0 || game >= NGAMES || decl < 0 || decl > 2 || *leader < 0 || *leader > 2 ||
        mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "game, declarer, leader or mode out of range");
        return 0;
    }
    Py_ssize_t nt = PyTuple_GET_SIZE(trick);
    if (nt > 2) {
        PyErr_SetString(PyExc_ValueError, "a trick in progress holds at most two cards");
        return 0;
    }
    const Game *G = &GAMES[game];
    s->G = G;
    s->h[0] = remap(G, h0);
    s->h[1] = remap(G, h1);
    s->h[2] = remap(G, h2);
    s->nt = (int)nt;
    for (Py_ssize_t i = 0; i < nt; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(trick, i));
        if (c == -1 && PyErr_Occurred()) return 0;
        if (c < 0 || c > 31) {
            PyErr_SetString(PyExc_ValueError, "a card is 0..31");
            return 0;
        }
        s->trick[i] = G->to_idx[c];
    }
    s->decl = decl;
    s->mode = mode;
    if (want_extra)
        *extra = thr;
    else if (extra)
        *extra = guess;
    return 1;
}

static PyObject *py_test(PyObject *self, PyObject *args) {
    Search s;
    int leader, thr, v = 0;
    if (!parse_position(args, &s, &leader, &thr, 1)) return NULL;
    int game = (int)(s.G - GAMES), failed = 0;
    stat_nodes = 0;
    stat_passes = 1;
    Py_BEGIN_ALLOW_THREADS;
    s.tt = tt_get(game, s.decl, s.mode);
    if (s.tt)
        v = root(&s, leader, thr - 1, thr);
    else
        failed = 1;
    Py_END_ALLOW_THREADS;
    if (failed) return PyErr_NoMemory();
    if (s.stopped) Py_RETURN_NONE;
    return PyBool_FromLong(v >= thr);
}

static PyObject *py_exact(PyObject *self, PyObject *args) {
    Search s;
    int leader, lo = 0, hi, first = -1;
    if (!parse_position(args, &s, &leader, &first, 0)) return NULL;
    s.mode = POINTS_MODE;
    int game = (int)(s.G - GAMES), failed = 0;
    hi = future_max(&s);
    stat_nodes = stat_passes = 0;
    Py_BEGIN_ALLOW_THREADS;
    s.tt = tt_get(game, s.decl, POINTS_MODE);
    if (s.tt) {
        /* MTD(f), with the step doubled while the passes fail the same way.
         * Upwards the steps start at 6 points (downwards at 1): a pass
         * below the value costs more than one as far above it (the
         * declarer's proofs are the larger), so a value far above the
         * guess is best passed soon (6 to 12 measured alike, 0.94-0.96 of
         * the nodes; a caller's near guess loses nothing) */
        /* the caller's guess (a near position's value), else the middle */
        int guess = first >= 0 ? first : hi / 2, dir = 0, step = 1;
        if (guess > hi) guess = hi;
        while (lo < hi) {
            stat_passes++;
            int beta = guess == lo ? guess + 1 : guess;
            int v = root(&s, leader, beta - 1, beta);
            if (s.stopped) break;
            if (v < beta) {
                hi = v;
                step = dir < 0 ? step * 2 : 1;
                dir = -1;
                guess = v - step + 1;
            } else {
                lo = v;
                step = dir > 0 ? step * 2 : 6;
                dir = 1;
                guess = v + step - 1;
            }
            if (guess < lo) guess = lo;
            if (guess > hi) guess = hi;
        }
    } else {
        failed = 1;
    }
    Py_END_ALLOW_THREADS;
    if (failed) return PyErr_NoMemory();
    return PyLong_FromLong(s.stopped ? -1 : lo);
}

static PyObject *py_clear(PyObject *self, PyObject *noargs) {
    tt_clear();
    Py_RETURN_NONE;
}

static PyObject *py_stats(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("{s:l,s:l}", "nodes", stat_nodes, "passes", stat_passes);
}

/* init(orders): per game type 0..5, a sequence of effective suits (trumps
 * first, when the game has them), each a sequence of cards strongest first. */
static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *orders;
    if (!PyArg_ParseTuple(args, "O", &orders)) return NULL;
    PyObject *seq = PySequence_Fast(orders, "orders must be a sequence");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != NGAMES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one order per game type 0..5");
        return NULL;
    }
    Game games[NGAMES];
    memset(games, 0, sizeof(games));
    for (int g = 0; g < NGAMES; g++) {
        Game *G = &games[g];
        G->trump = g == NULL_GAME ? -1 : 0;
        PyObject *groups = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, g), "groups");
        if (!groups) {
            Py_DECREF(seq);
            return NULL;
        }
        Py_ssize_t ng = PySequence_Fast_GET_SIZE(groups);
        int idx = 0, bad = ng > 5;
        uint32_t seen = 0;
        for (Py_ssize_t k = 0; k < ng && !bad; k++) {
            PyObject *cards = PySequence_Fast(PySequence_Fast_GET_ITEM(groups, k), "cards");
            if (!cards) {
                Py_DECREF(groups);
                Py_DECREF(seq);
                return NULL;
            }
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(cards); j++) {
                long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(cards, j));
                if (c < 0 || c > 31 || (seen >> c & 1) || idx >= 32) {
                    bad = 1;
                    break;
                }
                seen |= 1u << c;
                G->to_idx[c] = (uint8_t)idx;
                G->group[idx] = (uint8_t)k;
                G->group_mask[k] |= 1u << idx;
                G->pts[idx] = RANK_POINTS[c & 7];
                for (int v = 0; v < 6; v++)
                    if (PTS_LEVELS[v] == G->pts[idx]) G->by_pts[v] |= 1u << idx;
                idx++;
            }
            Py_DECREF(cards);
        }
        Py_DECREF(groups);
        if (bad || idx != 32) {
            Py_DECREF(seq);
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "each order must hold the 32 cards once");
            return NULL;
        }
        /* not in POINTS_MODE: there only the jacks and the 9-8-7 of a suit
         * form runs, and the key cost more time than its hits saved */
        for (int m = ALL_MODE; m <= NULL_MODE; m++) {
            for (int i = 0; i < 32;) {
                int j = i + 1;
                while (j < 32 && G->group[j] == G->group[i]) j++;
                if (j - i >= 2 && G->nruns[m] < 16)
                    G->runs[m][G->nruns[m]++] = (uint32_t)(((1ull << (j - i)) - 1) << i);
                i = j;
            }
        }
        for (int k = 0; k < 4; k++)
            for (int b = 0; b < 256; b++) {
                int sum = 0;
                for (int j = 0; j < 8; j++)
                    if (b >> j & 1) sum += G->pts[8 * k + j];
                G->pts8[k][b] = (uint8_t)sum;
            }
    }
    Py_DECREF(seq);
    memcpy(GAMES, games, sizeof(games));
    initialised = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "init(orders): the card order of each game type"},
    {"test", py_test, METH_VARARGS,
     "test(game, h0, h1, h2, declarer, leader, trick, mode, threshold, seconds=0.0, max_nodes=0)"
     " -> bool, None if a limit stopped it"},
    {"exact", py_exact, METH_VARARGS,
     "exact(game, h0, h1, h2, declarer, leader, trick, guess=-1, seconds=0.0, max_nodes=0)"
     " -> future declarer card points, -1 if a limit stopped it"},
    {"stats", py_stats, METH_NOARGS, "stats(): nodes and zero-window passes of the last call"},
    {"clear", py_clear, METH_NOARGS, "clear(): empty this thread's transposition table"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_csolver", "Compiled core of the open-card Skat solver.", -1, methods,
};

PyMODINIT_FUNC PyInit__csolver(void) {
#ifdef NEED_POPCNT_CHECK
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_csolver needs a CPU with the popcnt instruction");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
