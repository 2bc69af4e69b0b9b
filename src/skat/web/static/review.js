// Your game, reviewed (issue 48): each of your decisions judged from your
// own seat, with no hindsight (POST /api/tables/ID/deals/N/review), beside
// the analysis board's open-card values; and your whole list: what your
// cards promised against what you made, with the costliest decisions
// (POST /api/tables/ID/review, the page /t/ID/review). A review is its
// seat's own: the seat token this browser holds for the table asks for it.
import { app, cardName, esc, fmt, gameText, store, t } from "./common.js";

export const MARKED = (d) => d.verdict !== "fine";

function token(id) {
  return store.get(`skat.token.${id}`);
}

// The review of deal `number` for the seat this browser holds:
// { state: "ok", data } or { state: "none" | "busy" | "error", retry }.
export async function fetchReview(id, number) {
  const tok = token(id);
  if (!tok) return { state: "none" };
  try {
    const res = await fetch(`/api/tables/${id}/deals/${number}/review`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: tok }) });
    const data = await res.json();
    if (res.ok) return { state: "ok", data };
    if (res.status === 503) return { state: "busy", retry: Number(res.headers.get("retry-after")) || 2 };
    return { state: data?.error?.code === "BAD_TOKEN" ? "none" : "error" };
  } catch {
    return { state: "error" };
  }
}

const round = (x) => fmt(Math.round(x));

const VERDICT = {
  fine: () => t("review.fine"),
  inaccuracy: () => t("review.inaccuracy"),
  mistake: () => t("review.mistake"),
  blunder: () => t("review.blunder"),
};
export const verdictWord = (v) => (VERDICT[v] || VERDICT.fine)();

// A decision in words, from the reader's side: "Bid 20", "Put away S7 H8".
export function decisionText(text) {
  const [verb, ...rest] = text.split(" ");
  switch (verb) {
    case "bid": return t("review.bid", { value: rest[0] });
    case "hold": return t("review.hold");
    case "pass": return t("review.pass");
    case "pickup": return t("review.pickup");
    case "discard": return t("review.discard", { cards: rest.map(cardName).join(", ") });
    case "announce": return t("review.announce", { game: gameText(rest) });
    case "play": return t("review.play", { card: cardName(rest[0]) });
    case "kontra": return t("review.kontra");
    case "no_kontra": return t("review.noKontra");
    case "re": return t("review.re");
    case "no_re": return t("review.noRe");
    default: return text;
  }
}

export function luckText(l) {
  if (l.role === "none") return t("review.luckNone", { made: fmt(l.made) });
  const key = l.role === "declarer" ? "review.luckDeclarer" : "review.luckDefender";
  return t(key, { promised: round(l.promised), made: fmt(l.made), play: round(l.play) });
}

function lossText(d) {
  if (!d.loss) return verdictWord(d.verdict);
  return t("review.loss", { best: decisionText(d.best), loss: Math.round(d.loss), verdict: verdictWord(d.verdict) });
}

// The review's column of the analysis board: `R` the fetched review,
// `selected` the index of the decision in view, `step` the board's card.
export function reviewColumn(R, selected, step) {
  const head = `<h2>${esc(t("review.title"))}</h2><p class="help">${esc(t("review.help"))}</p>`;
  if (!R || R.state === "loading") return `${head}<p class="status" data-testid="review-status">${esc(t("review.loading"))}</p>`;
  if (R.state === "none") return `${head}<p class="status" data-testid="review-status">${esc(t("review.noSeat"))}</p>`;
  if (R.state === "busy") return `${head}<p class="status" data-testid="review-status">${esc(t("board.busy"))}</p>`;
  if (R.state !== "ok") return `${head}<p class="status" data-testid="review-status">${esc(t("review.failed"))}</p>`;
  const ds = R.data.decisions;
  const marked = ds.filter(MARKED).length;
  const mine = ds.findIndex((d) => d.step === step);
  const here = mine >= 0 ? `<p class="review-here verdict-${esc(ds[mine].verdict)}" data-testid="review-here">${esc(t("review.yourCard", { card: decisionText(ds[mine].action) }))} ${esc(lossText(ds[mine]))}</p>` : "";
  const items = ds.map((d, k) => `<li class="verdict-${esc(d.verdict)}${k === selected ? " current" : ""}"${k === selected ? ' aria-current="step" data-testid="review-current"' : ""}><button type="button" class="link" data-review="${k}">${esc(decisionText(d.action))}</button> <span class="verdict-word">${esc(lossText(d))}</span></li>`).join("");
  return `${head}
    <p data-testid="review-luck">${esc(luckText(R.data.luck))}</p>
    <p>${esc(t(marked ? "review.marked" : "review.noneMarked", { count: marked, of: ds.length }))}
      ${marked ? `<button type="button" data-step="mistake" data-testid="review-next-mistake">${esc(t("review.nextMistake"))}</button>` : ""}</p>
    ${here}
    <ol class="review-list" data-testid="review-list">${items}</ol>`;
}

// The next marked decision after `from` (round again from the first).
export function nextMarked(ds, from) {
  for (let k = 1; k <= ds.length; k++) {
    const i = (from + k + ds.length) % ds.length;
    if (MARKED(ds[i])) return i;
  }
  return -1;
}

// ------------------------------------------------------------ the list
let L = null;

export async function listReviewPage(id) {
  L = { id };
  const mine = L;
  const tok = token(id);
  app.innerHTML = `<section class="review-page" aria-labelledby="review-title"><p><a href="/t/${esc(id)}">${esc(t("board.back"))}</a></p>
    <h1 id="review-title">${esc(t("review.listTitle"))}</h1><p class="help">${esc(t("review.listHelp"))}</p>
    <div id="review-body"><p class="status" data-testid="review-status" aria-live="polite">${esc(t(tok ? "review.loading" : "review.noSeat"))}</p></div></section>`;
  if (!tok) return;
  const here = () => L === mine && location.pathname === `/t/${id}/review`;
  while (here()) {
    let res, data;
    try {
      res = await fetch(`/api/tables/${id}/review`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: tok }) });
      data = await res.json();
    } catch {
      res = null;
    }
    const body = document.getElementById("review-body");
    if (!here() || !body) return;  // the page moved on meanwhile
    if (!res || (!res.ok && res.status !== 503)) {
      body.innerHTML = `<p class="status" data-testid="review-status">${esc(t(data?.error?.code === "BAD_TOKEN" ? "review.noSeat" : "review.failed"))}</p>`;
      return;
    }
    if (res.ok) body.innerHTML = listHtml(id, data);
    if (res.ok && data.complete) return;
    const wait = res.ok ? 1 : Number(res.headers.get("retry-after")) || 2;
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
}

function decisionLink(id, d) {
  const where = d.step ? `${d.step}` : `m${d.move}`;
  return `<a href="/t/${esc(id)}/deals/${d.deal}#${where}" data-testid="review-costly">${esc(t("review.costly", { deal: d.deal, action: decisionText(d.action), best: decisionText(d.best), loss: Math.round(d.loss), verdict: verdictWord(d.verdict) }))}</a>`;
}

function listHtml(id, s) {
  const progress = s.complete ? "" : `<p class="status" data-testid="review-status" aria-live="polite">${esc(t("review.progress", { done: s.reviewed, of: s.settled }))}</p>`;
  const v = s.verdicts;
  const rows = s.deals.map((d) => `<tr><th scope="row"><a href="/t/${esc(id)}/deals/${d.deal}">${d.deal}</a></th><td class="num">${esc(round(d.promised))}</td><td class="num">${esc(fmt(d.made))}</td><td class="num">${esc(round(d.play))}</td><td class="num">${d.marked}</td></tr>`).join("");
  const costly = s.costliest.length
    ? `<ol class="review-costly">${s.costliest.map((d) => `<li class="verdict-${esc(d.verdict)}">${decisionLink(id, d)}</li>`).join("")}</ol>`
    : `<p>${esc(t("review.noCostly"))}</p>`;
  return `${progress}
    <p class="review-headline" data-testid="review-headline"><b>${esc(t("review.listLine", { promised: round(s.promised), made: fmt(s.made), play: round(s.play) }))}</b></p>
    <p data-testid="review-verdicts">${esc(t("review.counts", { count: s.decisions, fine: v.fine, inaccuracy: v.inaccuracy, mistake: v.mistake, blunder: v.blunder, avg: s.average_loss.toFixed(1) }))}</p>
    <h2>${esc(t("review.costliest"))}</h2>${costly}
    <h2>${esc(t("review.perDeal"))}</h2>
    <div class="scroll"><table class="review-table" data-testid="review-deals"><thead><tr><th>${esc(t("sheet.no"))}</th><th>${esc(t("review.promised"))}</th><th>${esc(t("review.made"))}</th><th>${esc(t("review.fromPlay"))}</th><th>${esc(t("review.markedShort"))}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
