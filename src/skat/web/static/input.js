// What a person does at the table: clicks and keys.
import { FLAG_KEYS, GAME_KEYS, TABLE_KEYS, act, forgetPreview, renderBoard, renderControls, renderHand, renderTable } from "./board.js";
import { store, t } from "./common.js";
import { copyLink, downloadIss, renderSheet } from "./result.js";
import { openKeys } from "./settings.js";
import { T, send, setting } from "./state.js";

export function onTableClick(e) {
  const b = e.target.closest("[data-action]");
  if (!b || b.disabled) return;
  const a = b.dataset.action;
  // the frame shows before the table's first state (a quick click after
  // coming back from the board): what needs the table waits for it, the
  // sheet opens when it comes
  if (!T.snap && !["copy", "sheet", "keys"].includes(a)) return;
  if (a === "send") {
    const msg = JSON.parse(b.dataset.msg);
    if (msg.type === "act") {
      msg.version = T.version;
      if (msg.action.startsWith("bid") && T.view?.legal.filter((x) => x.startsWith("bid")).indexOf(msg.action) > 0) T.guardUntil = Date.now() + 800;
      T.busy = true;
      T.chooser = null;
      T.preview = "";
    }
    send(msg);
    renderControls();
  } else if (a === "higher") {
    const value = document.getElementById("higher").value;
    T.guardUntil = Date.now() + 800; // a jump bid: guard against a double click
    T.busy = true;
    send(act(`bid ${value}`));
    renderControls();
    setTimeout(renderControls, 850);
  } else if (a === "play") {
    const card = b.dataset.card;
    if (setting("tap2") && T.armed !== card) { // first tap selects, the second plays
      T.armed = card;
      renderHand();
      renderControls();
      return;
    }
    T.busy = true;
    T.armed = null;
    send(act(`play ${card}`));
    renderHand();
  } else if (a === "select") {
    const c = b.dataset.card;
    T.selected = T.selected.includes(c) ? T.selected.filter((x) => x !== c) : [...T.selected, c].slice(-2);
    renderHand();
    renderControls();
  } else if (a === "chooser") {
    T.chooser = T.chooser ? null : b.dataset.mode;
    renderControls();
  } else if (a === "pick") {
    T.pick = { game: b.dataset.game, schneider: false, schwarz: false, ouvert: false };
    forgetPreview();
    renderControls();
    renderHand();
  } else if (a === "flag") {
    T.pick[b.dataset.flag] = b.checked;
    forgetPreview();
    renderControls();
  } else if (a === "keys") {
    openKeys();
  } else if (a === "sheet") {
    T.showSheet = !T.showSheet;
    T.downloadMsg = "";
    T.dealResult = null;
    renderSheet();
  } else if (a === "deal-result") {
    // a settled deal's result over the sheet, and back to its row
    const number = b.dataset.deal ? Number(b.dataset.deal) : null;
    const back = T.dealResult;
    T.dealResult = number;
    renderSheet();
    document.querySelector(number ? "[data-testid=deal-result-close]" : `[data-testid=sheet-result-${back}]`)?.focus();
  } else if (a === "iss") {
    e.preventDefault();
    downloadIss();
  } else if (a === "last") {
    T.showLast = !T.showLast;
    renderBoard();
  } else if (a === "copy") {
    copyLink(b);
  } else if (a === "fill") {
    send({ type: "fill", creator: store.get(`skat.creator.${T.id}`) });
  } else if (a === "reclaim") {
    send({ type: "reclaim" });
  } else if (a === "leave") {
    if (!confirm(t(T.snap.table.status === "playing" ? "act.leaveConfirmBot" : "act.leaveConfirm"))) return;
    send({ type: "leave" });
    store.set(`skat.token.${T.id}`, "");
    T.seat = null;
    renderTable();
  } else if (a === "concede") {
    if (confirm(t("act.concedeConfirm"))) send(act("concede"));
  } else if (a === "claim") {
    T.claiming = true;  // the choice of what to claim opens beside the controls
    renderTable();
    document.querySelector("[data-testid=claim-game]")?.focus();  // Enter claims the game
  } else if (a === "claim-cancel") {
    T.claiming = false;
    renderTable();
  } else if (a === "hint") {
    T.hint = "…";
    send({ type: "hint" });
    renderTable();
  } else if (a === "react") {
    send({ type: "react", emoji: b.dataset.emoji });
  } else if (a === "mute") {
    const seat = Number(b.dataset.seat);
    T.muted = T.muted || new Set();
    const on = !T.muted.has(seat);
    if (on) T.muted.add(seat); else T.muted.delete(seat);
    send({ type: "mute", seat, on });
    renderTable();
  }
}

export function onHandKey(e) {
  const buttons = [...document.querySelectorAll("#hand button.card:not([disabled])")];
  const i = buttons.indexOf(document.activeElement);
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    e.preventDefault();
    const next = buttons[(i + (e.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length];
    next?.focus();
  }
}

// Keys for every decision (issue 49, item 7): each presses the button of
// that name where it shows, so a key does exactly what the button does and
// nothing the page does not offer. Typing in a field is never a key.

export function onTableKey(e) {
  if (!T || T.closed || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  const el = e.target;
  if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)) return;
  if (!document.querySelector(".table-page") || document.getElementById("keys-help")) return;
  const hand = document.getElementById("hand");
  if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && !hand.contains(document.activeElement)) {
    // the arrows reach the hand from anywhere: the first (or last) card
    const cards = [...hand.querySelectorAll("button.card:not([disabled])")];
    const card = e.key === "ArrowRight" ? cards[0] : cards[cards.length - 1];
    if (card) { e.preventDefault(); card.focus(); }
    return;
  }
  const key = e.key.toLowerCase();
  const ids = TABLE_KEYS[key] || [];
  const n = Number(key);
  const game = GAME_KEYS[n - 1];
  const flag = FLAG_KEYS[n - GAME_KEYS.length - 1];
  const where = (id) => document.querySelector(`#controls [data-testid=${id}], #result [data-testid=${id}], #board [data-testid=${id}]`);
  const target = ids.length ? ids.map(where).find((b) => b && !b.disabled)
    : game ? document.querySelector(`#controls [data-action=pick][data-game=${game}]`)
    : flag ? document.querySelector(`#controls [data-action=flag][data-flag=${flag}]`) : null;
  if (!target || target.disabled) return;
  e.preventDefault();
  target.click();
}
