// The browser client: plain ES modules, no build step. The server decides
// what is legal; this page only shows what it is told (view.legal).
import en from "./i18n_en.js";
import de from "./i18n_de.js";
import da from "./i18n_da.js";
import rulesEn from "./rules_en.js";
import rulesDe from "./rules_de.js";
import rulesDa from "./rules_da.js";
import { backSvg, cardSvg, rankLabel, suitColour, suitSymbol } from "./cards.js";

const DICTS = { en, de, da };
const RULES = { en: rulesEn, de: rulesDe, da: rulesDa };
const RULE_PAGES = ["howto", "tournament", "plain", "ramsch", "kontra", "bock", "four"];
const GAMES = ["diamonds", "hearts", "spades", "clubs", "grand", "null"];
const REACTIONS = ["👍", "👏", "😄", "😮", "😢", "🤔"];

// ------------------------------------------------------------------ i18n
const store = {
  get(k, d = null) {
    try { return localStorage.getItem(k) ?? d; } catch { return d; }
  },
  set(k, v) {
    try { localStorage.setItem(k, v); } catch { /* private mode */ }
  },
};

function initialLang() {
  const saved = store.get("skat.lang");
  if (saved && DICTS[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = (l || "").slice(0, 2).toLowerCase();
    if (DICTS[code]) return code;
  }
  return "en";
}

let lang = initialLang();
let deck = store.get("skat.deck", "four");

export function t(key, params = {}) {
  const s = DICTS[lang][key] ?? DICTS.en[key];
  if (s === undefined) return `⟦${key}⟧`; // visible in tests: a missing key
  return s.replace(/\{(\w+)\}/g, (_, k) => (params[k] ?? `{${k}}`));
}

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function cardName(card) {
  return t("card.name", { rank: t(`card.${card[1]}`), suit: t(`card.${card[0]}`) });
}

function cardHtml(card, { cls = "", action = "", disabled = false, selected = false } = {}) {
  const label = esc(cardName(card));
  const attrs = action
    ? `data-action="${action}" data-card="${card}" ${disabled ? "disabled aria-disabled=\"true\"" : ""}`
    : `data-card="${card}" role="img"`;
  const tag = action ? "button" : "span";
  return `<${tag} class="card ${cls} ${selected ? "selected" : ""}" ${attrs} aria-label="${label}" title="${label}">${cardSvg(card, { deck, lang })}</${tag}>`;
}

function cardsRow(cards, cls = "") {
  return `<span class="cards ${cls}">${cards.map((c) => cardHtml(c)).join("")}</span>`;
}

let announceTimer = 0;
function announce(text) {
  const el = document.getElementById("announce");
  el.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { el.textContent = text; }, 30);
}

function applyStaticTexts() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  const sel = document.getElementById("lang");
  sel.value = lang;
  sel.setAttribute("aria-label", t("nav.language"));
  document.title = t("brand");
}

// ----------------------------------------------------------------- router
const app = document.getElementById("app");

async function route() {
  await optionsReady; // the options form and the rules line are built from them
  const path = location.pathname;
  closeSocketUnless(path);
  applyStaticTexts();
  let m;
  if ((m = path.match(/^\/t\/([\w-]+)$/))) return tablePage(m[1]);
  if (path === "/calculator") return calculatorPage();
  if (path === "/rules") return rulesPage("howto", true);
  if ((m = path.match(/^\/rules\/(\w+)$/)) && RULE_PAGES.includes(m[1])) return rulesPage(m[1], false);
  return homePage();
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[href^='/']");
  if (a && !e.defaultPrevented && !a.hasAttribute("download") && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    go(a.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);
document.getElementById("lang").addEventListener("change", (e) => {
  lang = e.target.value;
  store.set("skat.lang", lang);
  clearTimeout(announceTimer); // a line in the old language is not read out any more
  document.getElementById("announce").textContent = "";
  route();
});

// ------------------------------------------------------------------- home
// The options form and a table's rules line come from the server's
// declaration of the options (GET /api/options; skat/series/spec.py and
// skat/server/offer.py): their kinds, values, defaults and words.
let OPTIONS = null; // the options, in the form's order
const optionsReady = fetch("/api/options")
  .then((r) => r.json())
  .then((d) => { OPTIONS = d.options; })
  .catch(() => { OPTIONS = []; });

function words(o) {
  return o.words[lang] ?? o.words.en;
}

function valueWord(o, v) {
  if (o.kind === "switch") return t(v ? "opt.on" : "opt.off");
  return words(o).values[String(v)] ?? String(v);
}

function optionControl(o, value, prefix) {
  const id = `${prefix}-${o.name}`;
  if (o.kind === "count") {
    return `<input id="${id}" name="${o.name}" type="number" min="${o.low}" max="${o.high ?? ""}" value="${esc(value ?? "")}">`;
  }
  const values = o.kind === "switch" ? [false, true] : o.choices;
  const code = (v) => (o.kind === "switch" ? (v ? "1" : "0") : String(v));
  return `<select id="${id}" name="${o.name}">${values
    .map((v) => `<option value="${code(v)}" ${v === value ? "selected" : ""}>${esc(valueWord(o, v))}</option>`)
    .join("")}</select>`;
}

function optionRow(o, value = o.default, prefix = "o") {
  const w = words(o);
  return `<div class="opt" data-option="${o.name}"${o.needs ? ` data-needs="${o.needs}"` : ""}><label for="${prefix}-${o.name}">${esc(w.label)}</label>${optionControl(o, value, prefix)}
    <p class="help">${esc(w.help)}${o.more ? ` <a href="/rules/${o.more}">${esc(t("home.more"))}</a>` : ""}</p></div>`;
}

// What this browser chose last time (the Play button's level and hints,
// the options form), kept only where it is still one of the option's values.
function remembered(key) {
  let saved = {};
  try { saved = JSON.parse(store.get(key, "{}")) || {}; } catch { saved = {}; }
  const out = {};
  for (const o of OPTIONS) {
    const v = saved[o.name];
    if (v === undefined) continue;
    const ok = o.kind === "switch" ? typeof v === "boolean"
      : o.kind === "count" ? Number.isInteger(v) && v >= o.low && (o.high === null || v <= o.high)
      : o.kind === "choice" ? o.choices.includes(v) : false;
    if (ok) out[o.name] = v;
  }
  return out;
}

// An option under a switch (Kontra until, under Kontra) shows only while the switch is on.
function showNeeded(form) {
  for (const row of form.querySelectorAll(".opt[data-needs]")) {
    const on = form.querySelector(`[name=${row.dataset.needs}]`);
    row.hidden = !!on && on.value !== "1";
  }
}

// The creation body of the form: each value as its kind, an option under
// a switch that is off (ramsch_after_bock without Bock) at its default.
function formOptions(f) {
  const out = {};
  const shown = OPTIONS.filter((o) => o.form);
  for (const o of shown) {
    const raw = f.get(o.name);
    let v;
    if (o.kind === "switch") v = raw === "1";
    else if (o.kind === "count") v = Math.max(o.low, Math.min(o.high ?? Infinity, Math.round(Number(raw)) || o.default));
    else v = o.choices.find((c) => String(c) === raw) ?? o.default;
    out[o.name] = v;
  }
  for (const o of shown) {
    if (o.needs && out[o.needs] === false) out[o.name] = o.default;
  }
  return out;
}

async function homePage() {
  await optionsReady;
  const name = store.get("skat.name", "");
  const played = remembered("skat.play");
  const chosen = remembered("skat.options");
  const quick = OPTIONS.filter((o) => o.name === "level" || o.name === "hint");
  app.innerHTML = `
  <section class="home">
    <h1>${esc(t("home.title"))}</h1>
    <p class="lead">${esc(t("home.lead"))}</p>
    <form id="play-form" class="play-form">
      <label for="name">${esc(t("home.name"))}</label>
      <input id="name" name="name" maxlength="24" autocomplete="nickname" placeholder="${esc(t("home.namePlaceholder"))}" value="${esc(name)}">
      <div class="quick">${quick.map((o) => optionRow(o, played[o.name] ?? o.default, "p")).join("")}</div>
      <button class="primary big" type="submit" data-testid="play">${esc(t("home.play"))}</button>
      <p class="help">${esc(t("home.playHint"))}</p>
      <p class="error" id="home-error" role="alert"></p>
    </form>
    <details class="options">
      <summary>${esc(t("home.options"))}</summary>
      <form id="options-form">
        ${OPTIONS.filter((o) => o.form).map((o) => optionRow(o, chosen[o.name] ?? o.default)).join("\n        ")}
        <button class="primary" type="submit" data-testid="create">${esc(t("home.create"))}</button>
      </form>
    </details>
  </section>`;
  const readName = () => {
    const n = document.getElementById("name").value.trim();
    if (!n) {
      document.getElementById("home-error").textContent = t("home.needName");
      document.getElementById("name").focus();
      return null;
    }
    store.set("skat.name", n);
    return n;
  };
  const optionsForm = document.getElementById("options-form");
  showNeeded(optionsForm);
  optionsForm.addEventListener("change", () => showNeeded(optionsForm));
  document.getElementById("play-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = readName();
    if (!n) return;
    const f = new FormData(e.target);
    const opts = { level: f.get("level"), hint: f.get("hint") === "1" };
    store.set("skat.play", JSON.stringify(opts));
    await createTable({ rounds: 12, ...opts }, true);
  });
  optionsForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = readName();
    if (!n) return;
    const opts = formOptions(new FormData(e.target));
    store.set("skat.options", JSON.stringify(opts));
    await createTable(opts, false);
  });
}

async function createTable(opts, autofill) {
  const res = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts) });
  const data = await res.json();
  if (!res.ok) {
    document.getElementById("home-error").textContent = data.error?.message || "error";
    return;
  }
  store.set(`skat.creator.${data.id}`, data.creator);
  store.set(`skat.join.${data.id}`, autofill ? "fill" : "sit");
  go(`/t/${data.id}`);
}

// ------------------------------------------------------------------ table
// The table page. How a trick is shown (docs/architecture.md, "The browser
// client"): every card lies in front of the player who played it; a
// finished trick stays on the table until its winner leads the next one,
// and at least HOLD_MS even when the next card comes sooner, then it is
// collected toward the winner. Nothing here decides a rule: the cards, the
// winner and the points come with the view.
const HOLD_MS = 1500;
const COLLECT_MS = 450;
const REACTION_WORDS = { "👍": "good", "👏": "bravo", "😄": "laugh", "😮": "wow", "😢": "sad", "🤔": "hmm" };
const SETTINGS = ["tap2", "sound", "vibrate"];
let T = null; // the table page's state

function setting(key) {
  return store.get(`skat.set.${key}`, "0") === "1";
}

function closeSocketUnless(path) {
  if (T && path !== `/t/${T.id}`) {
    T.closed = true;
    if (T.ws) T.ws.close();
    clearInterval(T.tick);
    clearInterval(T.watch);
    clearTimeout(T.holdTimer);
    T = null;
  }
}

function tablePage(id) {
  if (T && T.id === id) {
    if (T.lang !== lang) tableFrame(id); // the frame's texts are in the old language
    renderTable();
    return;
  }
  T = {
    id, ws: null, version: null, seat: null, pending: null, snap: null, view: null, chat: [],
    logOld: [], logDeal: null, selected: [], armed: null, busy: false, showSheet: false, showLast: false,
    closed: false, retry: 0, openedAt: 0, heardAt: 0, pingAt: 0, chooser: null, guardUntil: 0, turnSince: Date.now(), connected: false,
    error: "", hold: null, collecting: null, seen: new Set(), lastFinished: "", turnKey: "", copyMsg: "",
  };
  tableFrame(id);
  T.tick = setInterval(renderTimer, 1000);
  T.watch = setInterval(watchSocket, 500);
  connect();
}

function reactionIcon(emoji) {
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

function reactionLabel(emoji) {
  return t(`react.${REACTION_WORDS[emoji] || "hmm"}`);
}

function tableFrame(id) {
  T.lang = lang;
  app.innerHTML = `
  <section class="table-page" data-testid="table">
    <div class="bar">
      <div class="share"><span id="share-label">${esc(t("table.share"))}</span>
        <input id="share" readonly value="${esc(location.origin + "/t/" + id)}" aria-labelledby="share-label">
        <button data-action="copy" data-testid="copy">${esc(t("table.copy"))}</button>
        <span id="copy-msg" class="help" role="status"></span></div>
      <div class="tools">
        <label>${esc(t("deck.label"))} <select id="deck"><option value="four">${esc(t("deck.four"))}</option><option value="two">${esc(t("deck.two"))}</option></select></label>
        <details class="settings"><summary>${esc(t("set.title"))}</summary><div class="settings-box">
          ${SETTINGS.map((k) => `<label><input type="checkbox" data-action="setting" data-key="${k}" ${setting(k) ? "checked" : ""}> ${esc(t(`set.${k}`))}</label>`).join("")}
        </div></details>
        <button data-action="sheet" data-testid="sheet-button">${esc(t("act.sheet"))}</button>
        <button data-action="leave" data-testid="leave" hidden>${esc(t("act.leave"))}</button>
      </div>
    </div>
    <p id="status" class="status" role="status"></p>
    <details id="table-rules" class="table-rules" data-testid="table-rules"><summary></summary><p></p></details>
    <div id="join"></div>
    <div id="board" class="board"></div>
    <div id="controls" class="controls" aria-label="${esc(t("act.chooseGame"))}"></div>
    <div id="hand" class="hand"></div>
    <div id="result"></div>
    <div class="lower">
      <div><h2 class="small-title">${esc(t("log.title"))}</h2><div id="log" class="log" data-testid="log" tabindex="0" aria-label="${esc(t("log.title"))}"></div></div>
      <div class="chat">
        <h2 class="small-title">${esc(t("chat.title"))}</h2>
        <div id="chat-list" class="chat-list"></div>
        <form id="chat-form"><input id="chat-input" maxlength="200" placeholder="${esc(t("chat.placeholder"))}" aria-label="${esc(t("chat.title"))}">
          <button type="submit">${esc(t("chat.send"))}</button></form>
        <div class="reactions" aria-label="${esc(t("chat.react"))}">${REACTIONS.map((r) => `<button data-action="react" data-emoji="${r}" aria-label="${esc(reactionLabel(r))}">${reactionIcon(r)}<span>${esc(reactionLabel(r))}</span></button>`).join("")}</div>
      </div>
    </div>
    <div id="sheet"></div>
  </section>`;
  document.getElementById("deck").value = deck;
  document.getElementById("deck").addEventListener("change", (e) => { deck = e.target.value; store.set("skat.deck", deck); renderTable(); });
  document.getElementById("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("chat-input");
    if (input.value.trim()) send({ type: "chat", text: input.value });
    input.value = "";
  });
  app.querySelector(".table-page").addEventListener("click", onTableClick);
  document.getElementById("hand").addEventListener("keydown", onHandKey);
}

// A server process that hangs (stopped, swapped out) keeps its socket
// accepting: nothing ever closes the connection. So the page pings when the
// server has been quiet for a while and reconnects when no answer comes
// (through the proxy, which then sends it to another server process).
const PING_AFTER_MS = 2000; // quiet that long: ping
const PONG_WITHIN_MS = 2500; // no message that long after the ping: reconnect
const OPEN_WITHIN_MS = 8000; // a handshake unanswered that long: try again

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${T.id}`);
  T.ws = ws;
  T.openedAt = T.heardAt = Date.now();
  T.pingAt = 0;
  ws.onopen = () => {
    T.retry = 0;
    T.connected = true;
    T.heardAt = Date.now();
    const token = store.get(`skat.token.${T.id}`);
    send({ type: "hello", token: token || null, last_version: T.version });
  };
  ws.onmessage = (e) => {
    T.heardAt = Date.now();
    T.pingAt = 0;
    onMessage(JSON.parse(e.data));
  };
  ws.onclose = (e) => {
    T && (T.connected = false);
    if (!T || T.closed) return;
    reconnect(e.code);
  };
}

function reconnect(code) {
  if (code === 4503) {
    // another server process serves the table now: go there at once
    // (the proxy sends us; a little jitter spreads the table's clients)
    setStatus(t("conn.moved"));
    setTimeout(() => T && !T.closed && connect(), 200 + Math.random() * 400);
    return;
  }
  setStatus(t("conn.lost"));
  T.retry = Math.min(T.retry + 1, 4);
  setTimeout(() => T && !T.closed && connect(), 300 * 2 ** T.retry);
}

function watchSocket() {
  const ws = T && T.ws;
  if (!ws || T.closed) return;
  const now = Date.now();
  if (ws.readyState === WebSocket.CONNECTING) {
    if (now - T.openedAt > OPEN_WITHIN_MS) abandon(ws);
  } else if (ws.readyState === WebSocket.OPEN) {
    if (T.pingAt) {
      if (now - T.pingAt > PONG_WITHIN_MS) abandon(ws);
    } else if (now - T.heardAt > PING_AFTER_MS) {
      T.pingAt = now;
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }
}

function abandon(ws) {
  // its close handshake would wait for the silent server: reconnect now
  ws.onopen = ws.onmessage = ws.onclose = null;
  ws.close();
  T.connected = false;
  reconnect(0);
}

function send(msg) {
  if (T && T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
}

function setStatus(text) {
  const el = document.getElementById("status");
  if (el) el.textContent = text;
}

function onMessage(m) {
  if (!T) return;
  switch (m.type) {
    case "welcome":
      T.seat = m.seat;
      T.pending = m.pending ?? null;
      setStatus(t("conn.back"));
      break;
    case "seated":
      store.set(`skat.token.${T.id}`, m.token);
      if (m.from_next_deal) T.pending = m.seat;
      else T.seat = m.seat;
      if (store.get(`skat.join.${T.id}`) === "fill") {
        store.set(`skat.join.${T.id}`, "done");
        send({ type: "fill", creator: store.get(`skat.creator.${T.id}`) });
      }
      break;
    case "state":
      newState(m);
      T.chat = m.chat || [];
      T.busy = false;
      autoJoin();
      renderTable();
      break;
    case "presence":
      if (T.snap) { T.snap.seats = m.seats; renderBoard(); }
      break;
    case "event":
      onEvent(m);
      break;
    case "hint":
      T.hint = m.action;  // shown beside the controls until the game moves on
      T.hintQuick = !!m.fallback;  // the strong player had no time: a quick one, said so
      renderTable();
      break;
    case "error":
      if (m.code === "TABLE_MOVED") return;  // the close that follows reconnects
      if (T.hint === "…") T.hint = null;
      T.busy = false;
      T.error = errorText(m.code);
      if (m.code === "NO_TABLE") { app.innerHTML = `<p class="status">${esc(t("table.gone"))}</p>`; T.closed = true; return; }
      renderTable();
      break;
    default:
      break;
  }
}

// A full state: the seat may have changed hands (a takeover at the next
// deal), and a new deal moves the old one's lines into the log's past.
function newState(m) {
  const before = T.view;
  if (m.you !== undefined) T.seat = m.you;
  if (T.seat !== null) T.pending = null;
  const number = m.deal?.number ?? null;
  if (T.logDeal !== null && number !== T.logDeal && before) {
    T.logOld.push(...dealLines(before, T.logDeal));
    T.logOld = T.logOld.slice(-80);
  }
  T.logDeal = number;
  T.snap = m;
  setView(m.view || null, before);
  T.version = m.version;
}

// A new view: note a trick that was just completed, so that it stays on
// the table for a moment even if the next card follows at once.
function setView(v, before) {
  T.view = v;
  if (T.snap) T.snap.view = v;
  if (v && before && v.tricks.length > before.tricks.length && v.tricks.length) {
    const last = v.tricks[v.tricks.length - 1];
    T.hold = { trick: last, until: Date.now() + HOLD_MS, key: trickKey(v, v.tricks.length - 1) };
    clearTimeout(T.holdTimer);
    T.holdTimer = setTimeout(() => T && renderBoard(), HOLD_MS + 20);
  }
}

function autoJoin() {
  const join = store.get(`skat.join.${T.id}`);
  if (T.seat === null && (join === "fill" || join === "sit") && T.snap.table.status === "open") {
    const name = store.get("skat.name", "");
    if (name) {
      send({ type: "sit", name });
      if (join === "sit") store.set(`skat.join.${T.id}`, "done");
    }
  }
}

function seatName(seat) {
  const s = T.snap?.seats?.[seat];
  return s?.name ? s.name : t("table.free");
}

function onEvent(m) {
  if (m.replayed) return; // the full state that follows holds the deal's history: the log is rebuilt from it
  const before = T.view;
  T.version = m.version;
  if (m.state) newState(m.state);
  else if (m.view) setView(m.view, before);
  if (m.seats && T.snap) T.snap.seats = m.seats;
  if (T.snap) T.snap.version = m.version;
  const kind = m.event.kind;
  if (kind === "chat" || kind === "react") T.chat.push({ ...m.event, version: m.version });
  if (kind === "act" || kind === "next") {
    T.hint = null;
    T.turnSince = Date.now();
    T.selected = T.view?.phase === "discard" || T.view?.phase === "push" ? T.selected : [];
    T.armed = null;
  }
  if (kind === "again" && m.event.table) {
    if (T.snap) T.snap.table.next_table = m.event.table;
    follow(m.event.table);
    return;
  }
  T.busy = false;
  T.error = "";
  noteEvent(m.event);
  renderTable();
}

// Everyone at the table goes on to the new list; the seat token carries over.
function follow(next) {
  const token = store.get(`skat.token.${T.id}`);
  if (token) store.set(`skat.token.${next}`, token);
  go(`/t/${next}`);
}

// A suggestion in the second person, naming its cards ("put SA and HT away").
function hintText(text) {
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
function pushIndexes(v) {
  const out = new Set();
  if (!T.snap?.table?.options?.schieberamsch || v?.contract?.game !== "ramsch") return out;
  let i = T.snap.deal?.ramsch_round ? 0 : v.history.findIndex((_, k) => v.history.slice(0, k + 1).filter(([, a]) => a === "pass").length === 3) + 1;
  for (; i < v.history.length && !v.history[i][1].startsWith("play "); i++) out.add(i);
  return out;
}

function actionText(seat, text, push = false) {
  const name = seatName(seat);
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
    case "kontra": case "no_kontra": case "re": case "no_re": case "concede": case "claim": case "timeout": case "leave":
      return t(`log.${verb}`, { name });
    default: return `${name}: ${text}`;
  }
}

// A game's name from the keys the server sends (the contract's `words`,
// or the words of an announcement): no rules here, only words.
function gameText(words) {
  const [game, ...flags] = words;
  return [t(`game.${game}`), ...flags.map((f) => t(`ann.${f}`))].join(" ");
}

// The log of one deal, rebuilt from its view's history (so it survives a
// reload): each move, and after every trick who took it. Lines are
// functions: the log is worded again after a language change.
function dealLines(v, number) {
  const lines = [];
  if (number) lines.push({ cls: "deal", text: () => t("table.deal", { n: number, of: T.snap?.deal?.of ?? "?" }) });
  // a trick's line follows the card that completed it: the engine's tricks,
  // in order, matched by their last card (no counting of plays here)
  let next = 0;
  const pushes = pushIndexes(v);
  for (const [i, [seat, text]] of v.history.entries()) {
    lines.push({ text: () => actionText(seat, text, pushes.has(i)) });
    const tr = v.tricks[next];
    if (tr && text === `play ${tr.cards[tr.cards.length - 1]}`) {
      next += 1;
      lines.push({ cls: "won", text: () => t("log.trick", { name: seatName(tr.winner), p: tr.points }) });
    }
  }
  if (v.result) lines.push({ cls: "result", text: () => resultHeadline(v.result) });
  return lines;
}

function noteEvent(ev) {
  let line = null;
  if (ev.kind === "act") line = actionText(ev.seat, ev.action, T.view ? pushIndexes(T.view).has(T.view.history.length - 1) : false);
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

function renderLog() {
  const el = document.getElementById("log");
  const lines = [...T.logOld, ...(T.view ? dealLines(T.view, T.logDeal) : [])].slice(-80);
  el.innerHTML = lines.map((l) => `<p class="${l.cls || ""}">${esc(l.text())}</p>`).join("");
  el.scrollTop = el.scrollHeight; // the newest line is in sight
}

// Relative places on screen: me at the bottom, the next player on the left
// (spectators see seat 0 at the bottom).
function places() {
  const n = T.snap.table.options.players;
  const me = T.seat ?? T.pending ?? 0;
  const names = n === 3 ? ["left", "right"] : ["left", "top", "right"];
  const out = { [me]: "bottom" };
  for (let i = 1; i < n; i++) out[(me + i) % n] = names[i - 1];
  return out;
}

function myTurn() {
  const v = T.view;
  return !!(v && T.seat !== null && v.turn === T.seat && v.phase !== "done" && v.legal.length);
}

function renderTable() {
  if (!T || !T.snap) return;
  const snap = T.snap;
  const v = T.view;
  const status = [];
  if (snap.table.status === "expired") status.push(t("table.expired"));
  if (snap.deal) status.push(t("table.deal", { n: snap.deal.number, of: snap.deal.of }));
  if (snap.deal?.bock_factor > 1) status.push(t("table.bockDeal"));
  if (snap.deal?.ramsch_round) status.push(t("table.ramschRound"));
  if (v && v.turn !== null && v.phase !== "done") status.push(v.turn === T.seat ? t("table.yourTurn") : t("table.turn", { name: seatName(v.turn) }));
  const coming = bockToCome(snap.deal?.pending_bock);
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

// "3 Bock deals, then 3 Ramsch deals to come", from the server's list of the
// coming deals (`pending_bock`: "bock"/"ramsch" per deal, or "bock xF").
function bockToCome(pending) {
  if (!pending || !pending.length) return "";
  const bock = pending.filter((p) => p.startsWith("bock")).length;
  const ramsch = pending.filter((p) => p === "ramsch").length;
  const bits = [];
  if (bock) bits.push(t("bock.deals", { n: bock }));
  if (ramsch) bits.push(t("bock.ramsch", { n: ramsch }));
  return t("bock.toCome", { what: bits.join(", ") });
}

// A table's rules, from the declared options: each option with its value
// (those under a switch in brackets after it, and only when it is on); the
// list's options not on the form only where they differ from the default.
function rulesItems(o, st) {
  const values = { ...o, ...st };
  const items = [];
  const differs = (x) => JSON.stringify(x.kind === "set" ? [...values[x.name]].sort() : values[x.name]) !== JSON.stringify(x.default);
  for (const x of OPTIONS ?? []) {
    if (x.needs || x.name === "rounds" || x.name === "deals" || x.name === "first_dealer") continue;
    if (values[x.name] === undefined || values[x.name] === null || (!x.form && !differs(x))) continue;
    const under = OPTIONS.filter((y) => y.needs === x.name && values[x.name] === true && values[y.name] !== undefined && (y.form || differs(y)))
      .map((y) => (y.kind === "switch" ? (values[y.name] ? words(y).label : "") : `${words(y).label} ${valueText(y, values[y.name])}`))
      .filter(Boolean);
    items.push(`${words(x).label}: ${valueText(x, values[x.name])}${under.length ? ` (${under.join(", ")})` : ""}`);
  }
  return items;
}

function valueText(x, v) {
  return x.kind === "set" ? [...v].map((e) => valueWord(x, e)).join(", ") : valueWord(x, v);
}

function renderRules() {
  const el = document.getElementById("table-rules");
  const o = T.snap.table.options;
  const st = T.snap.table.settings;
  const items = [t("table.roundsLine", { r: Math.round(o.deals / o.players), n: o.deals }), ...rulesItems(o, st)];
  if (!st.level) items.push(`${t("table.computer")}: ${st.bot}`); // a player by name (the API's "bot")
  // the summary: the list's choices and the switches that are on
  const brief = (OPTIONS ?? [])
    .filter((x) => x.where === "list" && x.form && !x.needs && x.name !== "players")
    .map((x) => (x.kind === "switch" ? (o[x.name] ? words(x).label : "") : valueWord(x, o[x.name])))
    .filter(Boolean);
  el.querySelector("summary").textContent = `${t("table.rules")}: ${brief.join(" · ")}`;
  el.querySelector("p").textContent = items.join(" · ");
}

function botSeats() {
  return T.snap.seats.map((s, i) => [s, i]).filter(([s]) => s.bot && !s.human && !s.pending).map(([, i]) => i);
}

function renderJoin() {
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
      send(seat !== undefined ? { type: "sit", name, seat: Number(seat) } : { type: "sit", name });
    });
  }
  const share = document.getElementById("share-label");
  if (share) share.textContent = t(free || bots.length ? "table.share" : "table.shareWatch");
}

function seatBox(seat, place) {
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
  if (s.bot) bits.push(t("table.computer") + (s.level ? ` (${t(`table.level.${s.level}`)})` : ""));
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

function trickKey(v, i) {
  return `${T.snap?.deal?.number}:${i}`;
}

// The cards of a finished trick as [seat, card] in the order played.
function trickPairs(v, tr) {
  const start = v.seats.indexOf(tr.leader);
  return tr.cards.map((card, i) => [v.seats[(start + i) % 3], card]);
}

// What lies on the table now: the trick in play, or the finished one (kept
// until its winner leads again, and at least HOLD_MS).
function tableTrick(v) {
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

function renderBoard() {
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
      ${v.tricks.length ? `<button class="mini" data-action="last" data-testid="last-trick" aria-pressed="${T.showLast}" aria-controls="last-trick">${esc(t("act.lastTrick"))}</button>` : ""}`;
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

function legal() {
  return T.view && T.view.turn !== null ? T.view.legal : [];
}

function button(label, msg, cls = "", testid = "") {
  return `<button class="${cls}" data-action="send" data-msg='${esc(JSON.stringify(msg))}' ${T.busy || Date.now() < T.guardUntil ? "disabled" : ""} ${testid ? `data-testid="${testid}"` : ""}>${esc(label)}</button>`;
}

function act(text) {
  return { type: "act", action: text, version: T.version };
}

function renderControls() {
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
      html += `<button data-action="chooser" data-mode="hand" data-testid="hand">${esc(t("act.hand"))}</button>`;
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
  if (v && v.offers && v.offers.includes("claim")) {
    // R6.6: the declarer shows his cards; the defenders may give up or play on
    html += `<button class="mini" data-action="claim" data-testid="claim">${esc(t("act.claim"))}</button>`;
  }
  if (v && v.offers && v.offers.includes("concede")) {
    html += `<button class="mini quiet" data-action="concede" data-testid="concede">${esc(t("act.concede"))}</button>`;
  }
  if (el.dataset.html !== html) { el.innerHTML = html; el.dataset.html = html; }
  if (T.chooser && T.preview) document.getElementById("preview")?.replaceChildren(document.createTextNode(T.preview));
}

function chooser(announces, hand) {
  const games = GAMES.filter((g) => announces.some((a) => a.split(" ")[1] === g));
  const pick = T.pick && games.includes(T.pick.game) ? T.pick : { game: games[0], schneider: false, schwarz: false, ouvert: false };
  T.pick = pick;
  const flags = ["schneider", "schwarz", "ouvert"].filter((f) => announces.some((a) => a.startsWith(`announce ${pick.game} `) && a.includes(f)));
  const text = announceText(pick, hand, announces);
  return `<div class="chooser" role="group" aria-label="${esc(t("act.chooseGame"))}">
    <div class="games">${games.map((g) => `<button data-action="pick" data-game="${g}" aria-pressed="${g === pick.game}" class="${g === pick.game ? "on" : ""}">${esc(t(`game.${g}`))}</button>`).join("")}</div>
    ${flags.length ? `<div class="flags">${flags.map((f) => `<label><input type="checkbox" data-action="flag" data-flag="${f}" ${pick[f] ? "checked" : ""}> ${esc(t(`ann.${f}`))}</label>`).join("")}</div>` : ""}
    <p id="preview" class="preview" aria-live="polite">${esc(T.preview || "")}</p>
    ${text ? button(t("act.announce", { game: gameText(text.split(" ").slice(1)) }), act(text), "primary", "announce") : ""}
  </div>`;
}

// The announcement for the picked game and flags: the shortest legal one
// that has every picked flag (the server lists them normalised, R3.4).
function announceText(pick, hand, announces) {
  const want = ["schneider", "schwarz", "ouvert"].filter((f) => pick[f]);
  const found = announces
    .filter((a) => { const w = a.split(" "); return w[1] === pick.game && want.every((f) => w.includes(f)); })
    .sort((a, b) => a.split(" ").length - b.split(" ").length)[0] || null;
  if (found) updatePreview(found, hand);
  return found;
}

let previewFor = "";
async function updatePreview(text, hand) {
  if (previewFor === text + T.version) return;
  previewFor = text + T.version;
  const v = T.view;
  const [, game, ...flags] = text.split(" ");
  const cards = [...v.hand, ...(v.skat || [])].join(" ");
  const body = {
    game, hand: flags.includes("hand"), schneider_announced: flags.includes("schneider"),
    schwarz_announced: flags.includes("schwarz"), ouvert: flags.includes("ouvert"), bid: v.bid,
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

function renderHand() {
  const el = document.getElementById("hand");
  const v = T.view;
  if (!v || T.seat === null || !v.hand || !v.hand.length) { el.innerHTML = ""; el.className = "hand"; return; }
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
  el.innerHTML = `<div class="row" role="group" aria-label="${esc(t("table.youAre", { name: seatName(T.seat) }))}">${html}</div>${skatInHand}`;
}

// Once per turn: a short tone and/or a vibration, if chosen in the settings.
function notifyTurn() {
  const v = T.view;
  if (!myTurn()) { T.turnKey = ""; return; }
  const key = `${T.snap.deal?.number}:${v.history.length}`;
  if (T.turnKey === key) return;
  T.turnKey = key;
  if (setting("vibrate") && navigator.vibrate) navigator.vibrate(120);
  if (setting("sound")) {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      T.audio = T.audio || new Ctx();
      const o = T.audio.createOscillator();
      const g = T.audio.createGain();
      o.frequency.value = 660;
      g.gain.setValueAtTime(0.15, T.audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, T.audio.currentTime + 0.25);
      o.connect(g).connect(T.audio.destination);
      o.start();
      o.stop(T.audio.currentTime + 0.25);
    } catch { /* no audio here */ }
  }
}

function resultHeadline(r) {
  if (r.kind === "passed") return t("result.passed");
  if (r.kind === "abandoned") return t("result.abandoned");
  if (r.kind === "ramsch") {
    if (r.ramsch && r.ramsch.durchmarsch !== null) return t("result.durchmarsch", { name: seatName(r.ramsch.durchmarsch) });
    const losers = r.plain.map((e, s) => [e, s]).filter(([e]) => e < 0).map(([, s]) => seatName(s));
    return losers.length ? t("result.ramsch", { loser: losers.join(", ") }) : t("result.ramschNobody");
  }
  const name = seatName(r.declarer);
  const game = r.contract ? gameText(r.contract.words) : "";
  return t(r.won ? "result.won" : "result.lost", { name, game });
}

// "Could it have been won?": the open-card analysis of a settled game, asked
// from the server once per deal (the solver's numbers; only the words are ours).
function analysisText(r) {
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
        setTimeout(() => { delete table.analyses[n]; if (T === table) renderTable(); }, wait * 1000);
        return undefined;
      }
      return res.ok ? res.json() : null;
    }).then((d) => {
      if (d === undefined) return;
      table.analyses[n] = d || false;
      if (d && T === table) renderTable();  // still at this table
    }).catch(() => { table.analyses[n] = false; });
    return null;
  }
  if (!a || a.skipped || !a.positions?.length) return null;
  const first = a.positions[0];
  const out = ["best_declarer_points" in first
    ? t("analysis.best", { best: first.best_declarer_points, made: a.declarer_points })
    : t(first.declarer_can_win ? "analysis.nullWin" : "analysis.nullLose")];
  const tc = a.turning_card;
  out.push(tc
    ? t("analysis.turn", { trick: tc.trick, name: seatName(tc.seat), card: cardName(tc.card), better: cardName(tc.better), outcome: t(a.declarer_can_win ? "analysis.won" : "analysis.lost") })
    : t("analysis.noTurn"));
  return out;
}

const signed = (e) => (e > 0 ? `+${e}` : `${e}`).replace("-", "−");

// The factors of a deal (Kontra, Re, Bock) and the product they make.
function factorText(r) {
  const bits = [];
  if (r.re) bits.push(t("factor.re"));
  else if (r.kontra) bits.push(t("factor.kontra"));
  if (r.bock_factor > 1) bits.push(t("factor.bock", { n: r.bock_factor }));
  if (!bits.length) return "";
  return t("factor.line", { bits: bits.join(" · "), f: r.factor });
}

// The result panel, as a list of sections: a later line (a hint, "could I
// have won?") is one more entry in this list.
function resultSections(r, v) {
  const out = [`<h2 data-testid="result-headline">${esc(resultHeadline(r))}</h2>`];
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
    out.push(`<table class="ramsch" data-testid="ramsch-points"><thead><tr><th></th><th>${esc(t("result.cardPoints"))}</th><th>${esc(t("result.trickCount"))}</th></tr></thead><tbody>${rm.seats.map((s, i) => `<tr><th>${esc(seatName(s))}</th><td class="num">${rm.points[i]}</td><td class="num">${rm.tricks[i]}</td></tr>`).join("")}</tbody></table>`);
    if (rm.jungfrau.length) out.push(`<p data-testid="jungfrau">${esc(t("result.jungfrau", { names: rm.jungfrau.map(seatName).join(", ") }))}</p>`);
    if (rm.durchmarsch !== null) out.push(`<p data-testid="durchmarsch">${esc(t("result.durchmarschLine", { name: seatName(rm.durchmarsch) }))}</p>`);
    if (rm.pushes) out.push(`<p data-testid="pushes">${esc(t("result.pushes", { n: rm.pushes, x: 2 ** rm.pushes }))}</p>`);
    if (r.bock_factor > 1) out.push(`<p data-testid="factors">${esc(t("factor.line", { bits: t("factor.bock", { n: r.bock_factor }), f: r.factor }))}</p>`);
  }
  const verdict = analysisText(r);
  if (verdict) out.push(`<div class="analysis" data-testid="analysis"><b>${esc(t("analysis.title"))}</b> ${verdict.map(esc).join(" ")}</div>`);
  const entries = scoring === "plain" ? r.plain : r.seeger_fabian;
  out.push(`<p>${esc(t("result.entries"))}: ${entries.map((e, s) => `${esc(seatName(s))} ${esc(signed(e))}`).join(", ")}</p>`);
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
  const coming = bockToCome(T.snap.deal?.pending_bock);
  if (coming) out.push(`<p data-testid="bock-coming">${esc(coming)}</p>`);
  if (v.tricks.length) {
    out.push(`<details><summary>${esc(t("result.tricks"))}</summary>${v.tricks.map((tr) => `<div class="trickline">${cardsRow(tr.cards, "small")} → ${esc(seatName(tr.winner))} (${tr.points})</div>`).join("")}</details>`);
  }
  if (v.dealt) {
    out.push(`<details><summary>${esc(t("result.hands"))}</summary>${v.dealt.slice(0, 3).map((h, pos) => `<div class="trickline">${esc(seatName(v.seats[pos]))}: ${cardsRow(h, "small")}</div>`).join("")}</details>`);
  }
  return out;
}

function standingsHeadline() {
  const tot = T.snap.sheet?.totals || [];
  const first = tot.filter((x) => x.place === 1);
  if (!first.length) return "";
  const names = first.map((x) => seatName(x.seat)).join(", ");
  const line = first.length > 1 ? t("final.tied", { names, n: first[0].total }) : t("final.winner", { name: names, n: first[0].total });
  const tie = tot.find((x) => x.tie_break === "won" || x.tie_break === "lost");
  return `<h2 data-testid="final-winner">${esc(line)}</h2>${tie ? `<p data-testid="tie-break">${esc(t(`final.tie.${tie.tie_break}`))}</p>` : ""}`;
}

function renderResult() {
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
    const who = waiting.map(seatName).join(", ");
    const button = mine
      ? `<button class="primary" data-action="send" data-msg='${esc(JSON.stringify({ type: "next" }))}' data-testid="next">${esc(t("act.next"))}</button>`
      : `<button class="primary" disabled data-testid="next-waiting">${esc(t("act.nextWaiting", { names: who }))}</button>`;
    const note = mine && waiting.length ? `<p class="help" data-testid="next-others">${esc(t("table.othersReading", { names: who }))}</p>` : "";
    parts.splice(1, 0, button + note);
  } else {
    parts.push(`<p class="help">${esc(t("table.nextSoon"))}</p>`);
  }
  const html = `<div class="result-box" role="region" aria-label="${esc(t("phase.done"))}">${parts.join("")}</div>`;
  if (el.dataset.html !== html) { el.innerHTML = html; el.dataset.html = html; }
  const next = T.snap.table.next_table;
  if (next) follow(next);
}

function renderChat() {
  const el = document.getElementById("chat-list");
  T.muted = T.muted || new Set();
  el.innerHTML = T.chat.slice(-30).map((c) => {
    if (c.muted || T.muted.has(c.seat)) return `<p class="muted">${esc(t("chat.muted"))}</p>`;
    const who = c.seat === null || c.seat === undefined ? t("chat.spectator") : seatName(c.seat);
    return c.kind === "react" ? `<p><b>${esc(who)}</b> <span class="reaction">${reactionIcon(c.emoji)} ${esc(reactionLabel(c.emoji))}</span></p>` : `<p><b>${esc(who)}:</b> ${esc(c.text)}</p>`;
  }).join("");
  el.scrollTop = el.scrollHeight;
}

function renderTimer() {
  if (!T || !T.snap || !T.view) return;
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

function renderSheet() {
  const el = document.getElementById("sheet");
  if (!T.showSheet || !T.snap.sheet) { el.innerHTML = ""; return; }
  const keepScroll = el.querySelector(".scroll")?.scrollLeft || 0;
  const sh = T.snap.sheet;
  const n = T.snap.table.options.players;
  const scoring = T.snap.table.options.scoring;
  const names = T.snap.seats.map((s, i) => s.name || `${i + 1}`);
  const running = new Array(n).fill(0);
  const auto = sh.auto_moves || {};
  const rows = sh.rows.map((r) => {
    const entries = scoring === "plain" ? r.plain : r.seeger_fabian;
    entries.forEach((e, i) => { running[i] += e; });
    let game = r.kind === "passed" ? t("sheet.thrown") : r.kind === "abandoned" ? t("sheet.abandoned") : r.kind === "ramsch" ? t("game.ramsch") : `${names[r.declarer]}: ${gameText(r.contract.words)} (${r.won ? t("sheet.won") : r.overbid ? t("sheet.overbid") : t("sheet.lost")})`;
    const marks = [r.kontra ? (r.re ? t("marker.re") : t("marker.kontra")) : "", r.bock_factor > 1 ? `${t("marker.bock")} ×${r.bock_factor}` : ""].filter(Boolean).join(" ");
    const fired = r.bock_fired && r.bock_fired.length ? ` <span class="fired" data-testid="sheet-bock-fired">→ ${esc(t("bock.firedShort", { why: r.bock_fired.map((k) => t(`bock.why.${k}`)).join(", ") }))}</span>` : "";
    if (auto[String(r.number)]) game += " *";
    return `<tr><th scope="row" class="first">${r.number}</th><td>${esc(names[r.dealer])}</td><td>${esc(game)} ${esc(marks)}${fired}</td><td class="num">${r.kind === "game" ? r.value : ""}</td>${entries.map((e, i) => `<td class="num">${e ? esc(signed(e)) : ""}<br><b>${running[i]}</b></td>`).join("")}</tr>`;
  }).join("");
  const tot = sh.totals;
  const L = sh.others_bonus;  // R8.2, from the server
  const foot = scoring === "seeger_fabian" ? `
    <tr><th colspan="4">${esc(t("sheet.points"))}</th>${tot.map((x) => `<td class="num">${x.game_points}</td>`).join("")}</tr>
    <tr><th colspan="4">${esc(t("sheet.wonX"))}</th>${tot.map((x) => `<td class="num">${x.won} × 50 = ${x.won * 50}</td>`).join("")}</tr>
    <tr><th colspan="4">${esc(t("sheet.lostX"))}</th>${tot.map((x) => `<td class="num">${x.lost} × (−50) = ${signed(-x.lost * 50)}</td>`).join("")}</tr>
    <tr><th colspan="4">${esc(t("sheet.othersX", { n: L }))}</th>${tot.map((x) => `<td class="num">${x.lost_by_others} × ${L} = ${x.lost_by_others * L}</td>`).join("")}</tr>` : "";
  const coming = bockToCome(T.snap.deal?.pending_bock);
  el.innerHTML = `<div class="modal" role="dialog" aria-modal="true" aria-labelledby="sheet-title"><div class="modal-box">
    <h2 id="sheet-title">${esc(T.snap.list_over ? t("sheet.final") : t("sheet.title"))}</h2>
    ${T.snap.list_over ? standingsHeadline() : ""}
    <p class="scroll-cue" data-testid="scroll-cue" hidden>${esc(t("sheet.scrollCue"))}</p>
    <div class="scroll"><table class="sheet-table" data-testid="sheet">
      <thead><tr><th class="first">${esc(t("sheet.no"))}</th><th>${esc(t("sheet.dealer"))}</th><th>${esc(t("sheet.game"))}</th><th>${esc(t("sheet.value"))}</th>${names.map((x) => `<th>${esc(x)}</th>`).join("")}</tr></thead>
      <tbody>${rows || `<tr><td colspan="${4 + n}">${esc(t("sheet.empty"))}</td></tr>`}</tbody>
      <tfoot>${foot}<tr><th colspan="4">${esc(t("sheet.total"))}</th>${tot.map((x) => `<td class="num"><b>${x.total}</b></td>`).join("")}</tr>
      <tr><th colspan="4">${esc(t("sheet.place"))}</th>${tot.map((x) => `<td class="num">${x.place}</td>`).join("")}</tr></tfoot>
    </table></div>
    ${coming ? `<p data-testid="sheet-bock-coming">${esc(coming)}</p>` : ""}
    <p class="help">${esc(t("sheet.auto"))}</p>
    <p class="help">${esc(t("sheet.verify"))}: <code>${esc(T.snap.table.commitment.slice(0, 16))}…</code></p>
    <p>${esc(t("sheet.downloads"))}: <a download href="/api/tables/${T.id}/list.json">JSON</a> · <a download href="/api/tables/${T.id}/sheet.csv">CSV</a> · <a href="/api/tables/${T.id}/games.iss" data-action="iss" data-testid="iss">ISS</a></p>
    <p id="download-msg" class="help" role="status" data-testid="download-msg">${esc(T.downloadMsg || "")}</p>
    <button class="primary" data-action="sheet" data-testid="sheet-close">${esc(t("act.close"))}</button>
  </div></div>`;
  const box = el.querySelector(".scroll");
  box.scrollLeft = keepScroll;
  const cue = () => {
    const more = box.scrollWidth > box.clientWidth + 1;
    el.querySelector(".scroll-cue").hidden = !more;
    box.classList.toggle("more-right", more && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  };
  box.addEventListener("scroll", cue);
  cue();
}

// The ISS file is fetched first: a table the ISS format cannot hold gets a
// message on the page instead of an empty file.
async function downloadIss() {
  // kept in T: the sheet is drawn anew with every event, the message stays
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

async function copyLink(b) {
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

function onTableClick(e) {
  const b = e.target.closest("[data-action]");
  if (!b || b.disabled) return;
  const a = b.dataset.action;
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
    T.preview = "";
    renderControls();
    renderHand();
  } else if (a === "flag") {
    T.pick[b.dataset.flag] = b.checked;
    T.preview = "";
    renderControls();
  } else if (a === "setting") {
    store.set(`skat.set.${b.dataset.key}`, b.checked ? "1" : "0");
    T.armed = null;
    renderHand();
    renderControls();
  } else if (a === "sheet") {
    T.showSheet = !T.showSheet;
    T.downloadMsg = "";
    renderSheet();
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
    if (confirm(t("act.claimConfirm"))) send(act("claim"));
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

function onHandKey(e) {
  const buttons = [...document.querySelectorAll("#hand button.card:not([disabled])")];
  const i = buttons.indexOf(document.activeElement);
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    e.preventDefault();
    const next = buttons[(i + (e.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length];
    next?.focus();
  }
}

// ------------------------------------------------------------- calculator
const CALC_GAMES = [...GAMES, "ramsch"];
const RAMSCH_NAMES = ["A", "B", "C"]; // the three players who play, in seat order

function calculatorPage() {
  const jacks = ["CJ", "SJ", "HJ", "DJ"];
  const ramschRows = RAMSCH_NAMES.map((who, i) => `<tr><th scope="row">${who}</th>
      <td><input id="c-rp-${i}" name="rp${i}" type="number" min="0" max="120" value="${[61, 41, 18][i]}" aria-label="${esc(t("calc.ramschPointsOf", { who }))}"></td>
      <td><input id="c-rt-${i}" name="rt${i}" type="number" min="0" max="10" aria-label="${esc(t("calc.ramschTricksOf", { who }))}"></td></tr>`).join("");
  app.innerHTML = `<section class="calc">
    <h1>${esc(t("calc.title"))}</h1><p class="lead">${esc(t("calc.lead"))}</p>
    <form id="calc-form">
      <div class="opt"><label for="c-game">${esc(t("calc.game"))}</label>
        <select id="c-game" name="game">${CALC_GAMES.map((g) => `<option value="${g}" ${g === "clubs" ? "selected" : ""}>${esc(t(`game.${g}`))}</option>`).join("")}</select></div>
      <div id="c-game-fields">
      <fieldset class="opt"><legend>${esc(t("calc.cards"))}</legend><div id="c-cards" class="pick-cards"></div><p class="help">${esc(t("calc.cardsHelp"))}</p></fieldset>
      <div class="flags">${["hand", "schneider", "schwarz", "ouvert"].map((f) => `<label><input type="checkbox" name="${f}"> ${esc(t(`ann.${f}`))}</label>`).join("")}
        <label><input type="checkbox" name="kontra"> ${esc(t("act.kontra"))}</label><label><input type="checkbox" name="re"> ${esc(t("act.re"))}</label></div>
      <div class="opt"><label for="c-bid">${esc(t("calc.bid"))}</label><input id="c-bid" name="bid" type="number" min="18" max="264" value="18"></div>
      <div class="opt"><label for="c-points">${esc(t("calc.points"))}</label><input id="c-points" name="points" type="number" min="0" max="120" value="61"></div>
      <div class="opt"><label for="c-tricks">${esc(t("calc.tricks"))}</label><input id="c-tricks" name="tricks" type="number" min="0" max="10" value="5"></div>
      </div>
      <fieldset id="c-ramsch-fields" hidden><legend>${esc(t("calc.ramschPlayers"))}</legend>
        <table class="ramsch-table"><thead><tr><th></th><th scope="col">${esc(t("calc.ramschPoints"))}</th><th scope="col">${esc(t("calc.ramschTricks"))}</th></tr></thead>
        <tbody>${ramschRows}</tbody></table>
        <p class="help">${esc(t("calc.ramschHelp"))}</p></fieldset>
      <div class="flags"><label><input type="checkbox" name="bock"> ${esc(t("calc.bock"))}</label></div>
      <div class="opt"><label for="c-players">${esc(t("calc.players"))}</label><select id="c-players" name="players"><option>3</option><option>4</option></select></div>
      <button class="primary" type="submit" data-testid="calc-go">${esc(t("calc.go"))}</button>
    </form>
    <div id="calc-out" class="result-box" aria-live="polite"></div></section>`;
  const picked = new Set(["CJ", "SJ"]);
  const drawPicker = () => {
    const game = document.getElementById("c-game").value;
    const ramsch = game === "ramsch";
    document.getElementById("c-game-fields").hidden = ramsch;
    document.getElementById("c-ramsch-fields").hidden = !ramsch;
    const suit = { clubs: "C", spades: "S", hearts: "H", diamonds: "D" }[game];
    const trumps = game === "null" || ramsch ? [] : [...jacks, ...(suit ? ["A", "T", "K", "Q", "9", "8", "7"].map((r) => suit + r) : [])];
    document.getElementById("c-cards").innerHTML = trumps.map((c) => cardHtml(c, { action: "pickcard", selected: picked.has(c), cls: "playable" })).join("");
  };
  drawPicker();
  document.getElementById("c-game").addEventListener("change", drawPicker);
  document.getElementById("c-cards").addEventListener("click", (e) => {
    const b = e.target.closest("[data-card]");
    if (!b) return;
    const c = b.dataset.card;
    if (picked.has(c)) picked.delete(c); else picked.add(c);
    drawPicker();
  });
  document.getElementById("calc-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    let body;
    if (f.get("game") === "ramsch") {
      const tricks = RAMSCH_NAMES.map((_, i) => f.get(`rt${i}`));
      body = { game: "ramsch", points: RAMSCH_NAMES.map((_, i) => Number(f.get(`rp${i}`))), bock: !!f.get("bock"), players: Number(f.get("players")) };
      if (tricks.some((x) => x !== "")) body.tricks = tricks.map(Number); // all three, or none (R9.1)
    } else {
      body = {
        game: f.get("game"), hand: !!f.get("hand"), schneider_announced: !!f.get("schneider"),
        schwarz_announced: !!f.get("schwarz"), ouvert: !!f.get("ouvert"), kontra: !!f.get("kontra"), re: !!f.get("re"),
        bock: !!f.get("bock"), bid: Number(f.get("bid")), points: Number(f.get("points")), tricks: Number(f.get("tricks")), players: Number(f.get("players")),
      };
      if (body.game !== "null") body.cards = [...picked].join(" ");
    }
    const res = await fetch("/api/value", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const d = await res.json();
    const out = document.getElementById("calc-out");
    if (!res.ok) { out.innerHTML = `<p data-testid="calc-error">${esc(errorText(d.error?.code || "BAD_REQUEST"))}</p>`; return; }
    if (d.game === "ramsch") {
      const entries = d.entries.map((n, i) => `${RAMSCH_NAMES[i]} ${fmt(n)}`).join(", ");
      out.innerHTML = `<p data-testid="calc-explanation">${esc(t("calc.ramschResult", { explanation: explainRamsch(d) }))}</p>
        <p data-testid="calc-entries">${esc(t("calc.ramschEntries", { entries }))}</p>`;
      return;
    }
    const sf = d.seeger_fabian;
    out.innerHTML = `<p data-testid="calc-explanation">${esc(t("result.explanation", { explanation: explain(d.parts, d.words) }))}</p>
      <p>${esc(d.won ? t("calc.won", { plain: fmt(d.score), sf: fmt(sf.declarer) }) : t("calc.lost", { plain: fmt(d.score), sf: fmt(sf.declarer), others: fmt(sf.others[0]) }))}</p>`;
  });
}

// A Ramsch reckoning in the page's language, from the structured answer
// (R9.1): "most card points: A with 72; Jungfrau (C took no trick) x 2: loses 144".
function explainRamsch(d) {
  const names = (list) => {
    const w = list.map((i) => RAMSCH_NAMES[i]);
    return w.length === 1 ? w[0] : `${w.slice(0, -1).join(", ")} ${t("ramsch.and")} ${w[w.length - 1]}`;
  };
  const mods = [];
  if (d.jungfrau.length) mods.push(t("ramsch.jungfrau", { who: names(d.jungfrau) }));
  if (d.bock) mods.push(t("ramsch.bock"));
  let head, tail;
  if (d.durchmarsch !== null) {
    head = t("ramsch.durchmarsch", { who: RAMSCH_NAMES[d.durchmarsch] });
    tail = t("ramsch.wins", { n: d.entries[d.durchmarsch] });
  } else {
    head = t("ramsch.most", { who: names(d.losers), top: d.points[d.losers[0]] });
    const n = -d.entries[d.losers[0]];
    tail = t(d.losers.length === 1 ? "ramsch.loses" : "ramsch.eachLoses", { n });
  }
  let text = [head, ...mods].join("; ") + (mods.length ? ": " : ", ") + tail;
  if (d.players === 4) text += ` (${t("ramsch.dealer")})`;
  return text;
}

// The value explanation in the page's language from the server's reckoning
// steps (`parts`): "with 2, game 3, Hand 4 x 12 = 48". No rules here: the
// numbers are the engine's, only the words are the page's.
function explain(parts, words) {
  const steps = [];
  const n = {};
  for (const [key, value] of parts) {
    if (key === "null") return `${gameText(words)} = ${value}`;
    if (["base", "total", "bid", "charged", "value"].includes(key)) n[key] = value;
    else steps.push(t(`expl.${key}`, { n: value }));
  }
  let text = `${steps.join(", ")} x ${n.base} = ${n.total}`;
  if (n.bid !== undefined) text += " " + t("expl.overbid", { bid: n.bid, base: n.base, k: n.charged, value: n.value });
  return text;
}

// A refusal in the page's language: its own text where there is one, else
// the reason code (the server's message is English).
function errorText(code) {
  return DICTS.en[`err.${code}`] ? t(`err.${code}`) : t("err.code", { code });
}

const fmt = (n) => (n > 0 ? `+${n}` : `${n}`);

// ------------------------------------------------------------------ rules
function rulesPage(page, index) {
  const body = (RULES[lang] || RULES.en)[page].replace(/\{\{cards:([^}]*)\}\}/g, (_, list) => `<div class="diagram">${cardsRow(list.trim().split(/\s+/))}</div>`);
  app.innerHTML = `<section class="rules">
    <nav class="rule-links" aria-label="${esc(t("rules.title"))}">${RULE_PAGES.map((p) => `<a href="/rules${p === "howto" ? "" : "/" + p}" ${p === page ? 'aria-current="page"' : ""}>${esc(t(`rules.${p}`))}</a>`).join("")}</nav>
    <h1>${esc(t(`rules.${page}`))}</h1>
    <article>${body}</article>
    <p><a class="button primary" href="/">${esc(t("rules.play"))}</a> ${index ? "" : `<a href="/rules">${esc(t("rules.back"))}</a>`}</p>
  </section>`;
}

export { rankLabel, suitColour, suitSymbol };
route();
