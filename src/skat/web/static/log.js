// What happened at the table, in words: the moves, the hints, the deal's
// lines and the log.
import { DICTS, announce, cardName, esc, gameText, keepReading, t } from "./common.js";
import { resultHeadline } from "./result.js";
import { T, seatName } from "./state.js";

// A suggestion in the second person, naming its cards ("put SA and HT away").
export function hintText(text) {
  const [verb, ...rest] = text.split(" ");
  const push = T.view?.phase === "push" && (verb === "pass" || verb === "discard");
  const key = push ? `hint.act.push.${verb}` : `hint.act.${verb}`;
  switch (verb) {
    case "bid": return t(key, { n: rest[0] });
    case "discard": return t(key, { a: cardName(rest[0]), b: cardName(rest[1]) });
    case "announce": return t(key, { game: gameText(rest) });
    case "play": return t(key, { card: cardName(rest[0]) });
    default: return DICTS.en[key] !== undefined ? t(key) : actionText(T.seat, text);
  }
}

// The history entries of a Schieberamsch deal that are pushes: after the
// auction's three passes (none in a Ramsch round), before the first card.
// An earlier deal (`past` of the snapshot, or one the log keeps) says
// itself whether it was a Ramsch round.
export function pushIndexes(v) {
  const out = new Set();
  if (!T.snap?.table?.options?.schieberamsch || v?.contract?.game !== "ramsch") return out;
  let i = (v.ramsch_round ?? T.snap.deal?.ramsch_round) ? 0 : v.history.findIndex((_, k) => v.history.slice(0, k + 1).filter(([, a]) => a === "pass").length === 3) + 1;
  for (; i < v.history.length && !v.history[i][1].startsWith("play "); i++) out.add(i);
  return out;
}

// A claim or a concession read in its deal (R6.6; issue 26, point 4): what
// it offers, who answered and how, from the view's history alone. The
// engine decides when the deal ends; these words only follow the moves.
export function claimWords(v, i) {
  const [seat, text] = v.history[i];
  const name = seatName(seat);
  const before = v.history.slice(0, i);
  const defender = seat !== v.declarer;
  if (text.startsWith("claim")) return t("log.claimOpen", { name, level: claimLevel(text) });
  if (text === "refuse") {
    const claimed = before.some(([, a]) => a.startsWith("claim")) && !before.some(([, a]) => a === "refuse");
    return t(claimed ? "log.refuseClaim" : "log.partnerPlaysOn", { name });
  }
  if (text === "concede") {
    if (!defender) return t("log.concedeDeclarer", { name });
    const ended = v.result && i === v.history.length - 1;
    if (before.some(([s, a]) => a === "concede" && s !== seat && s !== v.declarer)) return t("log.concedeToo", { name });
    if (ended) return t("log.concedeDone", { name });
    const claimed = before.some(([, a]) => a.startsWith("claim")) && !before.some(([, a]) => a === "refuse");
    return t(claimed ? "log.concedeClaim" : "log.concedeAsk", { name });
  }
  // the partner's first card after a defender gave up: no, it plays on
  if (text.startsWith("play ") && defender) {
    const gaveUp = before.map(([s, a]) => (a === "concede" && s !== seat && s !== v.declarer ? 1 : 0)).lastIndexOf(1);
    if (gaveUp >= 0 && !before.slice(gaveUp + 1).some(([s, a]) => s === seat && (a.startsWith("play ") || a === "refuse"))) {
      return `${actionText(seat, text)} ${t("log.partnerPlaysOn", { name })}`;
    }
  }
  // the first card a defender plays after a claim: the claim is not accepted
  if (text.startsWith("play ") && defender) {
    const at = before.findIndex(([, a]) => a.startsWith("claim"));
    if (at >= 0 && !before.slice(at + 1).some(([s, a]) => (a.startsWith("play ") && s !== v.declarer) || a === "refuse")) {
      return `${actionText(seat, text)} ${t("log.playsOn", { name })}`;
    }
  }
  return null;
}

// "claim schneider" -> "Schneider" (R6.6); a plain claim claims the game
export function claimLevel(text) {
  return t(`claim.level.${text.split(" ")[1] || "game"}`);
}

export function actionText(seat, text, push = false, nameOf = seatName) {
  const name = nameOf(seat);
  const [verb, ...rest] = text.split(" ");
  if (push && (verb === "pass" || verb === "pickup" || verb === "discard")) return t(`log.push.${verb}`, { name });
  switch (verb) {
    case "bid": return t("log.bid", { name, n: rest[0] });
    case "hold": return t("log.hold", { name });
    case "pass": return t("log.pass", { name });
    case "pickup": return t("log.pickup", { name });
    case "discard": return t("log.discard", { name });
    case "announce": return t("log.announce", { name, game: gameText(rest.length ? rest : T.view?.contract?.words || []) });
    case "play": return t("log.play", { name, card: cardName(rest[0]) });
    case "claim": return t("log.claim", { name, level: claimLevel(text) });
    case "kontra": case "no_kontra": case "re": case "no_re": case "concede": case "refuse": case "timeout": case "leave":
      return t(`log.${verb}`, { name });
    default: return `${name}: ${text}`;
  }
}


// The log of one deal, rebuilt from its view's history (so it survives a
// reload): each move, and after every trick who took it. Lines are
// functions: the log is worded again after a language change.
export function dealLines(v, number) {
  const lines = [];
  if (number) lines.push({ cls: "deal", text: () => t("table.deal", { n: number, of: T.snap?.deal?.of ?? "?" }) });
  // a trick's line follows the card that completed it: the engine's tricks,
  // in order, matched by their last card (no counting of plays here)
  let next = 0;
  const pushes = pushIndexes(v);
  for (const [i, [seat, text]] of v.history.entries()) {
    lines.push({ text: () => claimWords(v, i) ?? actionText(seat, text, pushes.has(i)) });
    const tr = v.tricks[next];
    if (tr && text === `play ${tr.cards[tr.cards.length - 1]}`) {
      next += 1;
      lines.push({ cls: "won", text: () => t("log.trick", { name: seatName(tr.winner), p: tr.points }) });
    }
  }
  if (v.result) lines.push({ cls: "result", text: () => resultHeadline(v.result) });
  return lines;
}

export function noteEvent(ev) {
  let line = null;
  if (ev.kind === "act") {
    const v = T.view;
    const last = v ? v.history.length - 1 : -1;
    line = (last >= 0 && claimWords(v, last)) || actionText(ev.seat, ev.action, v ? pushIndexes(v).has(last) : false);
  }
  else if (ev.kind === "sit") { line = t("log.sit", { name: ev.name }); T.logOld.push({ text: () => t("log.sit", { name: ev.name }) }); }
  else if (ev.kind === "takeover") { line = t("log.takeover", { name: ev.name }); T.logOld.push({ text: () => t("log.takeover", { name: ev.name }) }); }
  if (!line) return;
  const v = T.view;
  if (ev.kind === "act" && ev.action.startsWith("play") && v && v.trick.length === 0 && v.tricks.length) {
    const last = v.tricks[v.tricks.length - 1];
    line += " " + t("log.trick", { name: seatName(last.winner), p: last.points });
  }
  if (v && v.result && ev.kind === "act") line += " " + resultHeadline(v.result);
  announce(line);
}

export function renderLog() {
  const el = document.getElementById("log");
  const lines = [...T.logOld, ...(T.view ? dealLines(T.view, T.logDeal) : [])].slice(-80);
  const html = lines.map((l) => `<p class="${l.cls || ""}">${esc(l.text())}</p>`).join("");
  if (el.dataset.html === html) return;
  const back = keepReading(el);
  el.innerHTML = html;
  el.dataset.html = html;
  back();
}
