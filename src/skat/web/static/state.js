// The table page's state (T) and its websocket, apart from any drawing.
// The modules that draw it and the message handlers (table.js) import this
// one; it imports none of them: what it must have drawn or handled, table.js
// hands it when the page opens (openTable), so no import runs in a circle.
import { store, t } from "./common.js";
import { go } from "./nav.js";

export let T = null; // the table page's state; null on other pages

let handle = () => {}; // table.js's onMessage: every server message
let draw = () => {}; // board.js's renderTable: the whole table again

// A fresh state for table `id`; `onMessage` takes every server message,
// `render` draws the whole table (redraw).
export function openTable(id, { onMessage, render }) {
  handle = onMessage;
  draw = render;
  T = {
    id, ws: null, version: null, resync: false, seat: null, pending: null, snap: null, view: null, chat: [],
    logOld: [], logDeal: null, selected: [], armed: null, busy: false, showSheet: false, showLast: false,
    closed: false, retry: 0, openedAt: 0, heardAt: 0, pingAt: 0, chooser: null, guardUntil: 0, turnSince: Date.now(), connected: false,
    error: "", hold: null, collecting: null, seen: new Set(), lastFinished: "", turnKey: "", copyMsg: "",
  };
  return T;
}

export function closeTableUnless(path) {
  if (T && path !== `/t/${T.id}`) {
    T.closed = true;
    if (T.ws) T.ws.close();
    clearInterval(T.tick);
    clearInterval(T.watch);
    clearTimeout(T.holdTimer);
    T = null;
  }
}

// Draw the whole table again (for a module below the one that draws it).
export function redraw() {
  if (T) draw();
}

export function setting(key) {
  return store.get(`skat.set.${key}`, "0") === "1";
}

export function seatName(seat) {
  const s = T.snap?.seats?.[seat];
  return s?.name ? s.name : t("table.free");
}

export function setStatus(text) {
  const el = document.getElementById("status");
  if (el) el.textContent = text;
}

// Everyone at the table goes on to the new list; the seat token carries over.
export function follow(next) {
  const token = store.get(`skat.token.${T.id}`);
  if (token) store.set(`skat.token.${next}`, token);
  go(`/t/${next}`);
}

// A server process that hangs (stopped, swapped out) keeps its socket
// accepting: nothing ever closes the connection. So the page pings when the
// server has been quiet for a while and reconnects when no answer comes
// (through the proxy, which then sends it to another server process).
export const PING_AFTER_MS = 2000; // quiet that long: ping
export const PONG_WITHIN_MS = 2500; // no message that long after the ping: reconnect
export const OPEN_WITHIN_MS = 8000; // a handshake unanswered that long: try again
// The protocol this page speaks (docs/protocol.md, "Versions of the
// protocol"): a server that speaks another refuses the hello with
// OLD_CLIENT and closes with 4426; the page then asks to be reloaded.
export const PROTOCOL = 2;
export const CLOSE_OLD_CLIENT = 4426;

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
    send({ type: "hello", protocol: PROTOCOL, token: token || null, last_version: T.version });
  };
  ws.onmessage = (e) => {
    T.heardAt = Date.now(); // any message answers a ping
    T.pingAt = 0;
    handle(JSON.parse(e.data));
  };
  ws.onclose = (e) => {
    T && (T.connected = false);
    if (!T || T.closed) return;
    reconnect(e.code);
  };
}

export function reconnect(code) {
  if (code === CLOSE_OLD_CLIENT) {
    // this page is older (or newer) than the server: trying again cannot
    // help, a reload brings the page that speaks its protocol
    T.closed = true;
    setStatus(t("err.OLD_CLIENT"));
    return;
  }
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
