// The table page: its frame, and a handler for each message the server
// sends. The state and the socket are state.js's; the drawing is board.js's
// (with log.js, result.js) and the clicks input.js's. Nothing imports this
// module but app.js.
import { HOLD_MS, renderBoard, renderTable, trickKey } from "./board.js";
import { REACTIONS, app, errorText, esc, lang, store, t } from "./common.js";
import { onHandKey, onTableClick, onTableKey } from "./input.js";
import { dealLines, noteEvent } from "./log.js";
import { rememberSeat, tournamentOf } from "./mine.js";
import { withProfile } from "./profile.js";
import { playSound } from "./sound.js";
import { reactionIcon, reactionLabel, renderTimer } from "./result.js";
import { T, connect, follow, openTable, send, setStatus, watchSocket } from "./state.js";

export function tablePage(id) {
  if (T && T.id === id) {
    if (T.lang !== lang) tableFrame(id); // the frame's texts are in the old language
    renderTable();
    return;
  }
  openTable(id, { onMessage, render: renderTable });
  tableFrame(id);
  T.tick = setInterval(renderTimer, 1000);
  T.watch = setInterval(watchSocket, 500);
  connect();
}

export function tableFrame(id) {
  T.lang = lang;
  const tour = tournamentOf(id);  // a tournament's table leads back to it
  app.innerHTML = `
  <section class="table-page" data-testid="table">
    ${tour ? `<p class="back-link"><a href="/tournament/${esc(tour.id)}" data-testid="back-to-tournament">${esc(t("mine.backTo", { name: tour.name }))}</a></p>` : ""}
    <div class="bar">
      <div class="share"><span id="share-label">${esc(t("table.share"))}</span>
        <input id="share" readonly value="${esc(location.origin + "/t/" + id)}" aria-labelledby="share-label">
        <button data-action="copy" data-testid="copy">${esc(t("table.copy"))}</button>
        <span id="copy-msg" class="help" role="status"></span></div>
      <div class="tools">
        <button data-action="keys" data-testid="keys-button" aria-keyshortcuts="?">${esc(t("keys.button"))}</button>
        <button data-action="sheet" data-testid="sheet-button">${esc(t("act.sheet"))}</button>
        <button data-action="leave" data-testid="leave" hidden>${esc(t("act.leave"))}</button>
      </div>
    </div>
    <p id="status" class="status" role="status"></p>
    <details id="table-rules" class="table-rules" data-testid="table-rules"><summary></summary><p></p></details>
    <div id="join"></div>
    <div id="result"></div>
    <div id="board" class="board"></div>
    <div id="controls" class="controls" aria-label="${esc(t("act.chooseGame"))}"></div>
    <div id="hand" class="hand"></div>
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
  document.getElementById("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("chat-input");
    if (input.value.trim()) send({ type: "chat", text: input.value });
    input.value = "";
  });
  app.querySelector(".table-page").addEventListener("click", onTableClick);
  document.getElementById("hand").addEventListener("keydown", onHandKey);
  if (!keysBound) {  // once for the page's life: a key acts on the table shown
    document.addEventListener("keydown", onTableKey);
    keysBound = true;
  }
}
let keysBound = false;

// One handler for each type of message the server sends (docs/protocol.md;
// server/messages.py, ServerMessage). tests/web/test_client_protocol.py fails
// for a type the server sends that has no handler here and is not IGNORED.
export const HANDLERS = {
  welcome(m) {
    T.seat = m.seat;
    T.pending = m.pending ?? null;
    setStatus(t("conn.back"));
  },
  seated(m) {
    store.set(`skat.token.${T.id}`, m.token);
    if (m.from_next_deal) T.pending = m.seat;
    else T.seat = m.seat;
    if (store.get(`skat.join.${T.id}`) === "fill") {
      store.set(`skat.join.${T.id}`, "done");
      send({ type: "fill", creator: store.get(`skat.creator.${T.id}`) });
    }
  },
  state(m) {
    newState(m);
    // this device's seat, found again from the home page (mine.js)
    if (T.seat !== null && T.remembered !== T.seat) {
      T.remembered = T.seat;
      rememberSeat(T.id, T.seat, m.seats?.[T.seat]?.name ?? null);
    }
    T.chat = m.chat || [];
    T.busy = false;
    autoJoin();
    renderTable();
  },
  presence(m) {
    if (T.snap) { T.snap.seats = m.seats; renderBoard(); }
  },
  event(m) {
    onEvent(m);
  },
  pong(m) {
    // answers the page's ping (any message does: state.js, onmessage), with
    // the version the server last sent this page: one the page does not
    // hold was lost while the table was quiet, so the whole state is asked
    if (m.version != null && T.version !== null && m.version > T.version && !T.resync) {
      T.resync = true;
      send({ type: "resync" });
    }
  },
  hint(m) {
    T.hint = m.action;  // shown beside the controls until the game moves on
    T.hintQuick = !!m.fallback;  // the strong player had no time: a quick one, said so
    renderTable();
  },
  notice(m) {
    // this device's seat is gone (left on another device): it watches now
    // and says so until the next event; the snapshot that follows redraws
    // the table. After its own Leave the page knows already.
    if (T.seat === null) return;
    T.seat = null;
    T.error = errorText(m.code);
    renderTable();
  },
  error(m) {
    if (m.code === "TABLE_MOVED") return;  // the close that follows reconnects
    if (T.hint === "…") T.hint = null;
    T.busy = false;
    T.error = errorText(m.code);
    if (m.code === "NO_TABLE") { app.innerHTML = `<p class="status">${esc(t("table.gone"))}</p>`; T.closed = true; return; }
    renderTable();
  },
};

// What the page receives and does nothing more with.
export const IGNORED = new Set([]);

export function onMessage(m) {
  if (!T) return;
  if (Object.hasOwn(HANDLERS, m.type)) HANDLERS[m.type](m);
  else if (!IGNORED.has(m.type)) console.warn(`skat: no handler for the server's ${m.type} message`);
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
  T.resync = false; // the whole table: changes apply on it again
  // the countdown to the next deal (the server's seconds left when it sent this)
  T.nextAt = m.deal?.next_in != null ? Date.now() + m.deal.next_in * 1000 : null;
  setView(m.view || null, before);
  T.version = m.version;
}

// The view after an event's changes: the keys that changed, replaced, and
// the new items of the lists that grow (tricks, history) appended.
export function applyChanges(view, m) {
  const v = { ...view, ...(m.changes || {}) };
  for (const [key, items] of Object.entries(m.added || {})) v[key] = [...v[key], ...items];
  return v;
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
    playSound("trick");
  } else if (v && before && v.tricks.length === before.tricks.length && v.trick.length > before.trick.length) {
    playSound("card");
  }
  if (v && before && v.phase === "done" && before.phase !== "done") playSound(resultSound(v.result));
}

// The result's sound from the reader's side: a declarer's game won or lost,
// a Ramsch or thrown-in deal by the reader's entry; a spectator's is plain.
function resultSound(r) {
  if (!r || T.seat === null) return "result";
  if (r.declarer !== null && r.won !== null) return (r.declarer === T.seat) === r.won ? "good" : "bad";
  return (r.plain?.[T.seat] ?? 0) >= 0 ? "good" : "bad";
}

export function autoJoin() {
  const join = store.get(`skat.join.${T.id}`);
  if (T.seat === null && (join === "fill" || join === "sit") && T.snap.table.status === "open") {
    const name = store.get("skat.name", "");
    if (name) {
      send(withProfile({ type: "sit", name }));
      if (join === "sit") store.set(`skat.join.${T.id}`, "done");
    }
  }
}

export function onEvent(m) {
  if (m.replayed) return; // the full state that follows holds the deal's history: the log is rebuilt from it
  const before = T.view;
  if (m.state) newState(m.state);
  else if (m.view) setView(m.view, before);
  else {
    // only what changed (docs/protocol.md, "Changes"): it applies to the
    // version before it alone. One that does not follow what the page holds
    // (a message lost) is never applied: the page asks for the whole state
    // again and ignores changes until it comes (newState)
    if (T.resync || (T.version !== null && m.version <= T.version)) return;
    if (T.version === null || m.version !== T.version + 1) {
      T.resync = true;
      send({ type: "resync" });
      return;
    }
    if (T.view && (m.changes || m.added)) setView(applyChanges(T.view, m), before);
  }
  T.version = m.version;
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
