// Cards drawn as inline SVG: no images from elsewhere. The four-colour
// tournament deck is the default (clubs black, spades green, hearts red,
// diamonds orange); the classic deck has two colours.
const SYMBOL = { C: "♣", S: "♠", H: "♥", D: "♦" };
const FOUR = { C: "#111111", S: "#13803a", H: "#d0142c", D: "#e07800" };
const TWO = { C: "#111111", S: "#111111", H: "#d0142c", D: "#d0142c" };
const RANKS = {
  en: { A: "A", T: "10", K: "K", Q: "Q", J: "J", 9: "9", 8: "8", 7: "7" },
  de: { A: "A", T: "10", K: "K", Q: "D", J: "B", 9: "9", 8: "8", 7: "7" },
  da: { A: "E", T: "10", K: "K", Q: "D", J: "B", 9: "9", 8: "8", 7: "7" },
};

export function suitSymbol(suit) {
  return SYMBOL[suit];
}

export function suitColour(suit, deck) {
  return (deck === "two" ? TWO : FOUR)[suit];
}

export function rankLabel(rank, lang) {
  return (RANKS[lang] || RANKS.en)[rank];
}

// The SVG of one card face; `label` is its spoken name (aria).
export function cardSvg(card, { deck = "four", lang = "en" } = {}) {
  const suit = card[0];
  const rank = rankLabel(card[1], lang);
  const colour = suitColour(suit, deck);
  const sym = SYMBOL[suit];
  const small = rank.length > 1 ? 26 : 30;
  return `<svg viewBox="0 0 60 84" class="face" aria-hidden="true" focusable="false">
  <rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#888" stroke-width="1.2"/>
  <text x="5" y="28" font-size="${small}" font-weight="700" fill="${colour}" font-family="system-ui, sans-serif">${rank}</text>
  <text x="7" y="50" font-size="20" fill="${colour}" font-family="system-ui, sans-serif">${sym}</text>
  <text x="54" y="78" font-size="34" text-anchor="end" fill="${colour}" font-family="system-ui, sans-serif">${sym}</text>
</svg>`;
}

export function backSvg() {
  return `<svg viewBox="0 0 60 84" class="face" aria-hidden="true" focusable="false">
  <rect x="1" y="1" width="58" height="82" rx="6" fill="#1f4e8c" stroke="#0d2b52" stroke-width="1.2"/>
  <rect x="6" y="6" width="48" height="72" rx="4" fill="none" stroke="#9ec1f0" stroke-width="1.5" stroke-dasharray="3 3"/>
</svg>`;
}
