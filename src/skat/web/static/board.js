// The table drawn: the seats, the trick, the controls for the decision at
// hand, the value preview and the hand.
import { backSvg } from "./cards.js";
import { GAMES, cardHtml, cardName, cardsRow, esc, explain, gameText, store, t } from "./common.js";
import { actionText, claimLevel, hintText, renderLog } from "./log.js";
import { OPTIONS, levelWord, optionWords, rulesItems, valueWord } from "./options.js";
import { ensureProfile, withProfile } from "./profile.js";
import { bockToCome, renderChat, renderResult, renderSheet } from "./result.js";
import { playSound } from "./sound.js";
import { T, seatName, send, setStatus, setting } from "./state.js";

// How a trick is shown (docs/architecture.md, "The browser client"): every
// card lies in front of the player who played it; a finished trick stays on
// the table until its winner leads the next one, and at least HOLD_MS even
// when the next card comes sooner, then it is collected toward the winner.
// Nothing here decides a rule: the cards, the winner and the points come
// with the view.
export const HOLD_MS = 1500;
export const COLLECT_MS = 450;

// Relative places on screen: me at the bottom, the next player on the left
// (spectators see seat 0 at the bottom).
export function places() {
  const n = T.snap.table.options.players;
  const me = T.seat ?? T.pending ?? 0;
  const names = n === 3 ? ["left", "right"] : ["left", "top", "right"];
  const out = { [me]: "bottom" };
  for (let i = 1; i < n; i++) out[(me + i) % n] = names[i - 1];
  return out;
}

export function myTurn() {
  const v = T.view;
  return !!(v && T.seat !== null && v.turn === T.seat && v.phase !== "done" && v.legal.length);
}

export function renderTable() {
  if (!T || !T.snap) return;
  const snap = T.snap;
  const v = T.view;
  const status = [];
  if (snap.table.status === "expired") status.push(t("table.expired"));
  if (snap.table.resting) status.push(t("table.resting"));
  if (snap.deal) status.push(t("table.deal", { n: snap.deal.number, of: snap.deal.of }));
  if (snap.deal?.bock_factor > 1) status.push(t("table.bockDeal"));
  if (snap.deal?.ramsch_round) status.push(t("table.ramschRound"));
  if (v && v.turn !== null && v.phase !== "done") status.push(v.turn === T.seat ? t("table.yourTurn") : t("table.turn", { name: seatName(v.turn) }));
  const coming = snap.list_over ? "" : bockToCome(snap.deal?.pending_bock);  // nothing comes after the list
  if (coming) status.push(coming);
  if (snap.list_over) status.push(t("table.listOver"));
  if (T.error) status.push(T.error);
  setStatus(status.join(" · "));
  const leave = document.querySelector("[data-action=leave]");
  if (leave) leave.hidden = T.seat === null || snap.table.status === "finished";
  renderRules();
  renderJoin();
  renderBoard();
  renderControls();
  renderHand();
  renderResult();
  renderLog();
  renderChat();
  renderSheet();
  notifyTurn();
}

export function renderRules() {
  const el = document.getElementById("table-rules");
  const o = T.snap.table.options;
  const st = T.snap.table.settings;
  const items = [t("table.roundsLine", { rounds: t("count.rounds", { n: Math.round(o.deals / o.players) }), deals: t("count.deals", { n: o.deals }) }), ...rulesItems(o, st)];
  if (!st.level) items.push(`${t("table.computer")}: ${st.bot}`); // a player by name (the API's "bot")
  // the summary: the list's choices and the switches that are on
  const brief = (OPTIONS ?? [])
    .filter((x) => x.where === "list" && x.form && !x.needs && x.name !== "players")
    .map((x) => (x.kind === "switch" ? (o[x.name] ? optionWords(x).label : "") : valueWord(x, o[x.name])))
    .filter(Boolean);
  el.querySelector("summary").textContent = `${t("table.rules")}: ${brief.join(" · ")}`;
  el.querySelector("p").textContent = items.join(" · ");
}

export function botSeats() {
  return T.snap.seats.map((s, i) => [s, i]).filter(([s]) => s.bot && !s.human && !s.pending).map(([, i]) => i);
}

export function renderJoin() {
  const el = document.getElementById("join");
  const snap = T.snap;
  const status = snap.table.status;
  const free = snap.seats.some((s) => !s.name && !s.bot);
  const bots = botSeats();
  let html = "";
  const nameInput = `<input id="sit-name" maxlength="24" value="${esc(store.get("skat.name", ""))}" aria-label="${esc(t("home.name"))}" placeholder="${esc(t("home.namePlaceholder"))}">`;
  if (T.pending !== null) {
    html += `<p class="notice" data-testid="pending">${esc(t("table.pending", { name: seatName(T.pending) }))}</p>`;
  } else if (T.seat === null && status === "open" && free) {
    html += `<form id="sit-form" class="sit"><h2>${esc(t("table.sitTitle"))}</h2>${nameInput}
      <button class="primary" type="submit" data-testid="sit">${esc(t("table.sit"))}</button></form>`;
  } else if (T.seat === null && (status === "open" || status === "playing") && bots.length) {
    const later = status === "playing" && T.view && T.view.phase !== "done";
    html += `<form id="sit-form" class="sit" data-testid="takeover"><h2>${esc(t("table.takeTitle"))}</h2>${nameInput}
      ${bots.map((s) => `<button class="primary" type="submit" data-seat="${s}" data-testid="take-${s}">${esc(t("table.take", { name: seatName(s) }))}</button>`).join("")}
      <p class="help">${esc(t(later ? "table.takeNext" : "table.takeNow"))}</p></form>`;
  } else if (T.seat === null) {
    html += `<p class="help">${esc(t("table.spectating"))}</p>`;
  }
  const creator = store.get(`skat.creator.${T.id}`);
  if (creator && status === "open") {
    html += `<button class="primary" data-action="fill" data-testid="fill">${esc(t("table.fill"))}</button> <span class="help">${esc(t("table.waiting"))}</span>`;
  }
  if (T.seat !== null && snap.seats[T.seat]?.auto) {
    html += `<button class="primary" data-action="reclaim">${esc(t("act.reclaim"))}</button>`;
  }
  if (el.dataset.html !== html) {
    el.innerHTML = html;
    el.dataset.html = html;
    const f = document.getElementById("sit-form");
    if (f) f.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = document.getElementById("sit-name").value.trim();
      const seat = e.submitter?.dataset.seat;
      if (!name) { document.getElementById("sit-name").focus(); return; }
      store.set("skat.name", name);
      // the first time this browser plays, its profile is made (issue 48)
      ensureProfile().then(() => send(withProfile(seat !== undefined ? { type: "sit", name, seat: Number(seat) } : { type: "sit", name })));
    });
  }
  const share = document.getElementById("share-label");
  if (share) share.textContent = t(free || bots.length ? "table.share" : "table.shareWatch");
}

export function seatBox(seat, place) {
  const s = T.snap.seats[seat];
  const v = T.view;
  const n = T.snap.table.options.players;
  const bits = [];
  const out = v && n === 4 && seat === v.dealer;
  if (v) {
    const pos = v.seats.indexOf(seat);
    if (pos >= 0) bits.push(t(`pos.${pos}`));
    if (seat === v.dealer) bits.push(t("table.dealer"));
    if (v.declarer === seat) bits.push(t("table.declarer"));
    const tricks = v.tricks.filter((tr) => tr.winner === seat).length;
    if (!out && (v.phase === "play" || v.phase === "done")) bits.push(t("table.tricks", { n: tricks }));
  }
  if (s.bot) bits.push(t("table.computer") + (s.level ? ` (${levelWord(s.level)})` : ""));
  if (s.auto) bits.push(t("table.auto"));
  const offline = s.human && !s.connected;
  const turn = v && v.turn === seat && v.phase !== "done";
  const lastCall = v ? [...v.history].reverse().find(([h, a]) => h === seat && /^(bid|hold|pass)/.test(a)) : null;
  const call = v && v.phase === "bidding" && lastCall ? `<span class="call">${esc(actionText(seat, lastCall[1]).replace(/\.$/, ""))}</span>` : "";
  const backs = place !== "bottom" || T.seat === null;
  const others = backs && v && v.hand_sizes[seat] > 0 && !(v.open_cards && v.declarer === seat)
    ? `<span class="backs" aria-label="${esc(t("table.cardsLeft", { n: v.hand_sizes[seat] }))}">${backSvg()}<b>${v.hand_sizes[seat]}</b></span>` : "";
  const open = v && v.open_cards && v.declarer === seat && seat !== T.seat
    ? `<div class="open" aria-label="${esc(t("table.openCards", { name: s.name }))}">${cardsRow(v.open_cards, "small")}</div>` : "";
  const mute = T.seat !== seat && s.human && s.name ? `<button class="mini quiet" data-action="mute" data-seat="${seat}" aria-pressed="${!!T.muted?.has(seat)}">${esc(T.muted?.has(seat) ? t("chat.unmute", { name: s.name }) : t("chat.mute", { name: s.name }))}</button>` : "";
  const badges = [
    out ? `<span class="badge out">${esc(t("table.sitsOut"))}</span>` : "",
    offline ? `<span class="badge offline">${esc(t("table.offline"))}</span>` : "",
    s.pending ? `<span class="badge pending">${esc(t("table.takesOver", { name: s.pending }))}</span>` : "",
  ].join("");
  return `<div class="seat ${place} ${turn ? "turn" : ""} ${out ? "sitting-out" : ""}" data-seat="${seat}" data-testid="seat-${seat}">
    <div class="who"><b class="name">${esc(s.name || t("table.free"))}${seat === T.seat ? ` (${esc(t("table.you"))})` : ""}</b>${turn ? ` <span class="dot" aria-hidden="true">●</span>` : ""}
    ${badges}<span class="meta">${esc(bits.join(" · "))}</span>${call}<span class="timer" data-timer="${seat}"></span></div>${others}${open}${mute}</div>`;
}

export function trickKey(v, i) {
  return `${T.snap?.deal?.number}:${i}`;
}

// The cards of a finished trick as [seat, card] in the order played (the
// server says who played each: trick.by).
export function trickPairs(v, tr) {
  return tr.cards.map((card, i) => [tr.by[i], card]);
}

// What lies on the table now: the trick in play, or the finished one (kept
// until its winner leads again, and at least HOLD_MS).
export function tableTrick(v) {
  const now = Date.now();
  // held a moment after it is complete, except when it is your turn: then
  // the card you answer lies on the table at once
  const held = T.hold && T.hold.until > now && T.hold.key === trickKey(v, v.tricks.length - 1) && !myTurn() ? T.hold : null;
  if (v.trick.length && !held) return { pairs: v.trick, finished: false };
  const last = v.tricks[v.tricks.length - 1];
  if (last && (held || !v.trick.length) && (v.phase === "play" || v.phase === "done")) {
    return { pairs: trickPairs(v, last), finished: true, winner: last.winner, points: last.points, key: trickKey(v, v.tricks.length - 1) };
  }
  return { pairs: [], finished: false };
}

export function renderBoard() {
  const el = document.getElementById("board");
  if (!T || !T.snap || !el) return;
  const v = T.view;
  const pl = places();
  const seats = Object.keys(pl).map(Number);
  let center = "";
  let overlay = "";
  if (v) {
    const c = v.contract;
    const game = c ? `<div class="contract"><b>${esc(gameText(c.words))}</b>${v.declarer !== null ? ` · ${esc(seatName(v.declarer))}` : ""}${v.bid ? ` · ${esc(t("table.bid", { n: v.bid }))}` : ""}
      ${v.kontra ? `<span class="marker">${esc(v.re ? t("marker.re") : t("marker.kontra"))}</span>` : ""}
      ${T.snap.deal?.bock_factor > 1 ? `<span class="marker">${esc(t("marker.bock"))}${T.snap.deal.bock_factor > 2 ? " ×" + T.snap.deal.bock_factor : ""}</span>` : ""}</div>`
      : v.bid ? `<div class="contract">${esc(t("table.bid", { n: v.bid }))}</div>` : "";
    const shown = tableTrick(v);
    // a finished trick that just left the table is collected toward its winner
    if (T.lastFinished && T.lastFinished !== (shown.finished ? shown.key : "") && T.lastShown?.finished) {
      T.collecting = { ...T.lastShown, until: Date.now() + COLLECT_MS };
      setTimeout(() => T && renderBoard(), COLLECT_MS + 20);
    }
    T.lastFinished = shown.finished ? shown.key : "";
    T.lastShown = shown;
    const slots = shown.pairs.map(([seat, card]) => {
      const k = `${T.snap.deal?.number}:${card}`;
      const enter = !shown.finished && !T.seen.has(k) ? ` enter from-${pl[seat]}` : "";
      T.seen.add(k);
      return `<div class="slot ${pl[seat]}${enter}">${cardHtml(card)}</div>`;
    }).join("");
    const ghost = T.collecting && T.collecting.until > Date.now()
      ? `<div class="trick collecting to-${pl[T.collecting.winner]}" aria-hidden="true">${T.collecting.pairs.map(([seat, card]) => `<div class="slot ${pl[seat]}">${cardHtml(card)}</div>`).join("")}</div>` : "";
    const taken = shown.finished ? `<p class="taken" data-testid="trick-winner">${esc(t("log.trick", { name: seatName(shown.winner), p: shown.points }))}</p>` : "";
    const idle = !slots ? `<span class="help">${v.phase === "play" ? esc(t("table.noTrick")) : esc(t(`phase.${v.phase}`))}</span>` : "";
    const turn = myTurn() ? `<p class="your-turn" data-testid="your-turn">${esc(t("table.yourTurn"))}</p>` : "";
    center = `${game}<div class="trick-area">${ghost}<div class="trick ${shown.finished ? "finished" : ""}" aria-label="${esc(t("table.trick"))}">${slots}${idle}</div></div>${taken}${turn}
      ${v.tricks.length ? `<button class="mini" data-action="last" data-testid="last-trick" aria-keyshortcuts="L" aria-pressed="${T.showLast}" aria-controls="last-trick">${esc(t("act.lastTrick"))}</button>` : ""}`;
    if (T.showLast && v.tricks.length) {
      const last = v.tricks[v.tricks.length - 1];
      overlay = `<div id="last-trick" class="last-trick" role="dialog" aria-label="${esc(t("act.lastTrick"))}" data-testid="last-trick-box">
        <p><b>${esc(t("act.lastTrick"))}</b>: ${esc(t("log.trick", { name: seatName(last.winner), p: last.points }))}</p>
        <div class="last-cards">${trickPairs(v, last).map(([seat, card]) => `<figure>${cardHtml(card, { cls: "tiny" })}<figcaption>${esc(seatName(seat))}</figcaption></figure>`).join("")}</div>
        <button class="mini" data-action="last">${esc(t("act.close"))}</button></div>`;
    }
  }
  const n = T.snap.table.options.players;
  el.className = `board players-${n}${myTurn() ? " my-turn" : ""}`;
  el.innerHTML = `${seats.map((s) => seatBox(s, pl[s])).join("")}<div class="center">${center}</div>${overlay}`;
}

export function legal() {
  return T.view && T.view.turn !== null ? T.view.legal : [];
}

// The keys of the table's buttons (input.js, onTableKey; issue 49, item 7),
// by key: each presses the button with that test id where it shows.
// A key presses the first of its buttons that shows (P passes in the
// auction, pushes the skat on unseen in Schieberamsch and says no Kontra).
// The help (settings.js) lists them in this order.
export const TABLE_KEYS = {
  b: ["bid"], y: ["hold"], p: ["pass", "push-unseen", "no_kontra", "no_re"], s: ["pickup"], h: ["hand"],
  a: ["announce"], d: ["discard"], k: ["kontra"], r: ["re"], c: ["claim"], g: ["concede"], o: ["refuse"],
  n: ["next"], l: ["last-trick"],
};
// 1-6 pick the game, 7-9 its announcements
export const GAME_KEYS = ["clubs", "spades", "hearts", "diamonds", "grand", "null"];
export const FLAG_KEYS = ["schneider", "schwarz", "ouvert"];
const KEY_OF = Object.fromEntries(Object.entries(TABLE_KEYS).flatMap(([k, ids]) => ids.map((id) => [id, k.toUpperCase()])));

export function button(label, msg, cls = "", testid = "") {
  const key = KEY_OF[testid] ? ` aria-keyshortcuts="${KEY_OF[testid]}"` : "";
  return `<button class="${cls}" data-action="send" data-msg='${esc(JSON.stringify(msg))}' ${T.busy || Date.now() < T.guardUntil ? "disabled" : ""} ${testid ? `data-testid="${testid}"` : ""}${key}>${esc(label)}</button>`;
}

export function act(text) {
  return { type: "act", action: text, version: T.version };
}

export function renderControls() {
  const el = document.getElementById("controls");
  const v = T.view;
  const L = v ? v.legal : [];
  let html = "";
  if (v && L.length) {
    if (v.phase === "bidding") {
      const bids = L.filter((a) => a.startsWith("bid"));
      if (L.includes("hold")) html += button(t("act.hold", { n: v.bid }), act("hold"), "primary", "hold");
      if (v.listener === null && v.bidder === T.seat) {  // the engine: nobody listens, forehand alone may take 18
        html += button(t("act.take18"), act("bid 18"), "primary", "bid");
      } else if (bids.length) {
        html += button(t("act.bid", { n: bids[0].split(" ")[1] }), act(bids[0]), "primary", "bid");
        if (bids.length > 1) {
          html += `<label class="higher">${esc(t("act.higher"))} <select id="higher" aria-label="${esc(t("act.higher"))}">${bids.slice(1).map((b) => `<option>${b.split(" ")[1]}</option>`).join("")}</select></label>
            <button data-action="higher" ${T.busy ? "disabled" : ""}>${esc(t("act.bid", { n: "…" }))}</button>`;
        }
      }
      if (L.includes("pass")) html += button(t("act.pass"), act("pass"), "", "pass");
    } else if (v.phase === "skat") {
      html += button(t("act.pickup"), act("pickup"), "primary", "pickup");
      html += `<button data-action="chooser" data-mode="hand" data-testid="hand" aria-keyshortcuts="H">${esc(t("act.hand"))}</button>`;
      if (T.chooser === "hand") html += chooser(L.filter((a) => a.startsWith("announce")), true);
    } else if (v.phase === "push" && L.includes("pickup")) {
      // Schieberamsch (engine/ramsch.py): take the skat up, or push it on unseen
      html += `<p class="help">${esc(t("act.pushHelp"))}</p>`;
      html += button(t("act.pushPickup"), act("pickup"), "primary", "pickup");
      html += button(t("act.pushUnseen"), act("pass"), "", "push-unseen");
    } else if (v.phase === "push") {
      html += `<p class="help" data-testid="discard-hint">${esc(t("act.pushHint"))}</p>`;
      html += T.selected.length === 2
        ? button(t("act.push"), act(`discard ${T.selected.join(" ")}`), "primary", "discard")
        : `<button disabled>${esc(t("act.push"))}</button>`;
    } else if (v.phase === "discard") {
      html += `<p class="help" data-testid="discard-hint">${esc(t("act.discardHint"))}</p>`;
      html += T.selected.length === 2
        ? button(t("act.discard"), act(`discard ${T.selected.join(" ")}`), "primary", "discard")
        : `<button disabled>${esc(t("act.discard"))}</button>`;
    } else if (v.phase === "declare") {
      html += chooser(L.filter((a) => a.startsWith("announce")), false);
    } else {
      for (const a of ["kontra", "no_kontra", "re", "no_re"]) if (L.includes(a)) html += button(t(`act.${a}`), act(a), a === "kontra" || a === "re" ? "primary" : "", a);
      if (v.phase === "play" && setting("tap2") && L.some((a) => a.startsWith("play "))) html += `<p class="help">${esc(t(T.armed ? "set.tap2Again" : "set.tap2Hint"))}</p>`;
    }
  }
  if (T.snap.table.settings.hint && v && v.turn === T.seat && v.phase !== "done" && L.length) {
    html += `<button class="mini" data-action="hint" data-testid="hint" ${T.hint === "…" ? "disabled" : ""}>${esc(t("act.hint"))}</button>`;
    if (T.hint) html += `<span class="hint" data-testid="hint-text" role="status">${esc(T.hint === "…" ? t("hint.thinking") : t(T.hintQuick ? "hint.quick" : "hint.says", { move: hintText(T.hint) }))}</span>`;
  }
  const claimNow = claimStatus(v);
  if (claimNow) html += `<p class="claim-status" data-testid="claim-status" role="status">${esc(claimNow)}</p>`;
  if (v && v.offers && v.offers.includes("claim")) {
    // R6.6: the declarer shows his cards and says what he claims; only what
    // he claims counts beyond the announced game
    if (T.claiming) html += claimChoice(v);
    else html += `<button class="mini" data-action="claim" data-testid="claim" aria-keyshortcuts="C">${esc(t("act.claim"))}</button>`;
  } else T.claiming = false;
  if (v && v.offers && v.offers.includes("concede")) {
    // a defender asked by the partner's concession or by the declarer's
    // claim sees the question and both answers in front (issue 26, point 4)
    const asked = askedToConcede(v);
    if (asked) html += `<p class="help" data-testid="concede-question">${esc(asked)}</p>`;
    html += `<button class="${asked ? "primary" : "mini quiet"}" data-action="concede" data-testid="concede" aria-keyshortcuts="G">${esc(t(asked ? "act.concedeToo" : "act.concede"))}</button>`;
    if (asked && v.offers.includes("refuse")) html += button(t("act.refuse"), act("refuse"), "", "refuse");
  }
  if (el.dataset.html !== html) { el.innerHTML = html; el.dataset.html = html; }
  if (T.chooser && T.preview) document.getElementById("preview")?.replaceChildren(document.createTextNode(T.preview));
}

// The question a defender has to answer now, if any (the engine offers
// `refuse` exactly then): the declarer's claim, or the partner's give-up.
function askedToConcede(v) {
  if (v.declarer === null || v.seat === v.declarer || !v.offers.includes("refuse")) return "";
  const h = v.history;
  const claim = h.find(([, a]) => a.startsWith("claim"));
  if (claim && !h.some(([, a]) => a === "refuse")) {
    return t("act.claimQuestion", { name: seatName(v.declarer), level: claimLevel(claim[1]) });
  }
  const partner = h.find(([s, a]) => a === "concede" && s !== v.seat && s !== v.declarer);
  if (partner) return t("act.partnerConceded", { name: seatName(partner[0]) });
  return "";
}

// The claim's state beside the controls, for everyone at the table, from the
// view's history alone (issue 49, finding 5): what was claimed, and each
// defender's answer as it comes. Empty when no claim was made in this deal.
export function claimStatus(v) {
  if (!v || v.declarer === null || v.phase === "done") return "";
  const h = v.history;
  const at = h.findIndex(([, a]) => a.startsWith("claim"));
  if (at < 0) return giveUpStatus(v);
  const level = claimLevel(h[at][1]);
  const words = [v.declarer === T.seat ? t("claim.mine", { level }) : t("claim.theirs", { name: seatName(v.declarer), level })];
  const after = h.slice(at + 1);
  let refused = false;
  for (const seat of v.seats) {
    if (seat === v.declarer) continue;
    const name = seatName(seat);
    const you = seat === T.seat;
    if (after.some(([s, a]) => s === seat && a === "refuse")) { words.push(t(you ? "claim.youRefuse" : "claim.refuses", { name })); refused = true; }
    else if (h.some(([s, a]) => s === seat && a === "concede")) words.push(t(you ? "claim.youAccept" : "claim.accepts", { name }));
    else if (!refused) words.push(t(you ? "claim.youWait" : "claim.waits", { name }));
  }
  if (refused) words.push(t("claim.refused"));
  return words.join(" ");
}

// A defender's give-up and the partner's answer, beside the controls (issue
// 49, finding 3): a give-up hands every card not yet won to the declarer,
// so a partner may say no and play on.
function giveUpStatus(v) {
  const h = v.history;
  const gave = h.find(([s, a]) => a === "concede" && s !== v.declarer);
  if (!gave) return "";
  const partner = v.seats.find((s) => s !== v.declarer && s !== gave[0]);
  const words = [gave[0] === T.seat ? t("giveup.mine") : t("giveup.theirs", { name: seatName(gave[0]) })];
  const you = partner === T.seat;
  const name = seatName(partner);
  if (h.some(([s, a]) => s === partner && a === "refuse")) words.push(t(you ? "claim.youRefuse" : "giveup.refuses", { name }));
  else words.push(t(you ? "claim.youWait" : "claim.waits", { name }));
  return words.join(" ");
}

// The declarer's choice of what to claim (R6.6): the levels still possible
// (the engine refuses the others too): Schwarz while the defence has no
// trick, Schneider while it has 30 card points or fewer; none in Null.
function claimChoice(v) {
  const c = v.contract || {};
  const kept = v.tricks.filter((tr) => tr.winner !== v.declarer);
  const points = kept.reduce((n, tr) => n + tr.points, 0);
  let html = `<div class="claim-choice" role="group" data-testid="claim-choice" aria-label="${esc(t("act.claim"))}"><p class="help">${esc(t("act.claimHelp"))}</p>`;
  html += button(t("act.claimGame"), act("claim"), "primary", "claim-game");
  if (c.game !== "null") {
    if (!c.schneider && !c.schwarz && points <= 30) html += button(t("act.claimSchneider"), act("claim schneider"), "", "claim-schneider");
    if (!c.schwarz && !kept.length) html += button(t("act.claimSchwarz"), act("claim schwarz"), "", "claim-schwarz");
  }
  html += `<button class="mini quiet" data-action="claim-cancel" data-testid="claim-cancel">${esc(t("act.claimCancel"))}</button></div>`;
  return html;
}

export function chooser(announces, hand) {
  const games = GAMES.filter((g) => announces.some((a) => a.split(" ")[1] === g));
  const pick = T.pick && games.includes(T.pick.game) ? T.pick : { game: games[0], schneider: false, schwarz: false, ouvert: false };
  T.pick = pick;
  const flags = ["schneider", "schwarz", "ouvert"].filter((f) => announces.some((a) => a.startsWith(`announce ${pick.game} `) && a.includes(f)));
  const text = announceText(pick, hand, announces);
  return `<div class="chooser" role="group" aria-label="${esc(t("act.chooseGame"))}">
    <div class="games">${games.map((g) => `<button data-action="pick" data-game="${g}" aria-keyshortcuts="${GAME_KEYS.indexOf(g) + 1}" aria-pressed="${g === pick.game}" class="${g === pick.game ? "on" : ""}">${esc(t(`game.${g}`))}</button>`).join("")}</div>
    ${flags.length ? `<div class="flags">${flags.map((f) => `<label><input type="checkbox" data-action="flag" data-flag="${f}" aria-keyshortcuts="${GAME_KEYS.length + FLAG_KEYS.indexOf(f) + 1}" ${pick[f] ? "checked" : ""}> ${esc(t(`ann.${f}`))}</label>`).join("")}</div>` : ""}
    <p id="preview" class="preview" aria-live="polite">${esc(T.preview || "")}</p>
    ${text ? button(t("act.announce", { game: gameText(text.split(" ").slice(1)) }), act(text), "primary", "announce") : ""}
  </div>`;
}

// The announcement for the picked game and flags: the shortest legal one
// that has every picked flag (the server lists them normalised, R3.4).
export function announceText(pick, hand, announces) {
  const want = ["schneider", "schwarz", "ouvert"].filter((f) => pick[f]);
  const found = announces
    .filter((a) => { const w = a.split(" "); return w[1] === pick.game && want.every((f) => w.includes(f)); })
    .sort((a, b) => a.split(" ").length - b.split(" ").length)[0] || null;
  if (found) updatePreview(found, hand);
  return found;
}

export let previewFor = "";
// A new pick (or the same one again) asks for its value afresh: clearing only
// the text left a re-clicked game without its preview and overbid warning.
export function forgetPreview() {
  previewFor = "";
  T.preview = "";
}
export async function updatePreview(text, hand) {
  if (previewFor === text + T.version) return;
  previewFor = text + T.version;
  const v = T.view;
  const [, game, ...flags] = text.split(" ");
  const cards = [...v.hand, ...(v.skat || [])].join(" ");
  const body = {
    game, hand: flags.includes("hand"), schneider_announced: flags.includes("schneider"),
    schwarz_announced: flags.includes("schwarz"), ouvert: flags.includes("ouvert"), bid: v.bid,
    table: T.id,  // valued under the table's own rules (a matador cap), as its sheet will be
  };
  if (game !== "null") body.cards = cards;
  try {
    const res = await fetch("/api/value", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const d = await res.json();
    if (!res.ok) { T.preview = t("preview.none"); }
    else {
      // the engine says what the unseen skat can change (engine/reckoner.py)
      const base = d.between ? t("preview.between", { low: d.between[0], high: d.between[1] }) : t("preview.value", { explanation: explain(d.parts, d.words) });
      const warn = d.short ? t("preview.short", { bid: v.bid }) : d.may_be_short ? t("preview.mayBeShort", { bid: v.bid }) : "";
      T.preview = warn ? `${base} ${warn}` : base;
    }
  } catch { T.preview = t("preview.none"); }
  const el = document.getElementById("preview");
  if (el) el.textContent = T.preview;
}

export function renderHand() {
  const el = document.getElementById("hand");
  const v = T.view;
  if (!v || T.seat === null || !v.hand || !v.hand.length) { el.innerHTML = ""; el.dataset.html = ""; el.className = "hand"; return; }
  const cards = v.hand;  // in the game's display order, from the server
  const playable = new Set(legal().filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  const discard = (v.phase === "discard" || v.phase === "push") && v.legal.some((a) => a.startsWith("discard "));
  // Schieberamsch: only the cards that may be pushed on (no jack) are chosen
  const choosable = new Set(v.legal.filter((a) => a.startsWith("discard ")).flatMap((a) => a.split(" ").slice(1)));
  if (T.armed && !playable.has(T.armed)) T.armed = null;
  const html = cards.map((c) => {
    if (discard && !choosable.has(c)) return cardHtml(c, { cls: "dim" });
    if (discard) return cardHtml(c, { action: "select", selected: T.selected.includes(c), cls: "playable" });
    if (playable.size) return cardHtml(c, { action: "play", disabled: !playable.has(c) || T.busy, cls: playable.has(c) ? "playable" : "dim", selected: T.armed === c });
    return cardHtml(c);
  }).join("");
  const skatInHand = (v.phase === "discard" || v.phase === "push") && v.skat ? `<span class="help">${esc(t("result.skatPicked"))}: ${v.skat.map(cardName).map(esc).join(", ")}</span>` : "";
  el.className = `hand${myTurn() ? " my-turn" : ""}${discard ? " choosing" : ""}`;
  const all = `<div class="row" role="group" aria-label="${esc(t("table.youAre", { name: seatName(T.seat) }))}">${html}</div>${skatInHand}`;
  // a chat line or a reaction changes nothing here: the card a keyboard
  // player is on keeps the focus (and after a change, the same card gets it)
  if (el.dataset.html === all) return;
  const focused = el.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  el.innerHTML = all;
  el.dataset.html = all;
  if (focused) el.querySelector(`button[data-card="${focused}"]:not([disabled])`)?.focus();
}

// Once per turn: a short tone and/or a vibration, if chosen in the settings.
export function notifyTurn() {
  const v = T.view;
  // the tab's title says it is your turn (issue 49, item 7), seen from another tab
  document.title = myTurn() ? t("title.yourTurn") : t("brand");
  if (!myTurn()) { T.turnKey = ""; return; }
  const key = `${T.snap.deal?.number}:${v.history.length}`;
  if (T.turnKey === key) return;
  T.turnKey = key;
  if (setting("vibrate") && navigator.vibrate) navigator.vibrate(120);
  playSound("turn");
}
