// The study page's Practice and Match tabs. Plain JavaScript beside app.js, whose helpers
// (api, working, cardView, rowLine, canonical, signed, pm, label, el, $) it uses.
// Practice: deal a hand, set it, grade it with the library's review, keep a tally of the
// session in this browser (localStorage), export and import it as a hand-history file.
// Match: you against the library's settings for N seeded deals; each deal is settled by
// the library on the server (/api/match/showdown), and each of your settings reviewed.
// A session's figures follow the hand-history format's rules (docs/study-page-practice.md):
// loss_i = -diff (the best's mean minus yours, on the same deals), se_i = its paired
// standard error; total L = sum loss_i, SE(L) = sqrt(sum se_i^2); per hand L/n, SE(L)/n.
"use strict";

const PRACTICE_KEY = "solver.practice.v1";
// A hand is graded as `python3 -m solver review` grades it by default, so that an exported
// session re-grades to the very same figures.
const GRADE = { samples: 1000, seed: 0 };
const HISTORY_KEYS = ["cards", "setting", "rules", "players", "cut", "id"];
// The opponents as the Match tab names them (the API's names: quick_set, solve's efforts).
const OPPONENT_NAMES = { quick: "quick", fast: "strong", max: "strongest" };

// --- setting a hand into rows: click (or Tab to and press Enter on) each card ------------------------
class RowSetter {
  // box: where to draw; cards: the hand's card texts; onChange(): after every move;
  // done: the button the keyboard goes to once the rows are full (Enter there grades).
  constructor(box, cards, kept, onChange, done) {
    this.done = done;
    this.box = box;
    box.dataset.hand = cards.join(" ");
    this.cards = cards;
    this.kept = kept;
    this.onChange = onChange;
    this.clear();
  }

  clear() {
    this.placed = { front: [], middle: [], back: [] };
    this.active = "front";
    this.draw();
  }

  full() { return ROWS.every((r) => this.placed[r].length === ROW_SIZES[r]); }

  // "FRONT / MIDDLE / BACK", each row in the library's canonical order.
  setting() {
    return ROWS.map((r) => canonical(this.placed[r].map((i) => this.cards[i])).join(" "))
      .join(" / ");
  }

  place(i) {
    let row = this.active;
    if (this.placed[row].length >= ROW_SIZES[row]) {
      row = ROWS.find((r) => this.placed[r].length < ROW_SIZES[r]);
      if (!row) return;                       // every row is full: the rest are discards
    }
    this.placed[row].push(i);
    this.active = this.placed[row].length === ROW_SIZES[row]
      ? ROWS.find((r) => this.placed[r].length < ROW_SIZES[r]) || row : row;
    this.draw(this.full() ? "done" : "pool");
  }

  unplace(row, i) {
    this.placed[row] = this.placed[row].filter((j) => j !== i);
    this.active = row;
    this.draw("pool");
  }

  // focus: where the keyboard goes on after a move ("pool": the next card left).
  draw(focus) {
    const placed = new Set(ROWS.flatMap((r) => this.placed[r]));
    const targets = el("div", "targets");
    for (const row of ROWS) {
      const target = el("div", "target" + (this.active === row ? " active" : ""));
      target.dataset.slot = row;            // (data-row is the Study tab's rows)
      const name = row[0].toUpperCase() + row.slice(1);
      const pick = el("button", "target-name",
                      `${name} (${this.placed[row].length}/${ROW_SIZES[row]})`);
      pick.type = "button";
      pick.setAttribute("aria-pressed", String(this.active === row));
      pick.setAttribute("aria-label", `put the next cards in the ${row}`);
      pick.addEventListener("click", () => { this.active = row; this.draw(); });
      const cards = el("div", "cards");
      for (const i of this.placed[row]) {
        const button = cardView(this.cards[i], { button: true });
        button.dataset.index = String(i);
        button.setAttribute("aria-label", `${button.title} in the ${row}: take it back`);
        button.addEventListener("click", () => this.unplace(row, i));
        cards.append(button);
      }
      target.append(pick, cards);
      targets.append(target);
    }
    const left = this.cards.map((c, i) => i).filter((i) => !placed.has(i));
    const note = el("p", "note", placed.size === this.kept
      ? (left.length ? "Your discards:" : "") : "Your cards not set yet:");
    const pool = el("div", "cards pool");
    const order = canonical(left.map((i) => this.cards[i]));
    const byCard = {};
    for (const i of left) (byCard[this.cards[i]] ||= []).push(i);
    for (const card of order) {
      const i = byCard[card].shift();
      const button = cardView(card, { button: true });
      button.dataset.index = String(i);
      button.setAttribute("aria-label", `${button.title}: set it in the ${this.active}`);
      button.addEventListener("click", () => this.place(i));
      pool.append(button);
    }
    this.box.replaceChildren(targets, note, pool);
    this.onChange(this);
    if (focus === "done" && this.done) this.done.focus();
    if (focus === "pool") {
      const next = pool.querySelector("button") || targets.querySelector("button.card");
      if (next) next.focus();
    }
  }
}

// --- session figures (the hand-history format's rules) ------------------------------------------------
function lossOf(review) { return 0 - review.diff; }
function seOf(review) { return review.diff_stderr === null ? 0 : review.diff_stderr; }
function counted(review) { return review.playable && review.diff !== null; }

function sessionFigures(entries) {
  const graded = entries.filter((e) => counted(e.review));
  const n = graded.length;
  let total = 0, variance = 0, good = 0;
  for (const e of graded) {
    total += lossOf(e.review);
    variance += seOf(e.review) ** 2;
    if (e.review.tied) good += 1;
  }
  const se = Math.sqrt(variance);
  return { n, total, se, mean: n ? total / n : null, meanSe: n ? se / n : null, good };
}

// Figures into the elements of a tally (ids with this prefix: -n, -total, -mean, -best).
function showFigures(prefix, entries) {
  const f = sessionFigures(entries);
  $(prefix + "-n").textContent = String(f.n);
  $(prefix + "-total").textContent = f.n ? `${f.total.toFixed(3)} \u00b1 ${f.se.toFixed(3)}` : "\u2013";
  $(prefix + "-mean").textContent = f.n ? `${f.mean.toFixed(3)} \u00b1 ${f.meanSe.toFixed(3)}` : "\u2013";
  $(prefix + "-best").textContent = f.n
    ? `${f.good} of ${f.n} (${(100 * f.good / f.n).toFixed(0)}%)` : "\u2013";
}

// --- a review, compactly --------------------------------------------------------------------------------
function rowsBox(setting, categories, rates, discards) {
  const box = el("div", "rows");
  appendRows(box, setting, categories, rates, discards);
  return box;
}

function reviewView(r, title) {
  const box = el("div", "review-box");
  if (title) box.append(el("h3", "", title));
  if (r.fouls.length) {
    box.append(el("p", "warn", `Fouled: ${r.fouls.join(" and ")}.` + (r.playable ? ""
      : ` The ${r.rules} rules do not let a fouled setting be played: not counted; set it again.`)));
  }
  if (r.playable) {
    const line = el("p", "headline review-line");
    line.append(`You lost ${(0 - r.diff).toFixed(3)} ${pm(r.diff_stderr)} units a deal against ` +
                `the best (yours ${signed(r.ev)}, the best ${signed(r.best_ev)} on the same ` +
                `${r.samples} deals); rank ${r.rank} of ${r.ranked_among}`);
    if (r.tied) line.append(" ", el("span", "tied", "best or tied"));
    box.append(line);
  }
  box.append(el("p", "explanation", r.explanation));
  const compare = el("div", "compare");
  const mine = el("div");
  mine.append(el("h4", "", "Yours"));
  mine.append(r.declare ? el("p", "", `You declare the automatic win (${label(r.automatic_win)}).`)
    : rowsBox([r.front, r.middle, r.back], r.categories, r.row_rates, r.discards));
  const best = el("div");
  best.append(el("h4", "", r.best_declares ? "The best: declare (if played, this setting)" : "The best"));
  best.append(rowsBox([r.best.front, r.best.middle, r.best.back], r.best.categories,
                      r.best.row_rates, r.best.discards));
  compare.append(mine, best);
  box.append(compare);
  return box;
}

// A hand-history line (the format's keys, in its order).
function historyLine(e) {
  const line = { id: e.id, cards: e.cards, setting: e.setting, rules: e.rules, players: e.players };
  if (e.cut) line.cut = e.cut;
  return JSON.stringify(line);
}

function download(name, lines) {
  const blob = new Blob([lines.map((l) => l + "\n").join("")], { type: "application/x-ndjson" });
  const link = el("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// Rule set and players selects, as the Study tab's (players: the largest by default).
function fillRules(rulesSelect, playersSelect, choose) {
  rulesSelect.replaceChildren(...Object.keys(state.ruleSets).map((n) => new Option(n, n)));
  const players = () => {
    const rs = state.ruleSets[rulesSelect.value];
    playersSelect.replaceChildren(...rs.players.map((n) => new Option(String(n), String(n))));
    playersSelect.value = String(Math.max(...rs.players));
  };
  rulesSelect.value = choose && state.ruleSets[choose] ? choose : rulesSelect.options[0].value;
  rulesSelect.addEventListener("change", players);
  players();
}

function gradeRequest(e) {
  const body = Object.assign({ cards: e.cards, setting: e.setting, rules: e.rules }, GRADE);
  // (A server started with a smaller --max-samples grades on what it allows.)
  if (state.maxSamples && state.maxSamples < body.samples) body.samples = state.maxSamples;
  if (e.players) body.players = e.players;
  if (e.cut) body.cut = e.cut;
  return body;
}

// --- Practice ----------------------------------------------------------------------------------------------
const practice = { entries: [], deal: null, setter: null, nextId: 1 };

function savePractice() {
  try {
    localStorage.setItem(PRACTICE_KEY, JSON.stringify({
      entries: practice.entries, nextId: practice.nextId,
      rules: $("p-rules").value, players: $("p-players").value,
    }));
  } catch (e) {
    showError(`this browser did not keep the session (${e.message}); export it to keep it`,
              "practice");
  }
}

function loadPractice() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(PRACTICE_KEY) || "null"); } catch (e) { saved = null; }
  if (saved && Array.isArray(saved.entries)) {
    practice.entries = saved.entries;
    practice.nextId = saved.nextId || saved.entries.length + 1;
  }
  return saved;
}

function drawPractice() {
  showFigures("p", practice.entries);
  const list = $("p-history");
  list.replaceChildren();
  practice.entries.forEach((e, k) => {
    const item = el("li");
    const button = el("button", "history-item");
    button.type = "button";
    const r = e.review;
    const what = counted(r) ? `lost ${lossOf(r).toFixed(3)} \u00b1 ${seOf(r).toFixed(3)}` +
      (r.tied ? ", best or tied" : "") : "a foul, not counted";
    button.append(`#${e.id} ${e.rules}, ${e.players} players: ${what} `,
                  e.setting === "declare" ? "(declared) "
                    : arrangementView(e.setting.split("/").map((row) => row.trim())));
    button.setAttribute("aria-label", `hand ${e.id}: ${what}; show its review`);
    button.addEventListener("click", () => showPracticeReview(k));
    item.append(button);
    list.append(item);
  });
  $("p-export").disabled = practice.entries.length === 0;
  refreshPractice();
}

function showPracticeReview(k) {
  const e = practice.entries[k];
  const box = $("p-review");
  box.replaceChildren(reviewView(e.review, `Hand #${e.id} (${e.rules}, ${e.players} players` +
                                            (e.cut ? `, cut ${e.cut}` : "") + ")"));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

function refreshPractice() {
  const ready = practice.setter && practice.setter.full();
  $("p-grade").disabled = state.busy || !ready || !practice.deal;
  $("p-declare").disabled = state.busy || !practice.deal;
  $("p-deal").disabled = state.busy;
}

async function practiceDeal() {
  hideError();
  try {
    const deal = await working("dealing", () => api("/api/match/deal", {
      rules: $("p-rules").value, players: Number($("p-players").value) }));
    practice.deal = deal;
    const rs = state.ruleSets[deal.rules];
    $("p-hand-note").textContent = `Hand #${practice.nextId}: ${deal.rules}, ${deal.players} ` +
      `players${deal.cut ? `, cut card ${deal.cut}` : ""}. Choose a row, then click (or Tab ` +
      `to and press Enter on) your cards to set them; a placed card goes back when clicked. ` +
      (rs.cards_dealt > rs.cards_kept ? `The ${rs.cards_dealt - rs.cards_kept} cards you do not set are your discards. ` : "") +
      `Enter grades once the rows are full.`;
    practice.setter = new RowSetter($("p-setter"), words(deal.hand), rs.cards_kept, refreshPractice,
                                    $("p-grade"));
    $("p-declare").hidden = !deal.automatic_win;
    $("p-declare").textContent = deal.automatic_win
      ? `Declare the automatic win (${label(deal.automatic_win)})` : "";
    $("p-table").hidden = false;
    $("p-review").hidden = true;
    refreshPractice();
    const first = $("p-setter").querySelector(".pool button");
    if (first) first.focus();
  } catch (e) {
    showError(e.message, "practice");
  }
}

async function practiceGrade(declare) {
  if (!practice.deal || state.busy) return;
  if (!declare && !practice.setter.full()) return;
  hideError();
  const deal = practice.deal;
  const entry = { id: practice.nextId, cards: deal.hand,
                  setting: declare ? "declare" : practice.setter.setting(),
                  rules: deal.rules, players: deal.players, cut: deal.cut || undefined };
  try {
    entry.review = await working("grading your setting", () => api("/api/review", gradeRequest(entry)));
  } catch (e) {
    showError(e.message, "practice");
    return;
  }
  $("p-review").replaceChildren(reviewView(entry.review, `Hand #${entry.id}`));
  $("p-review").hidden = false;
  if (counted(entry.review)) {            // a foul the rules cannot play: set it again
    practice.entries.push(entry);
    practice.nextId += 1;
    practice.deal = null;
    $("p-table").hidden = true;
    savePractice();
    drawPractice();
    $("p-deal").focus();
  }
  $("p-review").scrollIntoView({ block: "nearest" });
}

// A hand-history file, read per the format: JSON lines (or CSV with a header row).
function readHistory(name, text) {
  const lines = [], problems = [];
  const bad = (n, message) => problems.push(`${name} line ${n}: ${message}`);
  const rows = text.split(/\r?\n/);
  const csv = /\.csv$/i.test(name);
  let header = null;
  rows.forEach((raw, k) => {
    const n = k + 1;
    const line = raw.trim();
    if (!line || (!csv && line.startsWith("#"))) return;
    let item;
    if (csv) {
      const cells = csvCells(line);
      if (!header) { header = cells; return; }
      item = {};
      header.forEach((key, i) => { if (cells[i] !== undefined && cells[i] !== "") item[key] = cells[i]; });
      if (item.players !== undefined && /^\d+$/.test(item.players)) item.players = Number(item.players);
    } else {
      try { item = JSON.parse(line); } catch (e) { bad(n, "not valid JSON"); return; }
    }
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      bad(n, "a line is one JSON object"); return;
    }
    const unknown = Object.keys(item).filter((key) => !HISTORY_KEYS.includes(key));
    if (unknown.length) { bad(n, `unknown key ${unknown.join(", ")}; the keys are ${HISTORY_KEYS.join(", ")}`); return; }
    for (const key of ["cards", "setting"]) {
      if (typeof item[key] !== "string" || !item[key].trim()) { bad(n, `${key} (a text) is required`); return; }
    }
    if (item.rules !== undefined && typeof item.rules !== "string") { bad(n, "rules: a rule-set name"); return; }
    if (item.cut !== undefined && item.cut !== null && typeof item.cut !== "string") { bad(n, "cut: a card"); return; }
    if (item.players !== undefined && !Number.isInteger(item.players)) { bad(n, "players: a whole number"); return; }
    if (item.id !== undefined && typeof item.id !== "string" && !Number.isInteger(item.id)) {
      bad(n, "id: a text or a whole number"); return;
    }
    lines.push({ n, item });
  });
  return { lines, problems };
}

function csvCells(line) {
  const cells = [];
  let cell = "", quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { cells.push(cell); cell = ""; }
    else cell += c;
  }
  cells.push(cell);
  return cells.map((s) => s.trim());
}

async function practiceImport(file) {
  hideError();
  const { lines, problems } = readHistory(file.name, await file.text());
  let added = 0;
  for (const { n, item } of lines) {
    const entry = { id: item.id ?? practice.nextId, cards: item.cards, setting: item.setting,
                    rules: item.rules || "joker", players: item.players, cut: item.cut || undefined };
    try {
      entry.review = await working(`grading ${file.name} line ${n}`, () => api("/api/review", gradeRequest(entry)));
    } catch (e) {
      problems.push(`${file.name} line ${n}: ${e.message}`);
      continue;
    }
    if (!counted(entry.review)) {
      problems.push(`${file.name} line ${n}: a foul the ${entry.review.rules} rules cannot play`);
      continue;
    }
    entry.rules = entry.review.rules;
    entry.players = entry.review.players;
    entry.cut = entry.review.cut || undefined;
    practice.entries.push(entry);
    if (Number.isInteger(entry.id) && entry.id >= practice.nextId) practice.nextId = entry.id + 1;
    else if (entry.id === practice.nextId) practice.nextId += 1;
    added += 1;
  }
  savePractice();
  drawPractice();
  $("p-import-note").textContent = `${file.name}: ${added} hand${added === 1 ? "" : "s"} added` +
    (problems.length ? `, ${problems.length} line${problems.length === 1 ? "" : "s"} skipped: ` +
     problems.join("; ") : ".");
}

function startPractice() {
  const saved = loadPractice();
  fillRules($("p-rules"), $("p-players"), saved && saved.rules);
  if (saved && saved.players && [...$("p-players").options].some((o) => o.value === saved.players)) {
    $("p-players").value = saved.players;
  }
  $("p-deal").addEventListener("click", practiceDeal);
  $("p-grade").addEventListener("click", () => practiceGrade(false));
  $("p-declare").addEventListener("click", () => practiceGrade(true));
  $("p-clear").addEventListener("click", () => practice.setter && practice.setter.clear());
  $("p-export").addEventListener("click", () =>
    download("practice-session.jsonl", practice.entries.map(historyLine)));
  $("p-import").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) await practiceImport(file);
    e.target.value = "";
  });
  $("p-reset").addEventListener("click", () => {
    if (practice.entries.length && !confirm("Forget this session's hands (export them first to keep them)?")) return;
    practice.entries = [];
    practice.nextId = 1;
    $("p-review").hidden = true;
    savePractice();
    drawPractice();
  });
  for (const id of ["p-rules", "p-players"]) $(id).addEventListener("change", savePractice);
  enterDoes("panel-practice", () => (practice.deal ? practiceGrade(false) : practiceDeal()));
  drawPractice();
}

// Enter grades (or shows down) wherever a button does not take it itself.
function enterDoes(panel, action) {
  $(panel).addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || e.defaultPrevented) return;
    const tag = e.target.tagName;
    if (tag === "BUTTON" || tag === "A" || (tag === "INPUT" && e.target.type === "file")) return;
    e.preventDefault();
    action();
  });
}

// --- Match --------------------------------------------------------------------------------------------------
const match = { config: null, index: 0, deal: null, setter: null, ledger: [], entries: [], done: false };

function seatName(seat) { return seat === 0 ? "You" : `Seat ${seat + 1}`; }

function refreshMatch() {
  const playing = match.config && match.deal && !match.done;
  $("m-show").disabled = state.busy || !playing || !(match.setter && match.setter.full());
  $("m-declare").disabled = state.busy || !playing;
  $("m-start").disabled = state.busy;
  $("m-next").disabled = state.busy;
}

async function matchStart() {
  hideError();
  const deals = Number($("m-deals").value);
  if (!Number.isInteger(deals) || deals < 1 || deals > 100) {
    showError("Deals: a whole number from 1 to 100", "match");
    return;
  }
  const seedText = $("m-seed").value.trim();
  if (seedText && !/^\d+$/.test(seedText)) {
    showError("Seed: a whole number (or empty: a random one)", "match");
    return;
  }
  match.config = { rules: $("m-rules").value, players: Number($("m-players").value),
                   opponents: $("m-opponents").value, deals,
                   seed: seedText ? Number(seedText) : null };
  match.index = 0;
  match.ledger = [];
  match.entries = [];
  match.done = false;
  $("m-end").hidden = true;
  drawLedger();
  await matchDeal();
}

async function matchDeal() {
  const c = match.config;
  try {
    const body = { rules: c.rules, players: c.players, index: match.index };
    if (c.seed !== null) body.seed = c.seed;
    const deal = await working("dealing", () => api("/api/match/deal", body));
    c.seed = deal.seed;
    $("m-seed").value = String(deal.seed);            // shown: the match can be replayed
    match.deal = deal;
  } catch (e) {
    showError(e.message, "match");
    return;
  }
  const rs = state.ruleSets[c.rules];
  const deal = match.deal;
  $("m-status").textContent = `Deal ${match.index + 1} of ${c.deals} \u00b7 ${c.rules}, ` +
    `${c.players} players, ${OPPONENT_NAMES[c.opponents]} opponents \u00b7 seed ${c.seed} ` +
    `(the same seed replays this match)` + (deal.cut ? ` \u00b7 cut card ${deal.cut}` : "");
  match.setter = new RowSetter($("m-setter"), words(deal.hand), rs.cards_kept, refreshMatch,
                               $("m-show"));
  $("m-declare").hidden = !deal.automatic_win;
  $("m-declare").textContent = deal.automatic_win
    ? `Declare the automatic win (${label(deal.automatic_win)})` : "";
  $("m-table").hidden = false;
  $("m-showdown").hidden = true;
  refreshMatch();
  const first = $("m-setter").querySelector(".pool button");
  if (first) first.focus();
}

async function matchShowdown(declare) {
  if (!match.deal || match.done || state.busy) return;
  if (!declare && !match.setter.full()) return;
  hideError();
  const c = match.config, deal = match.deal;
  const setting = declare ? "declare" : match.setter.setting();
  let result, review;
  try {
    result = await working("the other seats set their hands; settling", () => api("/api/match/showdown", {
      rules: c.rules, players: c.players, seed: c.seed, index: match.index, setting,
      opponents: c.opponents }));
    const entry = { id: `deal ${match.index + 1}`, cards: deal.hand, setting, rules: deal.rules,
                    players: deal.players, cut: deal.cut || undefined };
    review = await working("reviewing your setting", () => api("/api/review", gradeRequest(entry)));
    entry.review = review;
    match.entries.push(entry);
  } catch (e) {
    showError(e.message, "match");
    return;
  }
  match.ledger.push(result.scores);
  drawShowdown(result, review);
  drawLedger();
  match.deal = null;
  match.index += 1;
  match.done = match.index >= c.deals;
  $("m-table").hidden = true;
  $("m-next").hidden = match.done;
  if (match.done) drawMatchEnd();
  refreshMatch();
  (match.done ? $("m-export") : $("m-next")).focus();
}

function drawShowdown(result, review) {
  const seats = $("m-seats");
  seats.replaceChildren();
  for (const s of result.seats) {
    const box = el("div", "seat");
    box.dataset.seat = String(s.seat);
    const units = result.scores[s.seat];
    box.append(el("h4", "", `${seatName(s.seat)}: ${signed(units, 0)} unit${Math.abs(units) === 1 ? "" : "s"}` +
                              (s.declare ? " (declares an automatic win)" : "")));
    const categories = s.rows.map((text) => text.replace(/^FOULED /, "").split(" ")[0]);
    const rows = rowsBox([s.front, s.middle, s.back], categories, null, s.discards);
    if (s.rows[0].startsWith("FOULED")) box.append(el("p", "warn", "Fouled."));
    box.append(rows);
    seats.append(box);
  }
  const pairs = $("m-pairs");
  pairs.replaceChildren();
  for (const p of result.pairs) {
    const item = el("li");
    item.dataset.a = String(p.a);
    item.dataset.b = String(p.b);
    item.dataset.units = String(p.units);
    const rows = p.rows[0] === "-" ? "rows not compared"
      : ROWS.map((r, k) => `${r} ${p.rows[k]}`).join(", ");
    const items = p.items.map(([what, u]) => `${what} ${signed(u, 0)}`).join("; ");
    item.textContent = `${seatName(p.a)} against ${seatName(p.b).toLowerCase()}: ${rows}. ` +
      `${items}. ${seatName(p.a)} ${p.units >= 0 ? "win" + (p.a ? "s" : "") : "pay" + (p.a ? "s" : "")} ` +
      `${Math.abs(p.units)}.`;
    pairs.append(item);
  }
  $("m-review").replaceChildren(reviewView(review, "Your setting, reviewed"));
  $("m-showdown").hidden = false;
  $("m-showdown").scrollIntoView({ block: "start" });
}

function drawLedger() {
  const c = match.config;
  const table = $("m-ledger");
  const n = c ? c.players : 0;
  const head = el("tr");
  head.append(el("th", "", "Deal"));
  for (let s = 0; s < n; s++) head.append(el("th", "num", seatName(s)));
  table.tHead.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren();
  const totals = new Array(n).fill(0);
  match.ledger.forEach((scores, d) => {
    const tr = el("tr");
    tr.append(el("td", "", String(d + 1)));
    scores.forEach((u, s) => { totals[s] += u; tr.append(el("td", "num", signed(u, 0))); });
    body.append(tr);
  });
  const foot = el("tr");
  foot.append(el("th", "", "Total"));
  totals.forEach((u, s) => {
    const cell = el("th", "num", signed(u, 0));
    cell.dataset.seat = String(s);
    foot.append(cell);
  });
  table.tFoot.replaceChildren(foot);
  $("m-ledger-section").hidden = !c;
}

function drawMatchEnd() {
  showFigures("m", match.entries);
  const list = $("m-hands");
  list.replaceChildren();
  match.entries.forEach((e, k) => {
    const item = el("li");
    const button = el("button", "history-item");
    button.type = "button";
    const r = e.review;
    const what = `lost ${lossOf(r).toFixed(3)} \u00b1 ${seOf(r).toFixed(3)}` + (r.tied ? ", best or tied" : "");
    button.textContent = `Deal ${k + 1}: ${what}`;
    button.setAttribute("aria-label", `deal ${k + 1}: ${what}; show its review`);
    button.addEventListener("click", () => {
      $("m-end-review").replaceChildren(reviewView(r, `Deal ${k + 1}`));
    });
    item.append(button);
    list.append(item);
  });
  $("m-end").hidden = false;
}

function startMatch() {
  fillRules($("m-rules"), $("m-players"), "pagat");
  $("m-start").addEventListener("click", matchStart);
  $("m-show").addEventListener("click", () => matchShowdown(false));
  $("m-declare").addEventListener("click", () => matchShowdown(true));
  $("m-clear").addEventListener("click", () => match.setter && match.setter.clear());
  $("m-next").addEventListener("click", matchDeal);
  $("m-replay").addEventListener("click", () => { $("m-seed").value = String(match.config.seed); matchStart(); });
  $("m-export").addEventListener("click", () =>
    download(`match-${match.config.seed}.jsonl`, match.entries.map(historyLine)));
  enterDoes("panel-match", () => {
    if (match.deal && !match.done) matchShowdown(false);
    else if (!match.config || match.done) matchStart();
  });
}

// --- tabs --------------------------------------------------------------------------------------------------------
function showTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(on));
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
  if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
}

async function startPlay() {
  // The Study tab's start fills state.ruleSets; wait for it.
  for (let i = 0; i < 600 && !Object.keys(state.ruleSets).length; i++) {
    await new Promise((done) => setTimeout(done, 50));
  }
  const tabs = [...document.querySelectorAll("[role=tab]")];
  tabs.forEach((tab, k) => {
    tab.addEventListener("click", () => showTab(tab.dataset.tab));
    tab.addEventListener("keydown", (e) => {          // arrow keys move between the tabs
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      const next = tabs[(k + step + tabs.length) % tabs.length];
      showTab(next.dataset.tab);
      next.focus();
    });
  });
  const wanted = location.hash.slice(1);
  showTab(tabs.some((t) => t.dataset.tab === wanted) ? wanted : "study");
  if (!Object.keys(state.ruleSets).length) return;      // the banner says why
  startPractice();
  startMatch();
  // The working bar disables the Study tab's buttons; these tabs' too.
  const original = updateButtons;
  updateButtons = function () { original(); refreshPractice(); refreshMatch(); };
}

document.addEventListener("DOMContentLoaded", startPlay);
