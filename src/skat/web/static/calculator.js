// The calculator page: a game's value or a Ramsch deal, reckoned by the
// server (POST /api/value).
import { GAMES, RAMSCH_NAMES, app, cardHtml, errorText, esc, explain, explainRamsch, fmt, t } from "./common.js";

export const CALC_GAMES = [...GAMES, "ramsch"];

export function calculatorPage() {
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
