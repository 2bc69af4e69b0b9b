// The table page: its state (T), the frame, the websocket and what each
// message changes.
import { go } from "./app.js";
import { chooser, renderBoard, renderTable, trickKey } from "./board.js";
import { REACTIONS, app, deck, errorText, esc, lang, setDeck, store, t } from "./common.js";
import { onHandKey, onTableClick } from "./input.js";
import { dealLines, noteEvent } from "./log.js";
import { renderTimer } from "./result.js";

// The table page. How a trick is shown (docs/architecture.md, "The browser
// client"): every card lies in front of the player who played it; a
// finished trick stays on the table until its winner leads the next one,
// and at least HOLD_MS even when the next card comes sooner, then it is
// collected toward the winner. Nothing here decides a rule: the cards, the
// winner and the points come with the view.
export const HOLD_MS = 1500;
export const COLLECT_MS = 450;
export const REACTION_WORDS = { "👍": "good", "👏": "bravo", "😄": "laugh", "😮": "wow", "😢": "sad", "🤔": "hmm" };
export const SETTINGS = ["tap2", "sound", "vibrate"];
export let T = null; // the table page's state

export function setting(key) {
  return store.get(`skat.set.${key}`, "0") === "1";
}

export function closeSocketUnless(path) {
  if (T && path !== `/t/${T.id}`) {
    T.closed = true;
    if (T.ws) T.ws.close();
    clearInterval(T.tick);
    clearInterval(T.watch);
    clearTimeout(T.holdTimer);
    T = null;
  }
}

export function tablePage(id) {
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

export function tableFrame(id) {
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
  document.getElementById("deck").addEventListener("change", (e) => { setDeck(e.target.value); store.set("skat.deck", deck); renderTable(); });
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
export const PING_AFTER_MS = 2000; // quiet that long: ping
export const PONG_WITHIN_MS = 2500; // no message that long after the ping: reconnect
export const OPEN_WITHIN_MS = 8000; // a handshake unanswered that long: try again

export function connect() {
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

export function reconnect(code) {
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

export function watchSocket() {
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

export function abandon(ws) {
  // its close handshake would wait for the silent server: reconnect now
  ws.onopen = ws.onmessage = ws.onclose = null;
  ws.close();
  T.connected = false;
  reconnect(0);
}

export function send(msg) {
  if (T && T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
}

export function setStatus(text) {
  const el = document.getElementById("status");
  if (el) el.textContent = text;
}

export function onMessage(m) {
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
// deal), and a new deal moves the old one's lines into the log's past. The
// page's first state (after a reload) brings the earlier deals (`past`), so
// that its log is the one a page that stayed open shows.
export function newState(m) {
  const before = T.view;
  if (m.you !== undefined) T.seat = m.you;
  if (T.seat !== null) T.pending = null;
  const number = m.deal?.number ?? null;
  if (T.logDeal !== null && number !== T.logDeal && before) {
    T.logOld.push(...dealLines({ ...before, ramsch_round: !!T.snap?.deal?.ramsch_round }, T.logDeal));
    T.logOld = T.logOld.slice(-80);
  } else if (T.logDeal === null && m.past) {
    T.logOld.push(...m.past.flatMap((d) => dealLines(d, d.number)));
    T.logOld = T.logOld.slice(-80);
  }
  T.logDeal = number;
  T.snap = m;
  // the countdown to the next deal (the server's seconds left when it sent this)
  T.nextAt = m.deal?.next_in != null ? Date.now() + m.deal.next_in * 1000 : null;
  setView(m.view || null, before);
  T.version = m.version;
}

// A new view: note a trick that was just completed, so that it stays on
// the table for a moment even if the next card follows at once.
export function setView(v, before) {
  T.view = v;
  if (T.snap) T.snap.view = v;
  if (v && before && v.tricks.length > before.tricks.length && v.tricks.length) {
    const last = v.tricks[v.tricks.length - 1];
    T.hold = { trick: last, until: Date.now() + HOLD_MS, key: trickKey(v, v.tricks.length - 1) };
    clearTimeout(T.holdTimer);
    T.holdTimer = setTimeout(() => T && renderBoard(), HOLD_MS + 20);
  }
}

export function autoJoin() {
  const join = store.get(`skat.join.${T.id}`);
  if (T.seat === null && (join === "fill" || join === "sit") && T.snap.table.status === "open") {
    const name = store.get("skat.name", "");
    if (name) {
      send({ type: "sit", name });
      if (join === "sit") store.set(`skat.join.${T.id}`, "done");
    }
  }
}

export function seatName(seat) {
  const s = T.snap?.seats?.[seat];
  return s?.name ? s.name : t("table.free");
}

export function onEvent(m) {
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
export function follow(next) {
  const token = store.get(`skat.token.${T.id}`);
  if (token) store.set(`skat.token.${next}`, token);
  go(`/t/${next}`);
}
