// After the deal: the result and its analysis, and beside the play the
// score sheet, the chat, the turn timer and the downloads.
import { cardName, cardsRow, esc, explain, fmt, gameText, keepReading, listText, num, t } from "./common.js";
import { T, follow, redraw, seatName } from "./state.js";

export function resultHeadline(r, nameOf = seatName) {
  if (r.kind === "passed") return t("result.passed");
  if (r.kind === "abandoned") return t("result.abandoned");
  if (r.kind === "ramsch") {
    if (r.ramsch && r.ramsch.durchmarsch !== null) return t("result.durchmarsch", { name: nameOf(r.ramsch.durchmarsch) });
    const losers = r.plain.map((e, s) => [e, s]).filter(([e]) => e < 0).map(([, s]) => nameOf(s));
    return losers.length ? t("result.ramsch", { loser: losers.join(", ") }) : t("result.ramschNobody");
  }
  const name = nameOf(r.declarer);
  const game = r.contract ? gameText(r.contract.words) : "";
  return t(r.won ? "result.won" : "result.lost", { name, game });
}

// "Could it have been won?": the open-card analysis of a settled game, asked
// from the server once per deal (the solver's numbers; only the words are ours).
export function analysisText(r) {
  if (r.kind !== "game" || !T.snap.deal) return null;
  const n = T.snap.deal.number;
  T.analyses = T.analyses || {};
  const a = T.analyses[n];
  if (a === undefined) {
    const table = T;
    table.analyses[n] = null;
    fetch(`/api/tables/${table.id}/deals/${n}/analysis`).then((res) => {
      if (res.status === 503) {  // the server is busy with analyses: ask again when it says
        const wait = Math.min(60, Number(res.headers.get("Retry-After")) || 5);
        setTimeout(() => { delete table.analyses[n]; if (T === table) redraw(); }, wait * 1000);
        return undefined;
      }
      return res.ok ? res.json() : null;
    }).then((d) => {
      if (d === undefined) return;
      table.analyses[n] = d || false;
      if (d && T === table) redraw();  // still at this table
    }).catch(() => { table.analyses[n] = false; });
    return null;
  }
  if (!a || a.skipped || !a.positions?.length) return null;
  return verdictLines(a, T.seat);
}

// The open-card verdict worded from the reader's side (`you`: the reader's
// seat): what best play on both sides gives, what was made, and every card
// that swung the outcome (players/analysis.py's `turning_cards`). In the
// analysis a swing away from the declarer is always the declarer's card and
// one towards him a defender's: the words follow the engine's flags.
export function verdictLines(a, you, nameOf = seatName) {
  const first = a.positions[0];
  const declarer = a.declarer_seat;
  const mine = declarer === you;
  const out = [];
  if ("best_declarer_points" in first) {
    out.push(mine
      ? t("analysis.perfectYou", { best: first.best_declarer_points, made: a.declarer_points })
      : t("analysis.perfect", { name: nameOf(declarer), best: first.best_declarer_points, made: a.declarer_points }));
  } else {
    out.push(t(first.declarer_can_win ? "analysis.nullWin" : "analysis.nullLose"));
  }
  const swings = a.turning_cards || [];
  for (const s of swings) {
    const points = s.best_better === null || s.best_better === undefined ? "" : t("analysis.points", { points: s.best_better });
    const words = { trick: s.trick, name: nameOf(s.seat), card: cardName(s.card), better: cardName(s.better), points };
    if (s.declarer_winning_before) out.push(t(s.seat === you ? "analysis.threwYou" : "analysis.threw", words));
    else out.push(t(s.seat === you ? "analysis.gaveYou" : mine ? "analysis.gaveToYou" : "analysis.gave", words));
  }
  if (!swings.length) out.push(t("analysis.noTurn"));
  return out;
}

export const signed = fmt;

// The factors of a deal (Kontra, Re, Bock) and the product they make.
export function factorText(r) {
  const bits = [];
  if (r.re) bits.push(t("factor.re"));
  else if (r.kontra) bits.push(t("factor.kontra"));
  if (r.bock_factor > 1) bits.push(t("factor.bock", { n: r.bock_factor }));
  if (!bits.length) return "";
  // one factor is its own product: "Factor: Kontra and Re ×4."
  if (bits.length === 1) return t("factor.single", { bits: bits[0] });
  return t("factor.line", { bits: bits.join(" · "), f: r.factor });
}

// What a deal was worth and why: a game's points, value and factors, a
// Ramsch deal's card points per player. Also a settled deal reopened from
// the sheet (`nameOf`: the names of whoever played it).
export function valueSections(r, nameOf = seatName) {
  const out = [];
  const scoring = T.snap.table.options.scoring;
  if (r.kind === "game") {
    out.push(`<p>${esc(t("result.points", { p: r.declarer_points, t: r.declarer_tricks }))}${r.schneider ? " " + esc(t("result.schneider")) : ""}${r.schwarz ? " " + esc(t("result.schwarz")) : ""}</p>`);
    if (r.overbid) out.push(`<p>${esc(t("result.overbid", { bid: r.bid }))}</p>`);
    if (r.parts) out.push(`<p data-testid="explanation">${esc(t("result.explanation", { explanation: explain(r.parts, r.contract.words) }))}</p>`);
    const f = factorText(r);
    if (f) out.push(`<p data-testid="factors">${esc(f)} ${esc(t("factor.sum", { v: r.value, f: r.factor, x: r.value * r.factor }))}</p>`);
    const entry = r.plain[r.declarer];
    if (r.won === false && entry === -2 * r.value * r.factor) out.push(`<p class="help">${esc(t("result.lostDouble", { x: r.value * r.factor, e: signed(entry) }))}</p>`);
    if (scoring === "seeger_fabian") out.push(`<p class="help">${esc(t(r.won ? "result.sfWon" : "result.sfLost", { n: r.others_bonus }))}</p>`);
  }
  if (r.kind === "ramsch" && r.ramsch) {
    const rm = r.ramsch;
    out.push(`<table class="ramsch" data-testid="ramsch-points"><thead><tr><th></th><th>${esc(t("result.cardPoints"))}</th><th>${esc(t("result.trickCount"))}</th></tr></thead><tbody>${rm.seats.map((s, i) => `<tr><th>${esc(nameOf(s))}</th><td class="num">${rm.points[i]}</td><td class="num">${rm.tricks[i]}</td></tr>`).join("")}</tbody></table>`);
    if (rm.jungfrau.length) out.push(`<p data-testid="jungfrau">${esc(t("result.jungfrau", { names: listText(rm.jungfrau.map(nameOf)) }))}</p>`);
    if (rm.durchmarsch !== null) out.push(`<p data-testid="durchmarsch">${esc(t("result.durchmarschLine", { name: nameOf(rm.durchmarsch) }))}</p>`);
    if (rm.pushes) out.push(`<p data-testid="pushes">${esc(t("result.pushes", { n: rm.pushes, x: 2 ** rm.pushes }))}</p>`);
    if (r.bock_factor > 1) out.push(`<p data-testid="factors">${esc(t("factor.single", { bits: t("factor.bock", { n: r.bock_factor }) }))}</p>`);
  }
  return out;
}

// The result panel, as a list of sections: a later line (a hint, "could I
// have won?") is one more entry in this list.
// The first sections (issue 49, item 4) are what a person reads first, in
// view without scrolling: the headline, the entries and the verdict; the
// Next button follows them (renderResult), the reckoning after.
export const RESULT_HEAD = 3;
// Lines of the open-card verdict in view: what best play gives, the first swing.
export const VERDICT_SHOWN = 2;

export function resultSections(r, v) {
  const out = [`<h2 data-testid="result-headline">${esc(resultHeadline(r))}</h2>`];
  const scoring = T.snap.table.options.scoring;
  const entries = scoring === "plain" ? r.plain : r.seeger_fabian;
  out.push(`<p class="entries" data-testid="result-entries">${esc(t("result.entries"))}: ${entries.map((e, s) => `${esc(seatName(s))} ${esc(signed(e))}`).join(", ")}</p>`);
  const verdict = analysisText(r);
  // what best play gives and the first card that swung it stay in view; more
  // swings fold away, so that Next stays in the window on a phone
  const shown = verdict ? verdict.slice(0, VERDICT_SHOWN) : [];
  const folded = verdict ? verdict.slice(VERDICT_SHOWN) : [];
  const more = folded.length ? `<details class="analysis-more" data-testid="analysis-more"><summary>${esc(t("analysis.more", { n: folded.length }))}</summary>${folded.map(esc).join(" ")}</details>` : "";
  out.push(verdict ? `<div class="analysis" data-testid="analysis"><b>${esc(t("analysis.title"))}</b> ${shown.map(esc).join(" ")} <a href="/t/${esc(T.id)}/deals/${T.snap.deal.number}" data-testid="board-link" target="_blank" rel="noopener">${esc(t("board.link"))}</a>${more}</div>` : "");
  // your decisions judged from your seat, beside the board's open cards (review.js)
  if (T.seat !== null) out.push(`<p data-testid="review-link"><a href="/t/${esc(T.id)}/deals/${T.snap.deal.number}" target="_blank" rel="noopener">${esc(t("review.open"))}</a>${T.snap.list_over ? ` · <a href="/t/${esc(T.id)}/review" data-testid="list-review-link" target="_blank" rel="noopener">${esc(t("review.openList"))}</a>` : ""}</p>`);
  out.push(...valueSections(r));
  // the skat: as dealt, and what the declarer put away after picking it up
  const dealtSkat = v.dealt ? v.dealt[v.dealt.length - 1] : null;
  const pickedUp = r.kind === "game" && r.contract && !r.contract.hand;
  if (pickedUp && dealtSkat && v.skat) {
    out.push(`<div class="skats"><div data-testid="skat-dealt"><b>${esc(t("result.skatDealt"))}</b> ${cardsRow(dealtSkat, "small")}</div>
      <div data-testid="skat-put"><b>${esc(t("result.skatPut"))}</b> ${cardsRow(v.skat, "small")}</div></div>`);
  } else if (dealtSkat || v.skat) {
    out.push(`<div data-testid="skat-dealt"><b>${esc(t("result.skat"))}</b> ${cardsRow(dealtSkat || v.skat, "small")}</div>`);
  }
  const row = T.snap.sheet?.rows?.find((x) => x.number === T.snap.deal?.number);
  if (row && row.bock_fired && row.bock_fired.length) out.push(`<p data-testid="bock-fired">${esc(t("bock.fired", { why: row.bock_fired.map((k) => t(`bock.why.${k}`)).join(", ") }))}</p>`);
  const coming = T.snap.list_over ? "" : bockToCome(T.snap.deal?.pending_bock);  // nothing comes after the list
  if (coming) out.push(`<p data-testid="bock-coming">${esc(coming)}</p>`);
  if (v.tricks.length) {
    out.push(`<details data-testid="result-tricks"><summary>${esc(t("result.tricks"))}</summary>${v.tricks.map((tr) => `<div class="trickline">${cardsRow(tr.cards, "small")} → ${esc(seatName(tr.winner))} (${tr.points})</div>`).join("")}</details>`);
  }
  if (v.dealt) {
    out.push(`<details><summary>${esc(t("result.hands"))}</summary>${v.dealt.slice(0, 3).map((h, pos) => `<div class="trickline">${esc(seatName(v.seats[pos]))}: ${cardsRow(h, "small")}</div>`).join("")}</details>`);
  }
  return out;
}

export function standingsHeadline() {
  const tot = T.snap.sheet?.totals || [];
  const first = tot.filter((x) => x.place === 1);
  if (!first.length) return "";
  const names = listText(first.map((x) => seatName(x.seat)));
  const line = first.length > 1 ? t("final.tied", { names, n: first[0].total }) : t("final.winner", { name: names, n: first[0].total });
  const tie = tot.find((x) => x.tie_break === "won" || x.tie_break === "lost");
  return `<h2 data-testid="final-winner">${esc(line)}</h2>${tie ? `<p data-testid="tie-break">${esc(t(`final.tie.${tie.tie_break}`))}</p>` : ""}`;
}

export function renderResult() {
  const el = document.getElementById("result");
  const v = T.view;
  if (!v || !v.result) { el.innerHTML = ""; el.dataset.html = ""; return; }
  const parts = resultSections(v.result, v);
  if (T.snap.list_over) {
    parts.unshift(standingsHeadline());
    parts.push(`<button class="primary" data-action="sheet">${esc(t("sheet.final"))}</button> ${T.seat !== null ? `<button data-action="send" data-msg='${esc(JSON.stringify({ type: "again" }))}' data-testid="again">${esc(t("act.again"))}</button>` : ""}`);
  } else if (T.seat !== null) {
    // at a table of people the next deal waits for everyone's Next (issue 26):
    // who is still reading is said; the button sits right under the headline
    const waiting = (T.snap.deal?.waiting_for || []).filter((s) => s !== T.seat);
    const mine = (T.snap.deal?.waiting_for || []).includes(T.seat) || !(T.snap.deal?.waiting_for || []).length;
    const who = listText(waiting.map(seatName));
    const button = mine
      ? `<button class="primary" data-action="send" data-msg='${esc(JSON.stringify({ type: "next" }))}' data-testid="next" aria-keyshortcuts="N">${esc(t("act.next"))}</button>`
      : `<button class="primary" disabled data-testid="next-waiting">${esc(t("act.nextWaiting", { names: who }))}</button>`;
    const note = mine && waiting.length ? `<p class="help" data-testid="next-others">${esc(t("table.othersReading", { names: who, n: waiting.length }))}</p>` : "";
    parts.splice(RESULT_HEAD, 0, `<div class="result-next">${button + note + countdown()}</div>`);
  } else {
    parts.push(`<p class="help">${esc(t("table.nextSoon"))}</p>${countdown()}`);
  }
  const html = `<div class="result-box" role="region" aria-label="${esc(t("phase.done"))}">${parts.join("")}</div>`;
  if (el.dataset.html !== html) { el.innerHTML = html; el.dataset.html = html; }
  const next = T.snap.table.next_table;
  if (next) follow(next);
}

// "3 Bock deals, then 3 Ramsch deals to come", from the server's list of the
// coming deals (`pending_bock`: "bock"/"ramsch" per deal, or "bock xF").
export function bockToCome(pending) {
  if (!pending || !pending.length) return "";
  const bock = pending.filter((p) => p.startsWith("bock")).length;
  const ramsch = pending.filter((p) => p === "ramsch").length;
  const bits = [];
  if (bock) bits.push(t("bock.deals", { n: bock }));
  if (ramsch) bits.push(t("bock.ramsch", { n: ramsch }));
  return t("bock.toCome", { what: bits.join(", ") });
}

// Reactions in the chat, each with a word.
export const REACTION_WORDS = { "👍": "good", "👏": "bravo", "😄": "laugh", "😮": "wow", "😢": "sad", "🤔": "hmm" };

export function reactionIcon(emoji) {
  // Drawn, so that no emoji font is needed (a face or a hand, in SVG).
  const face = (mouth, eyes = '<circle cx="7" cy="8" r="1.3"/><circle cx="13" cy="8" r="1.3"/>') =>
    `<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><circle cx="10" cy="10" r="9" fill="#f2c14e" stroke="#8a6d1a"/><g fill="#3b2a00">${eyes}</g>${mouth}</svg>`;
  switch (REACTION_WORDS[emoji]) {
    case "good": return `<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M3 9h3v9H3zM7 9l4-7c1.5 0 2 1 1.6 2.6L12 8h5c1 0 1.7 1 1.4 2l-1.6 6.5c-.3 1-1 1.5-2 1.5H7z" fill="#f2c14e" stroke="#8a6d1a"/></svg>`;
    case "bravo": return `<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M4 12l6-8 2 1-3 5 6-5 1.5 1.5-5 5 4-2 1 1.5-6 5c-3 2-6 0-6-4z" fill="#f2c14e" stroke="#8a6d1a"/><path d="M14 2l1-1M17 5l2-1M16 3l2-2" stroke="#8a6d1a"/></svg>`;
    case "laugh": return face('<path d="M5 11q5 6 10 0z" fill="#3b2a00"/>');
    case "wow": return face('<ellipse cx="10" cy="14" rx="2.2" ry="3" fill="#3b2a00"/>');
    case "sad": return face('<path d="M6 15q4-4 8 0" fill="none" stroke="#3b2a00" stroke-width="1.5"/><path d="M6 10v3" stroke="#2f7bd6" stroke-width="1.5"/>');
    default: return face('<path d="M7 14h6" stroke="#3b2a00" stroke-width="1.5"/>', '<circle cx="7" cy="8" r="1.3"/><path d="M11.5 6.5l3-1" stroke="#3b2a00" stroke-width="1.3"/><circle cx="13" cy="8" r="1.3"/>');
  }
}

export function reactionLabel(emoji) {
  return t(`react.${REACTION_WORDS[emoji] || "hmm"}`);
}

export function renderChat() {
  const el = document.getElementById("chat-list");
  T.muted = T.muted || new Set();
  const back = keepReading(el);
  el.innerHTML = T.chat.slice(-30).map((c) => {
    if (c.muted || T.muted.has(c.seat)) return `<p class="muted">${esc(t("chat.muted"))}</p>`;
    const who = c.seat === null || c.seat === undefined ? t("chat.spectator") : seatName(c.seat);
    return c.kind === "react" ? `<p><b>${esc(who)}</b> <span class="reaction">${reactionIcon(c.emoji)} ${esc(reactionLabel(c.emoji))}</span></p>` : `<p><b>${esc(who)}:</b> ${esc(c.text)}</p>`;
  }).join("");
  back();
}

// "Next deal in 14 s": filled in by renderTimer, every second.
function countdown() {
  return T.nextAt ? `<p class="help countdown" data-testid="countdown" data-countdown>${esc(countdownText())}</p>` : "";
}

function countdownText() {
  return t("table.nextIn", { s: Math.max(0, Math.ceil((T.nextAt - Date.now()) / 1000)) });
}

export function renderTimer() {
  if (!T || !T.snap || !T.view) return;
  if (T.nextAt) document.querySelectorAll("[data-countdown]").forEach((el) => { el.textContent = countdownText(); });
  const timer = T.snap.table.settings.timer;
  document.querySelectorAll("[data-timer]").forEach((el) => {
    const seat = Number(el.dataset.timer);
    const s = T.snap.seats[seat];
    if (timer && T.view.turn === seat && T.view.phase !== "done" && s && s.human && !s.auto) {
      const left = Math.max(0, timer - Math.floor((Date.now() - T.turnSince) / 1000));
      el.textContent = t("table.timer", { s: left });
    } else el.textContent = "";
  });
}

export function renderSheet() {
  const el = document.getElementById("sheet");
  if (!T.showSheet || !T.snap?.sheet) { el.innerHTML = ""; el.dataset.html = ""; return; }
  const sh = T.snap.sheet;
  const n = T.snap.table.options.players;
  const scoring = T.snap.table.options.scoring;
  const names = T.snap.seats.map((s, i) => s.name || `${i + 1}`);
  // who played each deal (a friend may have taken a computer's seat): the
  // names from the latest change at or before the row's deal
  const changes = Object.entries(sh.names_from || {}).map(([k, v]) => [Number(k), v]).sort((a, b) => a[0] - b[0]);
  const namesAt = (number) => {
    const found = changes.filter(([first]) => first <= number);
    return found.length ? found[found.length - 1][1] : names;
  };
  // a seat's column names everyone who played it, in turn
  const heads = names.map((x, i) => [...new Set([...changes.map(([, v]) => v[i]), x])].join(" / "));
  const running = new Array(n).fill(0);
  const auto = sh.auto_moves || {};
  const rows = sh.rows.map((r) => {
    const names = namesAt(r.number);
    const entries = scoring === "plain" ? r.plain : r.seeger_fabian;
    entries.forEach((e, i) => { running[i] += e; });
    let game = r.kind === "passed" ? t("sheet.thrown") : r.kind === "abandoned" ? t("sheet.abandoned") : r.kind === "ramsch" ? t("game.ramsch") : `${names[r.declarer]}: ${gameText(r.contract.words)} (${r.won ? t("sheet.won") : r.overbid ? t("sheet.overbid") : t("sheet.lost")})`;
    const marks = [r.kontra ? (r.re ? t("marker.re") : t("marker.kontra")) : "", r.bock_factor > 1 ? `${t("marker.bock")} ×${r.bock_factor}` : ""].filter(Boolean).join(" ");
    const fired = r.bock_fired && r.bock_fired.length ? ` <span class="fired" data-testid="sheet-bock-fired">→ ${esc(t("bock.firedShort", { why: r.bock_fired.map((k) => t(`bock.why.${k}`)).join(", ") }))}</span>` : "";
    if (auto[String(r.number)]) game += " *";
    const number = r.kind === "game" ? `<a href="/t/${esc(T.id)}/deals/${r.number}" data-testid="sheet-board-${r.number}" target="_blank" rel="noopener" aria-label="${esc(t("board.link"))}: ${r.number}">${r.number}</a>` : r.number;
    return `<tr><th scope="row" class="first">${number}</th><td>${esc(names[r.dealer])}</td><td><button type="button" class="game-link" data-action="deal-result" data-deal="${r.number}" data-testid="sheet-result-${r.number}" title="${esc(t("sheet.showResult", { n: r.number }))}">${esc(game)}</button> ${esc(marks)}${fired}</td><td class="num">${r.kind === "game" ? r.value : ""}</td>${entries.map((e, i) => `<td class="num">${e ? esc(signed(e)) : ""}<br><b>${num(running[i])}</b></td>`).join("")}</tr>`;
  }).join("");
  const tot = sh.totals;
  const L = sh.others_bonus;  // R8.2, from the server
  const foot = scoring === "seeger_fabian" ? `
    <tr><th colspan="4">${esc(t("sheet.points"))}</th>${tot.map((x) => `<td class="num">${num(x.game_points)}</td>`).join("")}</tr>
    <tr><th colspan="4">${esc(t("sheet.wonX"))}</th>${tot.map((x) => `<td class="num">${x.won} × 50 = ${x.won * 50}</td>`).join("")}</tr>
    <tr><th colspan="4">${esc(t("sheet.lostX"))}</th>${tot.map((x) => `<td class="num">${x.lost} × (−50) = ${signed(-x.lost * 50)}</td>`).join("")}</tr>
    <tr><th colspan="4">${esc(t("sheet.othersX", { n: L }))}</th>${tot.map((x) => `<td class="num">${x.lost_by_others} × ${L} = ${x.lost_by_others * L}</td>`).join("")}</tr>` : "";
  const coming = bockToCome(T.snap.deal?.pending_bock);
  const html = `<div class="modal" role="dialog" aria-modal="true" aria-labelledby="sheet-title"><div class="modal-box">
    <h2 id="sheet-title">${esc(T.snap.list_over ? t("sheet.final") : t("sheet.title"))}</h2>
    ${T.snap.list_over ? standingsHeadline() : ""}
    <p class="scroll-cue" data-testid="scroll-cue" hidden>${esc(t("sheet.scrollCue"))}</p>
    <div class="scroll"><table class="sheet-table" data-testid="sheet">
      <thead><tr><th class="first">${esc(t("sheet.no"))}</th><th>${esc(t("sheet.dealer"))}</th><th>${esc(t("sheet.game"))}</th><th>${esc(t("sheet.value"))}</th>${heads.map((x) => `<th>${esc(x)}</th>`).join("")}</tr></thead>
      <tbody>${rows || `<tr><td colspan="${4 + n}">${esc(t("sheet.empty"))}</td></tr>`}</tbody>
      <tfoot>${foot}<tr><th colspan="4">${esc(t("sheet.total"))}</th>${tot.map((x) => `<td class="num"><b>${num(x.total)}</b></td>`).join("")}</tr>
      <tr><th colspan="4">${esc(t("sheet.place"))}</th>${tot.map((x) => `<td class="num">${x.place}</td>`).join("")}</tr></tfoot>
    </table></div>
    ${coming ? `<p data-testid="sheet-bock-coming">${esc(coming)}</p>` : ""}
    ${T.seat !== null && sh.rows.length ? `<p><a href="/t/${esc(T.id)}/review" data-testid="sheet-review" target="_blank" rel="noopener">${esc(t("review.openList"))}</a></p>` : ""}
    <p class="help">${esc(t("sheet.auto"))}</p>
    <p class="help">${esc(t("sheet.verify"))}: <code>${esc(T.snap.table.commitment.slice(0, 16))}…</code></p>
    <p>${esc(t("sheet.downloads"))}: <a download href="/api/tables/${T.id}/list.json">JSON</a> · <a download href="/api/tables/${T.id}/sheet.csv">CSV</a> · <a href="/api/tables/${T.id}/games.iss" data-action="iss" data-testid="iss">ISS</a></p>
    <p id="download-msg" class="help" role="status" data-testid="download-msg">${esc(T.downloadMsg || "")}</p>
    <button class="primary" data-action="sheet" data-testid="sheet-close">${esc(t("act.close"))}</button>
  </div></div>${T.dealResult ? dealResultHtml(T.dealResult) : ""}`;
  // every update of the table comes here: a sheet that did not change stays
  // as it is, and one that did keeps the reader's place (scroll and focus)
  if (el.dataset.html === html) return;
  const keepLeft = el.querySelector(".scroll")?.scrollLeft || 0;
  const keepTop = el.querySelector(".modal-box")?.scrollTop || 0;
  const focused = el.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
  el.innerHTML = html;
  el.dataset.html = html;
  el.querySelector(".modal-box").scrollTop = keepTop;
  const box = el.querySelector(".scroll");
  box.scrollLeft = keepLeft;
  const cue = () => {
    const more = box.scrollWidth > box.clientWidth + 1;
    el.querySelector(".scroll-cue").hidden = !more;
    box.classList.toggle("more-right", more && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  };
  box.addEventListener("scroll", cue);
  cue();
  if (focused) el.querySelector(`[data-testid="${focused}"]`)?.focus({ preventScroll: true });
}

// A settled deal's result reopened from the sheet (issue 26): what the
// result panel said after it, from the sheet's row and its `results` (the
// value's reckoning, the factor, a Ramsch deal's points), in the names of
// whoever played it.
export function dealResultHtml(number) {
  const sh = T.snap.sheet;
  const row = sh?.rows?.find((x) => x.number === number);
  if (!row) return "";
  const r = { ...row, ...(sh.results || []).find((x) => x.number === number), others_bonus: sh.others_bonus };
  const changes = Object.entries(sh.names_from || {}).map(([k, v]) => [Number(k), v]).filter(([first]) => first <= number).sort((a, b) => a[0] - b[0]);
  const names = changes.length ? changes[changes.length - 1][1] : T.snap.seats.map((s) => s.name);
  const nameOf = (s) => names[s] || seatName(s);
  const entries = T.snap.table.options.scoring === "plain" ? r.plain : r.seeger_fabian;
  const parts = [
    `<p class="help">${esc(t("table.deal", { n: number, of: T.snap.deal?.of ?? "?" }))}</p>`,
    `<h2 id="deal-result-title" data-testid="deal-result-headline">${esc(resultHeadline(r, nameOf))}</h2>`,
    ...valueSections(r, nameOf),
    `<p data-testid="deal-result-entries">${esc(t("result.entries"))}: ${entries.map((e, s) => `${esc(nameOf(s))} ${esc(signed(e))}`).join(", ")}</p>`,
  ];
  if (r.bock_fired && r.bock_fired.length) parts.push(`<p>${esc(t("bock.fired", { why: r.bock_fired.map((k) => t(`bock.why.${k}`)).join(", ") }))}</p>`);
  const review = T.seat !== null ? `<a href="/t/${esc(T.id)}/deals/${number}" data-testid="deal-result-review" target="_blank" rel="noopener">${esc(t("review.open"))}</a>` : "";
  const board = r.kind === "game" ? `<a href="/t/${esc(T.id)}/deals/${number}" data-testid="deal-result-board" target="_blank" rel="noopener">${esc(t("board.link"))}</a>` : "";
  if (board || review) parts.push(`<p>${[board, review].filter(Boolean).join(" · ")}</p>`);
  parts.push(`<button class="primary" data-action="deal-result" data-testid="deal-result-close">${esc(t("act.close"))}</button>`);
  return `<div class="modal" role="dialog" aria-modal="true" aria-labelledby="deal-result-title" data-testid="deal-result"><div class="modal-box result-box">${parts.join("")}</div></div>`;
}

// The ISS file is fetched first: a table the ISS format cannot hold gets a
// message on the page instead of an empty file.
export async function downloadIss() {
  // kept in T: the sheet is drawn anew when the table changes, the message stays
  const say = (text) => {
    T.downloadMsg = text;
    const msg = document.getElementById("download-msg");
    if (msg) msg.textContent = text;
  };
  const res = await fetch(`/api/tables/${T.id}/games.iss`);
  if (!res.ok) { say(t("sheet.noIss")); return; }
  const blob = await res.blob();
  const name = (res.headers.get("content-disposition") || "").match(/filename="([^"]+)"/)?.[1] || `skat-${T.id}.iss`;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  say("");
}

export async function copyLink(b) {
  const input = document.getElementById("share");
  const msg = document.getElementById("copy-msg");
  let copied = false;
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(input.value); copied = true; } catch { copied = false; }
  }
  input.focus();
  input.select();
  if (!copied) {
    try { copied = document.execCommand("copy"); } catch { copied = false; }
  }
  // say only what happened: where nothing could be copied, the link is selected
  msg.textContent = copied ? t("table.copied") : t("table.selected");
  b.blur();
}
