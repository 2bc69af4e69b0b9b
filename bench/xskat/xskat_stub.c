/*
 * xskat_stub.c - a headless stand-in for XSkat's display, dialogs and IRC
 * (xio.c, xdial.c, irc.c), and a line driver, for the skat project's bench.
 *
 * This file is NOT part of XSkat. It is written for the skat project
 * (bench/xskat, issue 53) and is linked with XSkat 4.0's unmodified
 * skat.c, null.c, ramsch.c and text.c (Copyright (C) 2000-2004 Gunter
 * Gerhardt, http://www.xskat.de; their notices stay in those files, which
 * are compiled as they are from ../shared/xskat-4.0). skat.c's own main()
 * is renamed at compile time (-Dmain=xskat_upstream_main); nothing else of
 * XSkat is changed, and this program is built into a cache folder only.
 *
 * What the stub replaces: every function of the X11 front end that the
 * game code calls is defined here. Drawing, boxes, texts and waits do
 * nothing. The few that also change game state do what XSkat's own do to
 * the state and nothing else: drop_card (the card leaves the hand and goes
 * to the trick), home_skat, di_ansage (no Kontra at these tables: the game
 * starts), di_dicht (no shortcut: play goes on, as with -noshortcut),
 * di_weiter/di_wiederweiter (the deal is over). XSkat's game loop
 * (computer() in skat.c) runs unchanged.
 *
 * The driver. At most one seat is played from outside (our player); it is
 * XSkat's seat 0, XSkat's "human" (numsp=1), so that XSkat treats it
 * exactly as it treats a person at its table: its bids go through
 * do_entsch() with maxrw forced as XSkat's own bidding buttons do, its
 * cards through calc_poss/drop_card/do_next as XSkat's card clicks do.
 * With no outside seat (numsp=0) XSkat plays all three seats, as in
 * "xskat -auto". Protocol, one line each way (cards are XSkat's numbers
 * 0..31: suit<<3|rank, suits diamonds hearts spades clubs, ranks
 * A T K Q J 9 8 7):
 *
 *   in:  deal SEED DEALER NUMSP OWNERS   OWNERS: 32 digits, card n's holder
 *                                        (XSkat seat 0..2, 3 = skat)
 *        bid V | hold | pass | hand | pickup | discard C1 C2
 *        game T SCHNEIDER SCHWARZ OUVERT    (T: 0..3 suits, 4 grand, -1 null)
 *        play C | quit
 *   out: a SEAT bid V | a SEAT hold | a SEAT pass | a SEAT pickup
 *        a SEAT discard C1 C2 | a SEAT game T HAND SCHNEIDER SCHWARZ OUVERT
 *        a SEAT play C          (only XSkat's seats' own actions)
 *        wait                   (the outside seat is to act)
 *        end SPIELER TRUMPF STSUM SPGEW SPWERT REIZ   (the deal is over)
 *        error TEXT
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "defs.h"
#include "skat.h"
#include "text.h"

/* Functions of skat.c / null.c used here (defs.h declares them K&R style). */

static FILE *proto;

static void emit(const char *fmt, int seat, int a, int b, int c, int d, int e)
{
  fprintf(proto, fmt, seat, a, b, c, d, e);
  fputc('\n', proto);
}

/* ---- the front end's state-changing functions ------------------------- */

VOID drop_card(i, s)
int i, s;
{
  int c = cards[i];

  if (iscomp(s)) emit("a %d play %d", s, c, 0, 0, 0, 0);
  stcd[vmh] = c;
  gespcd[c] = 2;
  if ((c & 7) != BUBE) gespfb[c >> 3]++;
  cards[i] = -1;
}

VOID home_skat()
{
  umdrueck = 0;
}

VOID b_text(s, tt)
int s;
tx_typ *tt;
{
  const char *t;
  char *end;
  long v;

  if (!iscomp(s)) return;
  if (tt == &textarr[TX_PASSE]) {
    emit("a %d pass", s, 0, 0, 0, 0, 0);
    return;
  }
  if (tt == &textarr[TX_JA]) {
    emit("a %d hold", s, 0, 0, 0, 0, 0);
    return;
  }
  t = tt->t[0];
  v = strtol(t, &end, 10);
  if (end != t && *end == 0) emit("a %d bid %d", s, (int)v, 0, 0, 0, 0);
}

static void emit_game(void)
{
  emit("a %d game %d %d %d %d %d", spieler, trumpf, handsp, schnang, schwang, ouveang);
}

VOID di_ansage()
{
  if (iscomp(spieler)) {
    if (handsp) {
      emit_game();
    }
    else {
      emit("a %d pickup", spieler, 0, 0, 0, 0, 0);
      emit("a %d discard %d %d", spieler, prot2.skat[1][0], prot2.skat[1][1], 0, 0, 0);
      emit_game();
    }
  }
  do_angesagt();
}

VOID di_dicht()
{
  ndichtw = 1;
  phase = SPIELEN;
}

VOID di_weiter(ini)
int ini;
{
}

VOID di_wiederweiter(sn)
int sn;
{
}

VOID exitus(n)
int n;
{
  exit(n);
}

/* ---- drawing, dialogs, waits: nothing to do ---------------------------- */

VOID calc_desk() {}
VOID clear_info() {}
VOID clr_desk() {}
VOID di_copyr() {}
VOID di_delliste() {}
VOID di_grandhand() {}
VOID di_hand() {}
VOID di_info() {}
VOID di_options() {}
VOID di_proto() {}
VOID di_result() {}
VOID di_schieben() {}
int di_verdoppelt() { return 0; }
VOID di_spiel() {}
VOID do_msaho() {}
VOID draw_skat() {}
VOID givecard() {}
VOID hndl_events() {}
VOID info_reiz() {}
VOID info_spiel() {}
VOID info_stich() {}
VOID initscr() {}
VOID inv_box() {}
VOID nimm_stich() {}
VOID put_box() {}
VOID put_fbox() {}
VOID putmark() {}
VOID rem_box() {}
VOID remmark() {}
VOID revolutionscr() {}
VOID setcurs() {}
VOID show_hint() {}
VOID stdwait() {}
VOID waitt() {}
VOID xinit() {}

/* ---- the driver --------------------------------------------------------- */

static int over(void)
{
  return phase == RESULT || phase == WEITER;
}

static int waiting(void)
{
  if (numsp == 0) return 0;
  switch (phase) {
  case REIZEN:
    return (saho && !iscomp(sager)) || (!saho && !iscomp(hoerer));
  case HANDSPIEL:
  case DRUECKEN:
    return !iscomp(spieler);
  case ANSAGEN:
    return !iscomp(spieler);
  case SPIELEN:
    return !iscomp((ausspl + vmh) % 3);
  }
  return 0;
}

/* Run XSkat's own loop until the outside seat is to act or the deal ends. */
static void run(void)
{
  int guard = 0;

  while (!over() && !waiting()) {
    computer();
    if (++guard > 10000) {
      fprintf(proto, "error stuck in phase %d\n", phase);
      fflush(proto);
      exit(3);
    }
  }
  if (over()) {
    fprintf(proto, "end %d %d %d %d %d %d\n", reizp < 0 ? -1 : spieler, trumpf, stsum, spgew,
            spwert, reizp < 0 ? 0 : reizw[reizp]);
  }
  else {
    if (phase == SPIELEN) computer(); /* XSkat's loop computes its hint for the seat */
    fprintf(proto, "wait\n");
  }
  fflush(proto);
}

static int fail(const char *what)
{
  fprintf(proto, "error %s\n", what);
  fflush(proto);
  return 0;
}

static int start_deal(long rseed, int dealer, int nsp, const char *owners)
{
  int fd[2], n, code;
  char buf[200];
  FILE *w;

  if (strlen(owners) != 32 || dealer < 0 || dealer > 2 || nsp < 0 || nsp > 1) {
    return fail("bad deal");
  }
  numsp = nsp;
  numgames = 0;
  nimmstich[0][0] = nimmstich[1][0] = nimmstich[2][0] = 7;
  abkuerz[0] = abkuerz[1] = abkuerz[2] = 0;
  /* do_geben() moves the deal one seat on before it deals */
  geber = right(dealer);
  /* the deal goes in through XSkat's own reader of predefined games
     (-game FILE): 1 = middlehand (sager), 2 = dealer (geber),
     3 = forehand (hoerer), 0 = skat */
  if (pipe(fd)) return fail("pipe");
  w = fdopen(fd[1], "w");
  for (n = 0; n < 32; n++) {
    int o = owners[n] - '0';
    if (o == 3) code = 0;
    else if (o == right(dealer)) code = 1;
    else if (o == dealer) code = 2;
    else if (o == left(dealer)) code = 3;
    else return fail("bad owner");
    fprintf(w, "%d%c", code, n % 8 == 7 ? '\n' : ' ');
  }
  fclose(w);
  snprintf(buf, sizeof buf, "/dev/fd/%d", fd[0]);
  game_file = strdup(buf);
  setrnd(&seed[0], savseed = rseed);
  phase = GEBEN;
  computer(); /* deals (reading the game above) and starts the bidding */
  close(fd[0]);
  run();
  return 1;
}

static int value_index(int v)
{
  int i;

  for (i = 0; reizw[i] != 999; i++) {
    if (reizw[i] == v) return i;
  }
  return -1;
}

static int hand_index(int s, int c)
{
  int i;

  for (i = 0; i < 10; i++) {
    if (cards[10 * s + i] == c) return 10 * s + i;
  }
  return -1;
}

static int outside_bid(int yes, int value)
{
  int me = saho ? sager : hoerer;

  if (phase != REIZEN || iscomp(me)) return fail("not our bid");
  if (yes && saho && value > 0) {
    int k = value_index(value);
    if (k < reizp) return fail("bid too low");
    reizp = k;
  }
  maxrw[me] = yes ? 999 - 1 : 0;
  do_entsch();
  maxrw[me] = 0;
  return 1;
}

static int outside_pickup(int hand)
{
  if (phase != HANDSPIEL) return fail("not at the skat");
  if (hand) handsp = 1;
  do_handok();
  return 1;
}

static int outside_discard(int c1, int c2)
{
  int k, c, i, j;
  int want[2];

  if (phase != DRUECKEN) return fail("not discarding");
  want[0] = c1;
  want[1] = c2;
  /* put the two cards into the skat's places 30, 31 (XSkat swaps cards of
     the hand with the skat's places one click at a time) */
  for (k = 0; k < 2; k++) {
    c = want[k];
    if (cards[30] == c || cards[31] == c) continue;
    i = hand_index(spieler, c);
    if (i < 0) return fail("discard not held");
    j = (cards[30] != want[0] && cards[30] != want[1]) ? 30 : 31;
    swap(&cards[i], &cards[j]);
  }
  /* what XSkat does when the discard is confirmed */
  home_skat();
  save_skat(1);
  for (k = 0; k < 2; k++) {
    stsum += cardw[cards[k + 30] & 7];
    gespcd[cards[k + 30]] = 1;
    cards[k + 30] = -1;
  }
  gedr = 2;
  do_ansagen();
  return 1;
}

static int outside_game(int t, int schn, int schw, int ouv)
{
  if (phase != ANSAGEN || iscomp(spieler)) return fail("not declaring");
  trumpf = t;
  spitzeang = 0;
  if (t == -1) {
    ouveang = ouv;
  }
  else {
    ouveang = ouv;
    schwang = schw || ouv;
    schnang = schn || schw || ouv;
  }
  di_ansage();
  return 1;
}

static int outside_play(int c)
{
  int s = (ausspl + vmh) % 3, i, k;

  if (phase != SPIELEN || iscomp(s)) return fail("not our card");
  i = hand_index(s, c);
  if (i < 0) return fail("card not held");
  calc_poss(s);
  for (k = 0; k < possc; k++) {
    if (possi[k] == i) {
      drop_card(i, s);
      do_next();
      return 1;
    }
  }
  return fail("card not allowed");
}

int main(void)
{
  char line[256], word[32], owners[64];
  long rseed;
  int a, b, c, d, ok;

  /* the protocol gets its own copy of stdout; anything XSkat prints goes to stderr */
  proto = fdopen(dup(1), "w");
  dup2(2, 1);
  while (fgets(line, sizeof line, stdin)) {
    if (sscanf(line, "%31s", word) != 1) continue;
    ok = 1;
    if (!strcmp(word, "quit")) break;
    else if (!strcmp(word, "deal")) {
      if (sscanf(line, "%*s %ld %d %d %63s", &rseed, &a, &b, owners) != 4) ok = fail("syntax");
      else {
        start_deal(rseed, a, b, owners);
        continue;
      }
    }
    else if (!strcmp(word, "bid")) {
      ok = sscanf(line, "%*s %d", &a) == 1 ? outside_bid(1, a) : fail("syntax");
    }
    else if (!strcmp(word, "hold")) ok = outside_bid(1, 0);
    else if (!strcmp(word, "pass")) ok = outside_bid(0, 0);
    else if (!strcmp(word, "hand")) ok = outside_pickup(1);
    else if (!strcmp(word, "pickup")) ok = outside_pickup(0);
    else if (!strcmp(word, "discard")) {
      ok = sscanf(line, "%*s %d %d", &a, &b) == 2 ? outside_discard(a, b) : fail("syntax");
    }
    else if (!strcmp(word, "game")) {
      ok = sscanf(line, "%*s %d %d %d %d", &a, &b, &c, &d) == 4 ? outside_game(a, b, c, d)
                                                                  : fail("syntax");
    }
    else if (!strcmp(word, "play")) {
      ok = sscanf(line, "%*s %d", &a) == 1 ? outside_play(a) : fail("syntax");
    }
    else ok = fail("unknown command");
    if (ok) run();
  }
  return 0;
}
