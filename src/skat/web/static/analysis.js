// The analysis board (issue 26, point 1): a settled deal card by card with
// all hands open. For each card: the open-card value before and after it
// and what every card the player could have played would have given (the
// server's solver, GET /api/tables/ID/deals/N/board); cards that swung the
// outcome are marked. Shareable: /t/ID/deals/N#7 opens at the 7th card.
// /board does the same for a game from a file (fileBoardPage).
import { app, cardHtml, cardName, cardsRow, esc, gameText, t } from "./common.js";
import { actionText } from "./log.js";
import { verdictLines } from "./result.js";
import { go } from "./nav.js";
import { fetchReview, nextMarked, reviewColumn } from "./review.js";

// "To the first card" and "to the last card", drawn (issue 49, finding 9:
// the font glyphs for them were empty boxes without a symbol font).
const STEP_ICON = {
  first: '<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><rect x="3" y="4" width="2.5" height="12" fill="currentColor"/><path d="M16 4v12L7 10z" fill="currentColor"/></svg>',
  last: '<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M4 4v12l9-6z" fill="currentColor"/><rect x="14.5" y="4" width="2.5" height="12" fill="currentColor"/></svg>',
};

let B = null; // { id, number, data, names, i, review, r } (a table's deal) or { file, games, ... } (a file's game)

export async function boardPage(id, number) {
  const hm = location.hash.match(/^#m(\d+)$/); // a decision by its move: "#m3"
  B = { id, number, data: null, names: [], i: 0, file: null, games: [], review: { state: "loading" }, r: -1, wantMove: hm ? Number(hm[1]) : null };
  const mine = B;
  app.innerHTML = `<section class="board-page"><p class="status" data-testid="board-status">${esc(t("board.loading"))}</p></section>`;
  try {
    const [info, res] = await Promise.all([
      fetch(`/api/tables/${id}`).then((r) => (r.ok ? r.json() : null)),
      fetch(`/api/tables/${id}/deals/${number}/board`),
    ]);
    if (!showing(mine)) return; // another page since
    const data = await res.json();
    if (!res.ok || !info) {
      const code = data?.error?.code;
      app.querySelector("[data-testid=board-status]").textContent = t(code === "WRONG_PHASE" ? "board.notOver" : code === "BUSY" ? "board.busy" : "board.none");
      return;
    }
    B.names = info.seats.map((s) => s.name || t("table.free"));
    B.data = data;
    if (data.skipped) {  // no card play to step through; your bids and passes are still reviewed
      renderBoardPage(true);
      loadReview(mine);
      return;
    }
    const wanted = Number(location.hash.slice(1));
    B.i = Number.isInteger(wanted) && wanted >= 1 && wanted <= data.steps.length ? wanted - 1 : 0;
    renderBoardPage();
    loadReview(mine);
  } catch {
    if (B === mine) app.querySelector("[data-testid=board-status]").textContent = t("board.none");
  }
}

// The reader's own review beside the open-card values (review.js): asked
// for once the board shows, again after the server's Retry-After when busy.
// "#m12" opens the board at decision 12 of the deal's moves (the list
// review's links to a decision before the card play).
// Still on this deal's board? (The page may have moved on while a review
// was made: its answer must not draw the board over another page.)
const showing = (mine) => B === mine && location.pathname === `/t/${mine.id}/deals/${mine.number}`;

async function loadReview(mine) {
  for (;;) {
    const got = await fetchReview(mine.id, mine.number);
    if (!showing(mine)) return;
    B.review = got;
    if (got.state === "ok") {
      const ds = got.data.decisions;
      const at = ds.findIndex((d) => (mine.wantMove !== null ? d.move === mine.wantMove : d.step === B.i + 1));
      if (at >= 0) select(at, false);
    }
    renderBoardPage(!!B.data.skipped);
    if (got.state !== "busy") return;
    await new Promise((r) => setTimeout(r, got.retry * 1000));
    if (!showing(mine)) return;
  }
}

function select(k, render = true) {
  const d = B.review?.data?.decisions?.[k];
  if (!d) return;
  B.r = k;
  const steps = B.data.steps?.length || 0;
  if (d.step && steps) B.i = Math.min(d.step, steps) - 1;
  if (render) renderBoardPage(!!B.data.skipped);
}

// ------------------------------------------------------------ from a file
// /board: a game record, a list record or ISS records opened from a file or
// pasted; the server replays it and sends the board of the game chosen
// (POST /api/board?game=N). The names are the seats': a file need not have any.
export function fileBoardPage() {
  B = null;
  app.innerHTML = `<section class="board-page" aria-labelledby="board-title">
    <h1 id="board-title">${esc(t("board.fileTitle"))}</h1>
    <p class="help">${esc(t("board.fileHelp"))}</p>
    <form id="board-file-form">
      <p><label for="board-file">${esc(t("board.file"))}</label> <input id="board-file" type="file" accept=".json,.sgf,.txt,.iss,application/json,text/plain" data-testid="board-file"></p>
      <p><label for="board-paste">${esc(t("board.paste"))}</label><br><textarea id="board-paste" rows="5" cols="60" data-testid="board-paste"></textarea></p>
      <button class="primary" type="submit" data-testid="board-show">${esc(t("board.show"))}</button>
    </form>
    <p class="status" data-testid="board-status" role="alert"></p>
  </section>`;
  document.getElementById("board-file-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = document.getElementById("board-file").files[0];
    const text = f ? await f.text() : document.getElementById("board-paste").value;
    if (!text.trim()) {
      app.querySelector("[data-testid=board-status]").textContent = t("board.noFile");
      return;
    }
    await showFileGame(text, 1);
  });
}

async function showFileGame(text, number) {
  const status = app.querySelector("[data-testid=board-status]");
  if (status) status.textContent = t("board.loading");
  const mine = { id: null, number, data: null, names: [], i: 0, file: text, games: [] };
  B = mine;
  try {
    const res = await fetch(`/api/board?game=${number}`, { method: "POST", headers: { "content-type": "text/plain" }, body: text });
    const data = await res.json();
    if (B !== mine) return;
    if (!res.ok) {
      const code = data?.error?.code;
      const el = app.querySelector("[data-testid=board-status]");
      // in the page's language, never the engine's English (issue 49, finding 10)
      if (el) el.textContent = t(code === "BAD_RECORD" ? "board.badFile" : code === "WRONG_PHASE" ? "board.notOver" : code === "BUSY" ? "board.busy" : code === "TOO_LARGE" ? "board.tooLarge" : code === "NO_DEAL" ? "board.noGame" : "board.none");
      return;
    }
    B.games = data.games;
    B.data = data.board;
    // the players' names where the file has them (a list record, ISS)
    B.names = [0, 1, 2, 3].map((k) => data.names?.[k] || t("board.seat", { n: k + 1 }));
    if (data.board.skipped) {
      renderBoardPage(true);
      return;
    }
    renderBoardPage();
  } catch {
    if (B === mine) app.querySelector("[data-testid=board-status]").textContent = t("board.none");
  }
}

function gamePicker() {
  if (!B.file) return "";
  return `<p><label for="board-game">${esc(t("board.game"))}</label> <select id="board-game" data-testid="board-game">${B.games.map((g) => `<option value="${g.number}" ${g.number === B.number ? "selected" : ""} ${g.ok ? "" : "disabled"}>${esc(pickLabel(g))}${g.id ? ` · ${esc(g.id)}` : ""}</option>`).join("")}</select></p>`;
}

// "3: Grand, Ben" (issue 49, finding 10): the game and its declarer, not a bare number
function pickLabel(g) {
  if (g.kind === "passed") return t("board.pickPassed", { n: g.number });
  if (!g.words) return t("board.pickNone", { n: g.number });
  const name = g.declarer_name || (g.declarer !== null && g.declarer !== undefined ? t("board.seat", { n: g.declarer + 1 }) : "?");
  return t("board.pick", { n: g.number, game: gameText(g.words), name });
}

document.addEventListener("change", (e) => {
  if (e.target.id === "board-game" && B?.file) showFileGame(B.file, Number(e.target.value));
});

function nameOf(seat) {
  return B.names[seat] ?? t("table.free");
}

function valueText(v) {
  if (B.data.null) return t(v ? "board.nullCan" : "board.nullCannot");
  return t("board.points", { n: v });
}

function renderBoardPage(skipped = false) {
  const d = B.data;
  const back = B.file ? `<a href="/board">${esc(t("board.another"))}</a>` : `<a href="/t/${esc(B.id)}" data-testid="board-back">${esc(t("board.back"))}</a>`;
  // a table's deal without cards to step through still has your review
  const own = B.file ? "" : `<section class="review-view" data-testid="review-view">${reviewColumn(B.review, B.r, 0)}</section>`;
  if (skipped) {
    app.innerHTML = `<section class="board-page"><p>${back}</p>${gamePicker()}<p class="status" data-testid="board-status">${esc(t("board.skipped"))}</p>${own}</section>`;
    return;
  }
  if (!d.steps.length) {  // the game ended before the first card: its result
    app.innerHTML = `<section class="board-page"><p>${back}</p>${gamePicker()}<h1 id="board-title">${esc(t(B.file ? "board.fileGame" : "board.title", { n: B.number, game: gameText(d.words), name: nameOf(d.declarer_seat) }))}</h1>
      <p class="verdict" data-testid="board-status">${esc(t(d.won ? "board.endedWon" : "board.endedLost", { name: nameOf(d.declarer_seat), game: gameText(d.words) }))}</p>${own}</section>`;
    return;
  }
  const step = d.steps[B.i];
  const n = d.steps.length;
  const declarer = nameOf(d.declarer_seat);
  const hands = Object.entries(step.hands).map(([seat, cards]) => {
    const s = Number(seat);
    const row = cards.map((c) => cardHtml(c, { cls: s === step.seat && c === step.card ? "selected played" : "" })).join("");
    return `<div class="board-hand${s === step.seat ? " to-move" : ""}" data-testid="board-hand-${s}"><b>${esc(nameOf(s))}${s === d.declarer_seat ? ` (${esc(t("board.declarer"))})` : ""}</b><span class="cards small">${row}</span></div>`;
  }).join("");
  const table = step.table.length
    ? step.table.map(([s, c]) => `${esc(nameOf(s))}: ${cardsRow([c], "small")}`).join(" ")
    : esc(t("board.lead", { name: nameOf(step.seat) }));
  const alternatives = step.alternatives.map((x) => `<li class="${x.card === step.card ? "played" : ""}${x === step.alternatives[0] ? " best" : ""}">${esc(cardName(x.card))}: ${esc(valueText(x.value))}${x.card === step.card ? ` · ${esc(t("board.played"))}` : ""}${x === step.alternatives[0] ? ` · ${esc(t("board.best"))}` : ""}</li>`).join("");
  const auction = d.auction.map(([s, text]) => `<li>${esc(actionText(s, text, false, nameOf))}</li>`).join("");
  const skat = [
    d.skat.dealt.length ? `${esc(t("result.skatDealt"))} ${cardsRow(d.skat.dealt, "small")}` : "",
    d.skat.put.length ? `${esc(t("result.skatPut"))} ${cardsRow(d.skat.put, "small")}` : "",
  ].filter(Boolean).join(" ");
  const swings = d.steps.map((s, k) => (s.swing ? k : -1)).filter((k) => k >= 0);
  const values = `<p class="board-move" data-testid="board-move" aria-live="polite">${esc(t("board.move", { name: nameOf(step.seat), card: cardName(step.card) }))}
      ${esc(t("board.values", { before: valueText(step.before), after: valueText(step.after) }))}</p>
    ${step.swing ? `<p class="swing" data-testid="board-swing">${esc(t("board.swing"))}</p>` : ""}
    <h3>${esc(t("board.instead"))}</h3>
    <ul class="board-alternatives" data-testid="board-alternatives">${alternatives}</ul>`;
  const views = B.file
    ? `<div class="hindsight-view" data-testid="hindsight-view">${values}</div>`
    : `<div class="board-views">
      <section class="review-view" data-testid="review-view">${reviewColumn(B.review, B.r, B.i + 1)}</section>
      <section class="hindsight-view" data-testid="hindsight-view"><h2>${esc(t("review.hindsight"))}</h2><p class="help">${esc(t("review.hindsightHelp"))}</p>${values}</section>
    </div>`;
  app.innerHTML = `<section class="board-page" aria-labelledby="board-title">
    <p>${back}</p>
    ${gamePicker()}
    <h1 id="board-title">${esc(t(B.file ? "board.fileGame" : "board.title", { n: B.number, game: gameText(d.words), name: declarer }))}</h1>
    <details><summary>${esc(t("board.auction"))}</summary><ol class="board-auction">${auction}</ol><p>${skat}</p></details>
    <p class="verdict" data-testid="board-verdict">${esc(verdictLines(d.verdict, null, nameOf).join(" "))}</p>
    <nav class="board-nav" aria-label="${esc(t("board.nav"))}">
      <button data-step="first" ${B.i === 0 ? "disabled" : ""} aria-label="${esc(t("board.first"))}">${STEP_ICON.first}</button>
      <button data-step="prev" ${B.i === 0 ? "disabled" : ""} data-testid="board-prev">${esc(t("board.prev"))}</button>
      <span data-testid="board-counter">${esc(t("board.counter", { i: B.i + 1, n, trick: step.trick }))}</span>
      <button data-step="next" ${B.i === n - 1 ? "disabled" : ""} data-testid="board-next">${esc(t("board.next"))}</button>
      <button data-step="last" ${B.i === n - 1 ? "disabled" : ""} aria-label="${esc(t("board.last"))}">${STEP_ICON.last}</button>
      ${swings.length ? `<button data-step="swing" data-testid="board-swing-next">${esc(t("board.nextSwing"))}</button>` : ""}
    </nav>
    <div class="board-table" data-testid="board-table">${table}</div>
    <div class="board-hands">${hands}</div>
    ${views}
  </section>`;
  if (!B.file) history.replaceState(history.state, "", `/t/${B.id}/deals/${B.number}#${B.i + 1}`);
}

function move(to) {
  if (!B || !B.data) return;
  if (to === "mistake") {
    const k = nextMarked(B.review?.data?.decisions || [], B.r);
    if (k >= 0) select(k);
    document.querySelector("[data-step=mistake]")?.focus();
    return;
  }
  if (B.data.skipped || !B.data.steps.length) return;
  const n = B.data.steps.length;
  let i = B.i;
  if (to === "first") i = 0;
  else if (to === "last") i = n - 1;
  else if (to === "prev") i = Math.max(0, i - 1);
  else if (to === "next") i = Math.min(n - 1, i + 1);
  else if (to === "swing") {
    const after = B.data.steps.findIndex((s, k) => k > i && s.swing);
    i = after >= 0 ? after : B.data.steps.findIndex((s) => s.swing);
  }
  if (i !== B.i) {
    B.i = i;
    // the reader's own decision at this card, if it is theirs
    const mine = (B.review?.data?.decisions || []).findIndex((d) => d.step === i + 1);
    if (mine >= 0) B.r = mine;
    renderBoardPage();
    document.querySelector(`[data-step=${to === "swing" ? "swing" : to}]`)?.focus();
  }
}

document.addEventListener("click", (e) => {
  const b = e.target.closest(".board-page [data-step]");
  if (b) move(b.dataset.step);
  const r = e.target.closest(".board-page [data-review]");
  if (r && B?.review?.data) {
    select(Number(r.dataset.review));
    document.querySelector(`[data-review="${r.dataset.review}"]`)?.focus();
  }
});
// opened from the table in a tab of its own (issue 49, point 2: the board
// never costs the seat): going back closes it, the table's tab is still
// there; before the page's router (capture) takes the link
document.addEventListener("click", (e) => {
  if (e.target.closest("[data-testid=board-back]") && history.length === 1) {
    e.preventDefault();
    window.close();
    setTimeout(() => go(`/t/${B.id}`), 300);  // a tab the browser keeps open
  }
}, true);
// a swipe across the table or the hands steps too (touch, pen or a mouse drag)
let swipeFrom = null;
document.addEventListener("pointerdown", (e) => {
  swipeFrom = e.target.closest(".board-page .board-table, .board-page .board-hands") ? [e.clientX, e.clientY] : null;
});
document.addEventListener("pointerup", (e) => {
  if (!swipeFrom) return;
  const [x, y] = swipeFrom;
  swipeFrom = null;
  const dx = e.clientX - x;
  if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(e.clientY - y)) move(dx < 0 ? "next" : "prev");
});
document.addEventListener("keydown", (e) => {
  if (!document.querySelector(".board-page") || e.target.closest("input, textarea, select")) return;
  const to = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
  if (to) { e.preventDefault(); move(to); }
});
