// Your tables (issue 49, item 5): the tables and tournaments this device
// sat at or entered, found again from the home page. Nothing leaves the
// device: the seat tokens (skat.token.ID) and the tournament entries
// (skat.entrant.ID, skat.organiser.ID) are what the pages keep already;
// this module adds when and where (skat.seen.ID: the time, the seat, the
// name) and which tables a tournament drew (skat.tourTables.ID). The way
// back is the table's link: its page says hello with the seat token, and
// the server gives the seat back.
import { esc, fmt, store, t } from "./common.js";

const SHOWN = 8; // the newest tables listed; older ones wait for a Forget
const PREFIX = { token: "skat.token.", seen: "skat.seen.", entrant: "skat.entrant.", organiser: "skat.organiser.", tour: "skat.tourTables." };

function keys(prefix) {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(prefix)) out.push(k.slice(prefix.length));
    }
  } catch { /* no storage: nothing remembered */ }
  return out;
}

function json(key) {
  try { return JSON.parse(store.get(key, "null")); } catch { return null; }
}

// The table page says where this device sits (the seat's token is kept by
// the page itself); a tournament table keeps its tournament.
export function rememberSeat(id, seat, name) {
  const before = json(PREFIX.seen + id) || {};
  store.set(PREFIX.seen + id, JSON.stringify({ ...before, at: Date.now(), seat, name }));
}

// The tournament page notes the tables it drew, so that each leads back.
export function rememberTournament(id, name, tableIds) {
  store.set(PREFIX.tour + id, JSON.stringify({ name, tables: tableIds, at: Date.now() }));
}

// The tournament a table was drawn by, as this device saw it: { id, name } or null.
export function tournamentOf(tableId) {
  for (const id of keys(PREFIX.tour)) {
    const x = json(PREFIX.tour + id);
    if (x && Array.isArray(x.tables) && x.tables.includes(tableId)) return { id, name: x.name };
  }
  return null;
}

export function forgetTable(id) {
  try {
    localStorage.removeItem(PREFIX.token + id);
    localStorage.removeItem(PREFIX.seen + id);
    localStorage.removeItem(`skat.join.${id}`);
    localStorage.removeItem(`skat.creator.${id}`);
  } catch { /* nothing to forget */ }
}

export function forgetTournament(id) {
  try {
    for (const p of [PREFIX.entrant, PREFIX.organiser, PREFIX.tour]) localStorage.removeItem(p + id);
  } catch { /* nothing to forget */ }
}

// The tables this device holds a seat at, newest first.
export function myTables() {
  const ids = keys(PREFIX.token).filter((id) => store.get(PREFIX.token + id));
  return ids.map((id) => ({ id, ...(json(PREFIX.seen + id) || { at: 0 }) })).sort((a, b) => b.at - a.at);
}

// The tournaments this device entered or runs.
export function myTournaments() {
  const ids = new Set([...keys(PREFIX.entrant).filter((id) => store.get(PREFIX.entrant + id)), ...keys(PREFIX.organiser).filter((id) => store.get(PREFIX.organiser + id))]);
  return [...ids].map((id) => ({ id, at: json(PREFIX.tour + id)?.at ?? 0, organiser: !!store.get(PREFIX.organiser + id) })).sort((a, b) => b.at - a.at);
}

async function getJson(url) {
  try {
    const res = await fetch(url);
    if (res.status === 404) return { gone: true };
    if (!res.ok) return null;
    return await res.json();
  } catch { return null; }  // offline for a moment: said as unknown
}

// A table's state in words: playing (deal N of M), resting, waiting for
// players, finished, or dropped (expired, or gone from the server).
export function tableState(info) {
  if (!info) return { kind: "unknown", text: t("mine.unknown") };
  if (info.gone) return { kind: "gone", text: t("mine.gone") };
  const tb = info.table;
  if (tb.status === "finished") return { kind: "finished", text: t("mine.finished") };
  if (tb.status === "expired") return { kind: "gone", text: t("mine.expired") };
  if (tb.status === "open") return { kind: "open", text: t("mine.open") };
  const deal = info.deal ? t("table.deal", { n: info.deal.number, of: info.deal.of }) : "";
  return { kind: "playing", text: [tb.resting ? t("mine.resting") : t("mine.playing"), deal].filter(Boolean).join(" · ") };
}

function tableRow(x, info, tour) {
  const st = tableState(info);
  const seats = info && !info.gone ? info.seats : [];
  const others = seats.map((s, i) => (i === x.seat ? null : s.name)).filter(Boolean);
  const total = info?.sheet?.totals?.find?.((r) => r.seat === x.seat)?.total;
  const bits = [
    x.name ? t("mine.as", { name: x.name }) : "",
    others.length ? t("mine.with", { names: others.join(", ") }) : "",
    typeof total === "number" ? t("mine.total", { n: fmt(total) }) : "",
  ].filter(Boolean).join(" · ");
  const live = st.kind === "playing" || st.kind === "open";
  const link = st.kind === "gone" ? ""
    : `<a class="button${live ? " primary" : ""}" href="/t/${esc(x.id)}" data-testid="mine-back">${esc(t(live ? "mine.back" : "mine.sheet"))}</a>`;
  const tourLink = tour ? `<a href="/tournament/${esc(tour.id)}" data-testid="mine-tournament">${esc(t("mine.tournament", { name: tour.name }))}</a>` : "";
  const forget = live ? "" : `<button class="mini quiet" data-forget="${esc(x.id)}" data-testid="mine-forget">${esc(t("mine.forget"))}</button>`;
  return `<li data-testid="mine-table" data-table="${esc(x.id)}" data-state="${st.kind}">
    <span class="rules" data-testid="mine-state">${esc(st.text)}</span>
    <span class="seated">${esc(bits)}</span> ${tourLink}
    <span class="mine-actions">${link}${forget}</span></li>`;
}

function tournamentRow(x, v) {
  const state = !v ? t("mine.unknown") : v.gone ? t("mine.gone") : t(`tour.state.${v.state}`, { n: v.state === "entry" ? v.entrants.length : v.series_total, k: v.series.length });
  const name = v && !v.gone ? v.name : x.id;
  const forget = v && (v.gone || v.state === "finished" || v.state === "expired")
    ? `<button class="mini quiet" data-forget-tournament="${esc(x.id)}" data-testid="mine-forget">${esc(t("mine.forget"))}</button>` : "";
  return `<li data-testid="mine-tourney" data-tournament="${esc(x.id)}"><span class="rules">${esc(t("mine.tournament", { name }))}</span>
    <span class="seated">${esc(state)}</span>
    <span class="mine-actions">${v && !v.gone ? `<a class="button primary" href="/tournament/${esc(x.id)}" data-testid="mine-open-tournament">${esc(t("lobby.enter"))}</a>` : ""}${forget}</span></li>`;
}

// The home page's section: drawn empty at once, filled when the server
// has said how each table stands. Hidden when this device has none.
export function yourTablesSection() {
  return `<section class="lobby mine" aria-labelledby="mine-title" id="mine" hidden>
      <h2 id="mine-title">${esc(t("mine.title"))}</h2>
      <ul class="lobby-list" data-testid="your-tables" aria-live="polite"></ul>
    </section>`;
}

export async function fillYourTables() {
  const section = document.getElementById("mine");
  if (!section) return;
  const tables = myTables().slice(0, SHOWN);
  const tours = myTournaments().slice(0, SHOWN);
  if (!tables.length && !tours.length) { section.hidden = true; return; }
  const [infos, views] = await Promise.all([
    Promise.all(tables.map((x) => getJson(`/api/tables/${encodeURIComponent(x.id)}`))),
    Promise.all(tours.map((x) => getJson(`/api/tournaments/${encodeURIComponent(x.id)}`))),
  ]);
  const list = section.querySelector("ul");
  if (!list.isConnected) return;  // another page meanwhile
  for (const [i, v] of views.entries()) if (v && !v.gone) rememberTournament(tours[i].id, v.name, v.series.flatMap((s) => s.tables.map((x) => x.id)));
  // running and resting tables first, then the finished and dropped ones
  const order = { playing: 0, open: 1, unknown: 2, finished: 3, gone: 4 };
  const rows = tables.map((x, i) => [x, infos[i]]).sort(([, a], [, b]) => order[tableState(a).kind] - order[tableState(b).kind]);
  list.innerHTML = [...views.map((v, i) => tournamentRow(tours[i], v)), ...rows.map(([x, info]) => tableRow(x, info, tournamentOf(x.id)))].join("");
  section.hidden = false;
  list.onclick = (e) => {
    const b = e.target.closest("[data-forget], [data-forget-tournament]");
    if (!b) return;
    if (b.dataset.forget) forgetTable(b.dataset.forget);
    else forgetTournament(b.dataset.forgetTournament);
    fillYourTables();
  };
}
