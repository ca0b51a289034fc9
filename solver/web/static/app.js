// The study page: choose the game, enter a hand, solve it, grade your own setting.
// Plain JavaScript, no build step, nothing loaded from elsewhere. Every number shown comes
// from the server's JSON API, which returns the library's own answers
// (solver.solve(...).to_dict(), solver.review(...).to_dict()); the page only lays them out,
// the rows in the library's own reading order.
"use strict";

const RANKS = "23456789TJQKA";
const SUITS = "shdc";
const SUIT_SYMBOLS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const ROWS = ["front", "middle", "back"];
const ROW_SIZES = { front: 3, middle: 5, back: 5 };
// "auto": the library's adaptive sampling (milliseconds); a number: exactly that many deals.
// A review always compares on a number of deals: "auto" reviews on REVIEW_SAMPLES.
const SAMPLE_CHOICES = ["auto", 200, 500, 1000, 2000, 4000];
const DEFAULT_SAMPLES = "auto";
const REVIEW_SAMPLES = 1000;
const JOKER = "Jk";

const state = {
  ruleSets: {},       // name -> the server's description (deck, players, cut card, ...)
  rules: null,        // the chosen one
  tiles: [],          // the deck picture's cards: {id, card, copy}
  hand: [],           // ids of the tiles in the hand, in the order chosen
  placed: { front: [], middle: [], back: [] },   // tile ids set into each row
  active: "front",
  busy: false,
  modelTraining: false,   // the chosen rules file's opponent model is being trained
  trainingId: null,       // the id of the training shown (for "Stop the training")
};

const $ = (id) => document.getElementById(id);

// Scroll an answer to the top of the screen.  scrollIntoView can stop a fraction of a
// pixel short when the boxes above it have fractional heights (a phone's rounding), which
// leaves the answer's top edge just above the screen: nudge by the remainder.
function scrollToTop(el) {
  el.scrollIntoView({ block: "start" });
  const top = el.getBoundingClientRect().top;
  if (top < 0) window.scrollBy(0, Math.floor(top));
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// --- cards ------------------------------------------------------------------------------------
function rankOf(card) { return card === JOKER ? -1 : RANKS.indexOf(card[0]); }
function suitOf(card) { return card === JOKER ? "" : card[1]; }

// Cards in the library's canonical order (solver.format_cards of a hand): highest rank
// first, spades, hearts, diamonds, clubs, jokers last.
function canonical(cards) {
  const key = (c) => c === JOKER ? [13, 0] : [12 - rankOf(c), SUITS.indexOf(suitOf(c))];
  return [...cards].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

function words(text) { return text ? text.split(/\s+/).filter(Boolean) : []; }
function label(category) { return category ? category.replace(/_/g, " ") : ""; }

// A card drawn by the page: its rank over its suit symbol, in the suit's colour.
function cardView(card, { button = false, small = false } = {}) {
  const node = el(button ? "button" : "span", "card" + (small ? " small" : ""));
  if (button) node.type = "button";
  node.dataset.card = card;
  if (card === JOKER) {
    node.classList.add("joker");
    node.append(el("span", "rank", "JK"), el("span", "suit", "\u2605"));
    node.title = "joker";
  } else {
    const rank = card[0] === "T" ? "10" : card[0];
    node.classList.add("suit-" + card[1]);
    node.append(el("span", "rank", rank), el("span", "suit", SUIT_SYMBOLS[card[1]]));
    node.title = `${rank} of ${SUIT_NAMES[card[1]]}`;
  }
  return node;
}

function cardsView(cards, options = {}) {
  const box = el("span", options.small ? "cards inline" : "cards");
  for (const c of cards) box.append(cardView(c, options));
  return box;
}

// --- talking to the server ----------------------------------------------------------------------
// body: an object sent as JSON; its "seed", if a string of digits, goes as that number
// (a seed may have more digits than a JavaScript number holds: the server reads them all).
async function api(path, body) {
  let text;
  if (body !== undefined) {
    const seed = body.seed;
    text = typeof seed === "string"
      ? JSON.stringify(Object.assign({}, body, { seed: "@SEED@" })).replace('"@SEED@"', seed)
      : JSON.stringify(body);
  }
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: text,
  };
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`the server answered ${response.status} ${response.statusText}`);
  }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

// Run a slow request with the "working" bar: how long so far, and, while a first request
// compiles the solver's kernels, that this is what takes the time.
async function working(what, request) {
  state.busy = true;
  updateButtons();
  hideError();
  const bar = $("working"), text = $("working-text");
  const started = performance.now();
  let compiling = null;
  const show = () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    text.textContent = state.modelTraining
      ? `waiting for the opponent model's training (above)\u2026 ${seconds} s`
      : compiling !== null
      ? `compiling the solver's kernels (first run only; cached on disk afterwards): ` +
        `${compiling.toFixed(0)} s so far`
      : `${what}\u2026 ${seconds} s`;
  };
  show();
  bar.hidden = false;
  const tick = setInterval(show, 100);
  const poll = setInterval(async () => {
    try {
      const status = await api("/api/status");
      compiling = status.compiling ? status.compiling_for : null;
    } catch (e) { /* the answer itself will say what went wrong */ }
  }, 500);
  try {
    return await request();
  } finally {
    clearInterval(tick);
    clearInterval(poll);
    bar.hidden = true;
    state.busy = false;
    updateButtons();
  }
}

// An error is shown next to the control that caused it ("game", "hand", "solve",
// "grade"), and scrolled into view; "page" is the banner at the top (the page's own start).
function showError(message, where = "page") {
  const box = $(where === "page" ? "error" : "error-" + where);
  box.textContent = message;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}
function hideError() {
  for (const box of document.querySelectorAll(".error")) box.hidden = true;
}

// --- 1. the game -------------------------------------------------------------------------------
function chooseRules(name) {
  const rs = state.ruleSets[name];
  const before = state.rules;
  // Rule sets that deal the same cards from the same deck keep the hand.
  const keptHand = before && before.deck.join(" ") === rs.deck.join(" ") &&
    before.cards_dealt === rs.cards_dealt ? handCards() : [];
  state.rules = rs;
  const players = $("players");
  players.replaceChildren(...rs.players.map((n) => new Option(String(n), String(n))));
  players.value = String(Math.max(...rs.players));
  $("cut-label").hidden = !rs.cut_card;
  const dealt = rs.cards_dealt, kept = rs.cards_kept;
  const parts = [`${dealt} cards dealt` + (dealt > kept ? `, ${kept} set, ${dealt - kept} discarded` : "")];
  parts.push(rs.spade_sets === 2 ? "every spade twice" : "one 52-card pack");
  if (rs.jokers) parts.push(`${rs.jokers} jokers`);
  if (rs.cut_card) parts.push("a cut card names the Bonus rank");
  // The rules in a player's words: the deal, then the scoring as the library sums it up
  // (its summary's part after the deck and deal), not a path into the source's docs.
  $("rules-note").textContent = (rs.file_text ? `${rs.name}: ` : "") + parts.join("; ") +
    `. Scoring: ${scoringOf(rs)}.`;
  $("discard-note").textContent = dealt > kept
    ? `The ${dealt - kept} cards you do not set are your discards.` : "";
  buildDeck();
  clearHand();
  if (keptHand.length) setHandFromCards(keptHand);
  $("training").hidden = true;
  state.modelTraining = false;
  if (rs.file_text) modelReady().catch((e) => showError(e.message, "rules-file"));
}

// "+1 for no row lost, +3 a home run, royalties, a foul cannot be played": the scoring
// part of the rule set's summary ("65 cards and 3 jokers, 17 each ...; SCORING").
function scoringOf(rs) {
  const at = rs.summary.indexOf("; ");
  return at < 0 ? rs.summary : rs.summary.slice(at + 2);
}

function buildDeck() {
  const rs = state.rules;
  const copies = {};
  state.tiles = rs.deck.map((card, i) => {
    copies[card] = (copies[card] || 0) + 1;
    return { id: i, card, copy: copies[card] };
  });
  const deck = $("deck");
  deck.replaceChildren();
  const addRow = (title, tiles) => {
    const row = el("div", "deck-row");
    row.append(el("span", "deck-label", title));
    for (const tile of tiles) {
      const button = cardView(tile.card, { button: true });
      button.dataset.copy = String(tile.copy);
      button.dataset.tile = String(tile.id);
      if (tile.copy === 2) {                   // a screen reader tells the two apart
        button.title += ", second set";
      }
      button.setAttribute("aria-label", button.title);
      button.addEventListener("click", () => toggleTile(tile.id));
      row.append(button);
    }
    deck.append(row);
  };
  const byRankHigh = (a, b) => rankOf(b.card) - rankOf(a.card);
  for (const suit of SUITS) {
    addRow(SUIT_NAMES[suit], state.tiles.filter((t) => suitOf(t.card) === suit && t.copy === 1)
      .sort(byRankHigh));
  }
  if (rs.spade_sets === 2) {
    addRow("spades, 2nd set", state.tiles.filter((t) => suitOf(t.card) === "s" && t.copy === 2)
      .sort(byRankHigh));
  }
  if (rs.jokers) addRow("jokers", state.tiles.filter((t) => t.card === JOKER));
  if (rs.cut_card) {
    const cut = $("cut");
    const previous = cut.value || "4c";
    cut.replaceChildren(...canonical(state.tiles.filter((t) => t.copy === 1 && t.card !== JOKER)
      .map((t) => t.card)).map((c) => new Option(c, c)));
    cut.value = previous;
  }
  markCut();
}

// In bonus the cut card is out of play: its tile (the first copy) cannot be chosen.
function markCut() {
  const cut = state.rules.cut_card ? $("cut").value : null;
  for (const button of $("deck").querySelectorAll("button.card")) {
    const tile = state.tiles[Number(button.dataset.tile)];
    const isCut = tile.card === cut && tile.copy === 1;
    button.disabled = isCut;
    if (isCut && state.hand.includes(tile.id)) toggleTile(tile.id);
  }
}

// The seed as typed: digits (sent as they are, the server reads any number of them); empty:
// a random one, written into the field so that the answer can be repeated.
function seedText() {
  const field = $("seed");
  let text = field.value.trim();
  if (text === "") {
    text = String(Math.floor(Math.random() * 2 ** 31));
    field.value = text;
  }
  if (!/^-?[0-9]+$/.test(text)) {
    throw Object.assign(new Error(`seed: a whole number (or empty for a random one), not ` +
                                  `'${text}'`), { where: "game" });
  }
  return text;
}

function gameOptions(forReview = false) {
  const options = { rules: state.rules.name, players: Number($("players").value),
                    seed: seedText() };
  const samples = $("samples").value;
  if (samples !== "auto") options.samples = Number(samples);
  else if (forReview) options.samples = Math.min(REVIEW_SAMPLES, state.maxSamples);
  if (state.rules.cut_card) options.cut = $("cut").value;
  if (state.rules.file_text) options.rules_file = state.rules.file_text;
  return options;
}

// --- 2. the hand --------------------------------------------------------------------------------
function handCards() {
  return canonical(state.hand.map((id) => state.tiles[id].card));
}

function toggleTile(id) {
  const at = state.hand.indexOf(id);
  if (at >= 0) {
    state.hand.splice(at, 1);
  } else {
    if (state.hand.length >= state.rules.cards_dealt) {
      showError(`the ${state.rules.name} rule set deals ${state.rules.cards_dealt} cards: ` +
                `take one out first`, "hand");
      return;
    }
    state.hand.push(id);
  }
  handChanged();
}

function setHandFromCards(cards) {
  const free = new Set(state.tiles.map((t) => t.id));
  for (const button of $("deck").querySelectorAll("button.card:disabled")) {
    free.delete(Number(button.dataset.tile));
  }
  const ids = [];
  for (const card of cards) {
    const tile = state.tiles.find((t) => t.card === card && free.has(t.id));
    if (!tile) {
      const total = state.tiles.filter((t) => t.card === card).length;
      throw new Error(total === 0
        ? `${card}: the ${state.rules.name} deck has no such card`
        : `duplicate card ${card}: the ${state.rules.name} deck has only ` +
          `${total === 1 ? "one" : total} ${card}` +
          (state.rules.cut_card && card === $("cut").value ? " in play (the cut card is out)" : ""));
    }
    free.delete(tile.id);
    ids.push(tile.id);
  }
  if (ids.length > state.rules.cards_dealt) {
    throw new Error(`the ${state.rules.name} rule set deals ${state.rules.cards_dealt} cards, ` +
                    `not ${ids.length}`);
  }
  state.hand = ids;
  handChanged();
}

// The pasted text, read by the library itself (the server's /api/cards): every notation
// the command line takes is taken here, with the same message for what is not a card.
async function useText() {
  hideError();
  const text = $("hand-text").value.trim();
  if (!text) {
    showError("paste the cards of a hand first, e.g. As Ks Qh", "hand");
    return false;
  }
  try {
    const parsed = await api("/api/cards", { cards: text });
    setHandFromCards(parsed.cards);
    return true;
  } catch (e) {
    showError(e.message, "hand");
    return false;
  }
}

async function randomDeal() {
  try {
    const options = gameOptions();
    const deal = await working("dealing", () => api("/api/deal",
      { rules: options.rules, rules_file: options.rules_file, players: options.players }));
    if (deal.cut) { $("cut").value = deal.cut; markCut(); }
    $("hand-text").value = deal.hands[0];
    setHandFromCards(words(deal.hands[0]));
  } catch (e) {
    showError(e.message, "hand");
  }
}

function clearHand() {
  state.hand = [];
  handChanged();
}

function handChanged() {
  const selected = new Set(state.hand);
  for (const button of $("deck").querySelectorAll("button.card")) {
    const on = selected.has(Number(button.dataset.tile));
    button.classList.toggle("selected", on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
  const cards = handCards();
  $("hand").replaceChildren(...cards.map((c) => cardView(c)));
  $("hand-count").textContent = `${cards.length} of ${state.rules.cards_dealt}`;
  $("result").hidden = true;
  $("review").hidden = true;
  state.solved = null;
  $("declare").hidden = true;             // until a solve says the hand has an automatic win
  state.placed = { front: [], middle: [], back: [] };
  state.active = "front";
  $("mine").hidden = cards.length !== state.rules.cards_dealt;
  drawMine();
  updateButtons();
}

function handComplete() { return state.rules && state.hand.length === state.rules.cards_dealt; }

function updateButtons() {
  $("solve").disabled = state.busy || !handComplete();
  const full = ROWS.every((r) => state.placed[r].length === ROW_SIZES[r]);
  $("grade").disabled = state.busy || !full;
  $("declare").disabled = state.busy || !handComplete();
  $("random-deal").disabled = state.busy;
}

// --- 3. the best setting ------------------------------------------------------------------------
function pct(p) { return (100 * p).toFixed(1) + "%"; }
// "± 0.093", or "± n/a" where a single deal leaves the standard error undefined.
function pm(stderr) { return stderr === null ? "\u00b1 n/a" : "\u00b1 " + stderr.toFixed(3); }
function signed(x, digits = 3) { return (x >= 0 ? "+" : "") + x.toFixed(digits); }

// One row of a setting: name, cards, hand, and (when known) win / tie / loss as a bar.
function rowLine(row, cardsText, category, rates) {
  const cards = words(cardsText);
  const line = el("div", "row-line");
  line.dataset.row = row;
  line.dataset.cards = cards.join(" ");
  line.append(el("span", "row-name", row[0].toUpperCase() + row.slice(1)));
  line.append(cardsView(cards));
  line.append(el("span", "hand-name", label(category)));
  const cell = el("div", "bar-cell");
  if (rates) {
    const [win, tie, loss] = rates;
    const bar = el("div", "bar");
    bar.title = `against one opponent's ${row}: win ${pct(win)}, tie ${pct(tie)}, loss ${pct(loss)}`;
    for (const [name, value] of [["win", win], ["tie", tie], ["loss", loss]]) {
      const part = el("span", name);
      part.style.width = (100 * value) + "%";
      bar.append(part);
    }
    cell.append(bar, el("div", "rates", `win ${pct(win)} \u00b7 tie ${pct(tie)} \u00b7 loss ${pct(loss)}`));
  }
  line.append(cell);
  return line;
}

function rowsView(target, setting, categories, rates, discards) {
  const box = $(target);
  box.replaceChildren();
  appendRows(box, setting, categories, rates, discards);
}

// The three rows and the discards, as lines of cards (the Study tab's answer and review,
// and the Practice and Match tabs' reviews and showdowns, play.js).
function appendRows(box, setting, categories, rates, discards) {
  ROWS.forEach((row, r) => box.append(rowLine(row, setting[r], categories[r], rates && rates[row])));
  if (discards) {
    const line = el("div", "row-line");
    line.dataset.row = "discard";
    line.dataset.cards = discards;
    line.append(el("span", "row-name", "Discard"), cardsView(words(discards)));
    box.append(line);
  }
}

// Three rows on a line, "|" between them; each separator goes with the row after it,
// so that a narrow line breaks between rows and never leaves a "|" on a line alone.
function arrangementView(rows) {
  const box = el("span", "arrangement");
  rows.forEach((row, r) => {
    const part = el("span", "arrangement-row");
    if (r) part.append(el("span", "sep", " | "));
    part.append(cardsView(words(row), { small: true }));
    box.append(part);
  });
  return box;
}

async function solve() {
  hideError();
  if (!handComplete()) {
    showError(`choose all ${state.rules.cards_dealt} cards of the hand first ` +
              `(${state.hand.length} so far)`, "solve");
    return;
  }
  try {
    const request = Object.assign({ cards: handCards().join(" "), top: 5 }, gameOptions());
    const sol = await working("solving", async () => {
      await modelReady();
      return api("/api/solve", request);
    });
    showSolution(sol);
    scrollToTop($("result"));
  } catch (e) {
    showError(e.message, e.where || "solve");
  }
}

function unitsNote(players) {
  const others = players - 1;
  return `A unit is a point of the rule set's scoring (under Rule set, above): your net ` +
    `score in one deal, won from or paid to ` +
    (others === 1 ? "the other player." : `the ${others} other players together.`);
}

function showSolution(sol) {
  const rs = state.ruleSets[sol.rules];
  const players = sol.p_scoop.length + 1;
  const tied = sol.alternatives.filter((a) => a.tied).length;
  $("headline").textContent = sol.declare
    ? `Declare the automatic win (${label(sol.automatic_win)}). If you play the hand instead, the best setting is:`
    : `${sol.rules}${sol.cut ? ` (cut ${sol.cut})` : ""}, ${players} players: the best setting` +
      (tied ? `, statistically tied with ${tied} other${tied > 1 ? "s" : ""}` : "");
  rowsView("best-rows", [sol.front, sol.middle, sol.back], sol.categories, sol.row_rates,
           sol.discards);
  $("ev").textContent = `EV ${signed(sol.ev)} ${pm(sol.stderr)} units a deal`;
  $("ev-note").textContent = unitsNote(players) + " " + (sol.holdout
    ? `\u00b1 is one standard error, measured on ${sol.holdout} new deals, not the ` +
      `${sol.samples} that chose the setting (on those it averaged ${signed(sol.ev_in_sample)}: ` +
      `a mean chosen among many, biased upward). Win, tie and loss: each row against one ` +
      `opponent's. ` + (sol.precision === null
        ? `Exact among ${sol.candidates} non-dominated arrangements for those deals.`
        : `${sol.candidates} non-dominated arrangements scored by adaptive sampling: ` +
          (sol.anchored === false
            ? "this one led the opponent model's own setting by more than one standard error."
            : "the opponent model's own setting; no rival led it by more than one " +
              "standard error.") + (sol.capped ? " Stopped at its budget, unresolved." : ""))
    : `\u00b1 is one standard error over the ${sol.samples} deals that chose the setting.`);
  const odds = [];
  const each = (ps) => ps.map(pct).join(" ");
  // Scoops or shots, and home runs, where the rule set scores them (the server reads
  // its fields: /api/rules).
  const everyone = { 1: "the other player", 2: "both", 3: "all three", 4: "all four" }[players - 1];
  const homeRun = rs.home_runs_from !== null && players >= rs.home_runs_from;
  if (rs.scoops) {
    odds.push(`Scoop (${rs.scoop_means}): ${each(sol.p_scoop)}`, `scooped: ${each(sol.p_scooped)}`);
    if (homeRun) odds.push(`home run (scoop ${everyone}): ${pct(sol.p_home_run)}`);
  } else if (rs.shots) {
    odds.push(`Shot (${rs.scoop_means}): ${each(sol.p_scoop)}`,
              `shot against you: ${each(sol.p_scooped)}`);
    if (homeRun) odds.push(`home run (shoot ${everyone}): ${pct(sol.p_home_run)}`);
  }
  if (rs.bonus_hands) odds.push(`bonus units ${signed(sol.bonus_units)} a deal (bonus hands won minus paid)`);
  $("odds").textContent = odds.join(" \u00b7 ");
  // Declaring's EV is measured where the setting's is (held out), so the two compare.
  $("declare-note").textContent = sol.automatic_win
    ? `Automatic win (${label(sol.automatic_win)}): declaring averages ` +
      `${signed(sol.ev_declare)} ${pm(sol.stderr_declare)} a deal, the best setting played ` +
      `${signed(sol.ev)}, ` + (sol.holdout ? `both on the same ${sol.holdout} new deals: `
        : `both over the ${sol.samples} deals: `) +
      (sol.action === "declare" ? "declare." : "play.")
    : "";
  state.solved = sol;
  $("declare").hidden = !sol.automatic_win;
  const body = $("alternatives").querySelector("tbody");
  body.replaceChildren();
  // Closest rival first: by the paired difference from the best, on the deals both were
  // scored on (a rival's own mean may be over other deals: it is not shown).
  const rivals = sol.alternatives.map((a) => ({
    rows: [a.front, a.middle, a.back], tied: a.tied,
    diff: a.difference ?? a.diff, stderr: a.difference_stderr ?? a.diff_stderr,
    deals: a.samples ?? a.deals,
  })).sort((a, b) => b.diff - a.diff);
  rivals.forEach((a, i) => {
    const tr = el("tr");
    tr.dataset.index = String(i + 1);
    const cell = el("td", "arrangement");
    cell.append(arrangementView(a.rows));
    const cells = [el("td", "num", String(i + 1)), cell,
                   el("td", "num diff", `${signed(a.diff)} ${pm(a.stderr)}`),
                   el("td", "num deals", a.deals === undefined ? "" : String(a.deals))];
    const mark = el("td", "mark");
    if (a.tied) mark.append(el("span", "tied", "tied"));
    cells.push(mark);
    const heads = ["#", "front | middle | back", "difference ± SE", "deals compared", ""];
    cells.forEach((td, k) => { td.dataset.label = heads[k]; });
    tr.append(...cells);
    body.append(tr);
  });
  $("result").hidden = false;
}

// --- 4. my own setting ---------------------------------------------------------------------------
function drawMine() {
  const placed = new Set(ROWS.flatMap((r) => state.placed[r]));
  for (const row of ROWS) {
    const target = document.querySelector(`.target[data-row="${row}"]`);
    target.classList.toggle("active", state.active === row);
    const name = row[0].toUpperCase() + row.slice(1);
    target.querySelector(".target-name").textContent =
      `${name} (${state.placed[row].length}/${ROW_SIZES[row]})`;
    const cards = target.querySelector(".cards");
    cards.replaceChildren();
    for (const id of state.placed[row]) {
      const button = cardView(state.tiles[id].card, { button: true });
      button.dataset.tile = String(id);
      button.title += ": take it back";
      button.addEventListener("click", () => unplace(row, id));
      cards.append(button);
    }
  }
  const pool = $("pool");
  pool.replaceChildren();
  const left = state.hand.filter((id) => !placed.has(id));
  $("pool-note").textContent = placed.size === state.rules.cards_kept
    ? (left.length ? "Your discards:" : "") : "Your cards not set yet:";
  const tilesOf = {};           // a doubled spade: two tiles of one card
  for (const id of left) (tilesOf[state.tiles[id].card] ||= []).push(id);
  for (const card of canonical(left.map((id) => state.tiles[id].card))) {
    const id = tilesOf[card].shift();
    const button = cardView(card, { button: true });
    button.dataset.tile = String(id);
    button.addEventListener("click", () => place(id));
    pool.append(button);
  }
  updateButtons();
}

function place(id) {
  let row = state.active;
  if (state.placed[row].length >= ROW_SIZES[row]) {
    row = ROWS.find((r) => state.placed[r].length < ROW_SIZES[r]);
    if (!row) return;                       // every row is full: the rest are discards
  }
  state.placed[row].push(id);
  if (state.placed[row].length === ROW_SIZES[row]) {
    state.active = ROWS.find((r) => state.placed[r].length < ROW_SIZES[r]) || row;
  } else {
    state.active = row;
  }
  drawMine();
}

function unplace(row, id) {
  state.placed[row] = state.placed[row].filter((i) => i !== id);
  state.active = row;
  drawMine();
}

async function grade(setting) {
  hideError();
  try {
    const request = Object.assign({ cards: handCards().join(" "), setting },
                                  gameOptions(true));
    const review = await working("grading your setting", async () => {
      await modelReady();
      return api("/api/review", request);
    });
    showReview(review);
    scrollToTop($("review"));
  } catch (e) {
    showError(e.message, e.where || "grade");
  }
}

function mySetting() {
  return ROWS.map((r) => canonical(state.placed[r].map((id) => state.tiles[id].card)).join(" "));
}

function showReview(r) {
  const best = r.best;
  // A foul that cannot be played has no EV, difference or rank: it reads as a foul.
  $("review-numbers").hidden = !r.playable;
  $("review-foul").hidden = r.fouls.length === 0;
  $("review-foul").textContent = `Fouled: ${r.fouls.join(" and ")}.` + (r.playable ? ""
    : ` The ${r.rules} rules do not let a fouled setting be played.`);
  if (r.playable) {
    $("review-ev").textContent = `${signed(r.ev)} ${pm(r.stderr)}`;
    $("review-best-ev").textContent = signed(r.best_ev) + (r.best_declares ? " (declaring)" : "");
    $("review-samples").textContent = String(r.samples);
    // The best's average on these deals is not the held-out EV a solve reports: say so.
    $("review-held-out").textContent = `These deals chose the best, so its ${signed(r.best_ev)} ` +
      `here runs a little high` + (best.holdout ? `; on ${best.holdout} new deals (held ` +
      `out) it averages ${signed(best.action_ev)} ${pm(best.action_stderr)}.` : ".");
    $("review-diff").textContent = `${signed(r.diff)} ${pm(r.diff_stderr)}`;
    $("review-tied").hidden = !r.tied;
    $("review-rank").textContent = String(r.rank);
    $("review-ranked-among").textContent = String(r.ranked_among);
    $("review-yours-too").hidden = r.ranked_among === r.choices;
    $("review-choices").textContent = String(r.choices);
  }
  const dominated = $("review-dominated");
  dominated.hidden = !r.dominated_by;
  dominated.replaceChildren();
  if (r.dominated_by) {
    dominated.append("Dominated by ", arrangementView(r.dominated_by));
  }
  $("review-explanation").textContent = r.explanation;
  if (r.declare) {
    $("review-mine").replaceChildren(el("p", "", `You declare the automatic win (${label(r.automatic_win)}).`));
  } else {
    rowsView("review-mine", [r.front, r.middle, r.back], r.categories, r.row_rates, r.discards);
  }
  $("review-best-title").textContent = r.best_declares
    ? "The best: declare (if played, this setting)" : "The best";
  rowsView("review-best", [best.front, best.middle, best.back], best.categories,
           best.row_rates, best.discards);
  $("review").hidden = false;
}

// --- a rule-set file of one's own -------------------------------------------------------------------
// The server reads the file's text (POST /api/rules/file) and describes its rule set as it
// does the shipped ones; the page then sends the text with every solve, review and deal.
// fileName: the file's, when it was loaded from one (said with its rule set's name).
async function useRulesFile(fileName) {
  hideError();
  const text = $("rules-file-text").value;
  const loaded = $("rules-file-loaded");
  loaded.hidden = true;
  try {
    const rs = await api("/api/rules/file", { text });
    const shipped = state.ruleSets[rs.name];
    if (shipped && !shipped.file_text) {
      throw new Error(`this file's rule set is called ${rs.name}, as a shipped one is: ` +
                      `give it a name of its own (name = "...")`);
    }
    rs.file_text = text;
    state.ruleSets[rs.name] = rs;
    const select = $("rules");
    if (!shipped) select.append(new Option(`${rs.name} (your file)`, rs.name));
    select.value = rs.name;
    chooseRules(rs.name);
    loaded.textContent = `Playing under ${rs.name}` +
      (typeof fileName === "string" ? ` (from ${fileName})` : "") + `: ${rs.summary}.`;
    loaded.hidden = false;
  } catch (e) {
    showError(e.message, "rules-file");
  }
}

async function loadRulesFile(e) {
  const file = e.target.files[0];
  if (!file) return;
  $("rules-file-text").value = await file.text();
  e.target.value = "";              // (so that loading the same file again reads it again)
  await useRulesFile(file.name);
}

// --- the opponent model of a rules file -----------------------------------------------------------
// A rule set of one's own needs an opponent model, which the server trains by self-play
// the first time (POST /api/rules/train: minutes, once; kept for every later solve), in a
// process of its own.  The page shows how far it has got, polling its progress
// (GET /api/rules/train/{id}), and a solve or review waits for it.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TRAINING_POLL = 500;          // milliseconds between looks at the progress
// "Trained ... in 1 min 35 s": said for this long, and only in the page that watched the
// training (the server tells every page, a new browser's too, that it was "trained now").
const TRAINED_NOTE_MS = 10000;
const watchedTrainings = new Set();  // ids of the trainings this page saw under way
let trainedNoteTimer = null;

function duration(seconds) {
  const s = Math.max(1, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

// status: the server's; players: the table size it was asked for (a model may serve
// every size, and be trained for the first one asked).
function showTraining(status, players) {
  const rs = state.rules;
  if (!rs || status.rules !== rs.name || players !== Number($("players").value)) {
    return;                      // (another rule set or table size is chosen by now)
  }
  state.modelTraining = status.state === "training";
  if (status.state === "training") watchedTrainings.add(status.id);
  state.trainingId = status.id;
  $("training-cancel").hidden = status.state !== "training";
  const box = $("training"), bar = $("training-bar"), text = $("training-text");
  clearTimeout(trainedNoteTimer);
  // A model that was there already is not news; one this page watched being trained is,
  // for a while.
  const news = status.state === "ready" && watchedTrainings.delete(status.id);
  box.hidden = status.state === "ready" && !news;
  bar.hidden = status.state !== "training";
  const model = `the opponent model of ${status.rules} (${players} players)`;
  if (status.state === "ready") {
    text.textContent = `Trained ${model} in ${duration(status.seconds)}; ` +
      `it is kept for every later solve.`;
    if (news) trainedNoteTimer = setTimeout(() => { box.hidden = true; }, TRAINED_NOTE_MS);
  } else if (status.state === "failed") {
    text.textContent = `Training ${model} failed: ${status.message}.`;
  } else if (status.state === "cancelled") {
    text.textContent = `Training ${model} was stopped; nothing of it is kept.`;
  } else {
    const count = (n) => n.toLocaleString("en-US");
    text.textContent = `No opponent model for ${status.rules} (${players} players) ` +
      `yet: the server is training one by self-play, once. ` +
      (status.compiling ? "Compiling the training kernels (first run only)\u2026"
        : !status.total ? "Starting\u2026"
        : `Deal ${count(status.done)} of ${count(status.total)}` +
          (status.remaining === null ? "; estimating the time left\u2026"
            : `, about ${duration(status.remaining)} left.`));
    if (status.total && !status.compiling) {
      bar.max = status.total;
      bar.value = status.done;
    } else {
      bar.removeAttribute("value");          // (an indeterminate bar: no count yet)
    }
  }
}

// Resolves once the chosen rules file's model (at the chosen table size) is trained,
// showing the training meanwhile; at once for a shipped rule set.
async function modelReady() {
  const rs = state.rules;
  if (!rs || !rs.file_text) return;
  const players = Number($("players").value);
  let status = await api("/api/rules/train",
                         { rules: rs.name, rules_file: rs.file_text, players });
  showTraining(status, players);
  while (status.state === "training") {
    await sleep(TRAINING_POLL);
    status = await api(`/api/rules/train/${encodeURIComponent(status.id)}`);
    showTraining(status, players);
  }
  if (status.state === "failed") {
    throw new Error(`training the opponent model of ${status.rules} failed: ${status.message}`);
  }
  if (status.state === "cancelled") {
    throw new Error(`the training of the opponent model of ${status.rules} was stopped; ` +
                    `use the rules again to train it`);
  }
}

// "Stop the training": DELETE /api/rules/train/{id} stops it within about a second.
async function cancelTraining() {
  if (!state.trainingId) return;
  const response = await fetch(`/api/rules/train/${encodeURIComponent(state.trainingId)}`,
                               { method: "DELETE" });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  showTraining(data, Number($("players").value));
}

// --- start ------------------------------------------------------------------------------------------
async function start() {
  try {
    const info = await api("/api/rules");
    for (const rs of info.rule_sets) state.ruleSets[rs.name] = rs;
    $("rules").replaceChildren(...info.rule_sets.map((rs) => new Option(rs.name, rs.name)));
    state.maxSamples = info.max_samples;
    const choices = SAMPLE_CHOICES.filter((n) => n === "auto" || n <= info.max_samples);
    $("samples").replaceChildren(...choices.map((n) => new Option(
      n === "auto" ? "auto (adaptive)" : String(n), String(n))));
    $("samples").value = String(choices.includes(DEFAULT_SAMPLES) ? DEFAULT_SAMPLES : choices[0]);
    chooseRules(info.rule_sets[0].name);
  } catch (e) {
    showError(`the page could not reach its server: ${e.message}`, "page");
    return;
  }
  $("rules").addEventListener("change", (e) => chooseRules(e.target.value));
  $("rules-file-use").addEventListener("click", () => useRulesFile());
  $("training-cancel").addEventListener(
    "click", () => cancelTraining().catch((e) => showError(e.message, "rules-file")));
  $("rules-file-pick").addEventListener("change", loadRulesFile);
  $("cut").addEventListener("change", () => { markCut(); handChanged(); });
  for (const id of ["players", "samples", "seed"]) {
    $(id).addEventListener("change", () => { $("result").hidden = true; $("review").hidden = true; });
  }
  $("players").addEventListener("change", () => {      // (another table, maybe another model)
    $("training").hidden = true;
    state.modelTraining = false;
    if (state.rules.file_text) modelReady().catch((e) => showError(e.message, "rules-file"));
  });
  $("use-text").addEventListener("click", useText);
  // Enter in the paste box takes the text and solves; Enter in the Seed field solves.
  $("hand-text").addEventListener("keydown", async (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (await useText() && handComplete() && !state.busy) solve();
  });
  $("seed").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (!state.busy) solve();
  });
  $("skip-deck").addEventListener("click", (e) => {
    e.preventDefault();
    $("solve").focus();
  });
  $("random-deal").addEventListener("click", randomDeal);
  $("clear-hand").addEventListener("click", clearHand);
  $("solve").addEventListener("click", solve);
  for (const row of ROWS) {
    document.querySelector(`.target[data-row="${row}"] .target-name`)
      .addEventListener("click", () => { state.active = row; drawMine(); });
  }
  $("grade").addEventListener("click", () => grade(mySetting()));
  $("declare").addEventListener("click", () => grade("declare"));
  $("clear-rows").addEventListener("click", () => {
    state.placed = { front: [], middle: [], back: [] };
    state.active = "front";
    drawMine();
  });
}

document.addEventListener("DOMContentLoaded", start);
