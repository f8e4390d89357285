/* The pages' script: each page reads its JSON from /api/ and draws it.
   Plain DOM, no framework, no build step. */
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

async function getJSON(url) {
  const reply = await fetch(url, {cache: "no-store"});
  const text = await reply.text();
  if (!reply.ok) throw new Error(text.trim() || `${reply.status} ${reply.statusText}`);
  return JSON.parse(text);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const pathPart = (n) => decodeURIComponent(location.pathname.split("/")[n] || "");
const query = new URLSearchParams(location.search);

function showError(where, error) {
  where.replaceChildren(el("span", {class: "error", text: String(error.message || error)}));
}

function playerLink(name) {
  if (!name || name === "?") return el("span", {class: "dim", text: name || "—"});
  return el("a", {href: `/player/${encodeURIComponent(name)}`, text: name});
}

function ratingText(seat) {
  if (!seat) return "";
  if (seat.rating === null || seat.rating === undefined) return seat.guest ? "guest" : "";
  return `${Math.round(seat.rating)}${seat.provisional ? "?" : ""}`;
}

function seatCell(seat) {
  if (!seat) return el("span", {class: "dim", text: "open seat"});
  const rating = ratingText(seat);
  return el("span", {}, playerLink(seat.name), rating ? el("span", {class: "badge", text: rating}) : "");
}

function resultText(result) {
  return result === "*" ? "no result" : result || "";
}

function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.floor(s), h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60;
  const ss = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function linkRows(tbody) {
  tbody.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-href]");
    if (row && !event.target.closest("a")) location.href = row.dataset.href;
  });
}

const GAME_COLUMNS = [["Game"], ["White"], ["Black"], ["Result"], ["How it ended", "wide"],
                      ["Moves", "num"], ["Class", "wide"], [""]];

/* A list of finished games (the archive, a player's history): its rows, newest first. */
function showGames(table, games) {
  table.tHead.replaceChildren(el("tr", {}, ...GAME_COLUMNS.map(([t, c]) => el("th", {class: c, text: t}))));
  table.tBodies[0].replaceChildren(...games.map(gameRow));
}

function gameRow(game) {
  return el("tr", {class: "link", "data-href": `/table/${game.id}`},
    el("td", {}, el("a", {href: `/table/${game.id}`, text: `#${game.id}`})),
    el("td", {}, playerLink(game.white)), el("td", {}, playerLink(game.black)),
    el("td", {text: resultText(game.result)}),
    el("td", {class: "wide dim", text: game.reason || ""}),
    el("td", {class: "num", text: game.moves}),
    el("td", {class: "wide dim", text: `${game.time_class}${game.rated ? " · rated" : ""}`}),
    el("td", {}, el("a", {href: `/api/game/${game.id}.camelot`, text: "record", download: `game-${game.id}.camelot`})));
}

function pager(where, offset, next, makeUrl) {
  where.replaceChildren();
  if (offset > 0) where.append(el("a", {class: "button", href: makeUrl(0), text: "← Newest"}));
  if (next !== null && next !== undefined) where.append(el("a", {class: "button", href: makeUrl(next), text: "Older →"}));
}

/* --- the lobby ----------------------------------------------------------------- */
function statusText(t) {
  if (t.status === "waiting") return t.white && t.black ? "about to start" : "waiting for a player";
  return t.status;
}

async function lobbyPage() {
  const tbody = $("tables").tBodies[0], offset = parseInt(query.get("offset") || "0", 10) || 0;
  linkRows(tbody);
  for (;;) {
    try {
      const lobby = await getJSON(`/api/lobby?offset=${offset}`);
      const open = lobby.open ?? lobby.tables.length;
      $("online").textContent = `${lobby.online} online · ${open} open table${open === 1 ? "" : "s"}`;
      pager($("pager"), offset, lobby.next, (o) => `?offset=${o}`);
      tbody.replaceChildren(...lobby.tables.map((t) =>
        el("tr", {class: "link", "data-href": `/table/${t.id}`},
          el("td", {}, el("a", {href: `/table/${t.id}`, text: `#${t.id}`})),
          el("td", {}, seatCell(t.white)), el("td", {}, seatCell(t.black)),
          el("td", {class: "wide", text: `${t.time_control}${t.rated ? " · rated" : ""}`}),
          el("td", {class: "num", text: t.ply}),
          el("td", {class: "num wide", text: t.spectators}),
          el("td", {text: statusText(t)}))));
      $("empty").hidden = lobby.tables.length > 0;
    } catch (error) {
      showError($("online"), error);
    }
    await sleep(3000);
  }
}

/* --- a table, live --------------------------------------------------------------- */
const live = {table: null, at: 0, ply: 0};   // the table shown, when it came, the ply stepped to

function shownClock(color) {
  const t = live.table;
  if (!t || t.clocks[color] === null) return null;
  const running = t.clocks.running === color && t.status === "playing";
  return t.clocks[color] - (running ? (performance.now() - live.at) / 1000 : 0);
}

function tickClocks() {
  for (const color of ["white", "black"]) {
    const clock = document.querySelector(`#seat-${color} .clock`);
    if (!clock) continue;
    const left = shownClock(color);
    clock.textContent = clockText(left);
    clock.classList.toggle("low", left !== null && left < 10);
  }
}

function drawSeat(t, color) {
  const seat = t[color], box = $(`seat-${color}`);
  box.classList.toggle("to-move", t.status === "playing" && t.turn === color);
  const who = el("span", {class: "who"}, seatCell(seat));
  if (seat && t.present && t.present[color] === false) who.append(el("span", {class: "away", text: "away"}));
  box.replaceChildren(el("span", {class: `disc ${color}`}), who, el("span", {class: "clock"}));
}

function tableStatus(t) {
  const side = (c) => c[0].toUpperCase() + c.slice(1);
  if (t.status === "finished") return `${resultText(t.result)} · ${t.reason || "game over"}`;
  if (t.status === "waiting") return t.white && t.black ? "Both seats taken: waiting for the start" : "Waiting for players";
  const offer = t.draw_offer ? ` · ${side(t.draw_offer)} is offered a draw` : "";
  return `${side(t.turn)} to move${offer}`;
}

function drawMoves(t) {
  const list = $("moves");
  const items = [];
  const move = (ply) => {                       // ply counts from 1
    if (ply > t.moves.length) return el("span");
    const attrs = {class: ply === t.moves.length ? "last" : "", text: t.moves[ply - 1], "data-ply": ply};
    if (t.replay) Object.assign(attrs, {role: "button", tabindex: "0", title: "Show the board after this move"});
    return el("span", attrs);
  };
  for (let ply = 1; ply <= t.moves.length; ply += 2) {
    items.push(el("li", {}, el("span", {class: "ply", text: `${(ply + 1) / 2}.`}), move(ply), move(ply + 1)));
  }
  list.replaceChildren(...items);
  list.classList.toggle("steps", !!t.replay);
  list.scrollTop = list.scrollHeight;
}

/* A finished game stepped through: the board after ply ``n`` (0: the start). */
function showPly(n) {
  const t = live.table;
  if (!t || !t.replay) return;
  n = Math.max(0, Math.min(t.moves.length, n));
  live.ply = n;
  const after = n ? t.replay[n - 1] : null;
  Board.draw($("board"), after ? after.position : t.start, after);
  $("board").dataset.ply = n;
  const list = $("moves");
  for (const span of list.querySelectorAll("[data-ply]")) {
    const current = Number(span.dataset.ply) === n;
    span.classList.toggle("current", current);
    if (current) list.scrollTop = span.offsetTop - list.clientHeight / 2;   // the list alone
  }
  $("step-at").textContent = n ? `move ${n} of ${t.moves.length}` : "the start";
}

function stepControls(t) {
  const step = (label, title, to) => {
    const b = el("button", {type: "button", title, text: label});
    b.addEventListener("click", () => showPly(to()));
    return b;
  };
  return el("span", {class: "toolbar"},
    step("«", "The start (Home)", () => 0), step("‹", "The move before (←)", () => live.ply - 1),
    step("›", "The move after (→)", () => live.ply + 1), step("»", "The end (End)", () => t.moves.length),
    el("span", {class: "dim", id: "step-at"}));
}

function drawTable(t) {
  live.table = t;
  live.at = performance.now();
  document.title = `Table ${t.id}: ${t.white ? t.white.name : "?"} – ${t.black ? t.black.name : "?"} · Round Table`;
  $("title").textContent = `Table ${t.id}`;
  Board.draw($("board"), t.position, t.last_move);
  $("board").dataset.ply = t.moves.length;
  drawSeat(t, "black");
  drawSeat(t, "white");
  tickClocks();
  $("status").textContent = tableStatus(t);
  $("status").dataset.ply = t.moves.length;
  $("status").dataset.drawnAt = Date.now();     // when this ply was drawn (the tests read it)
  const watching = t.spectators ? ` · ${t.spectators} watching` : "";
  $("detail").textContent = `${t.time_control}${t.rated ? " · rated" : " · casual"} · ${t.moves.length} moves${watching}`;
  drawMoves(t);
  const links = [el("a", {class: "button", href: `/api/table/${t.id}`, text: "JSON"})];
  if (t.status === "finished") {
    links.unshift(el("a", {class: "button", href: `/api/game/${t.id}.camelot`, text: "Download the record",
                           download: `game-${t.id}.camelot`}));
  }
  $("links").replaceChildren(...(t.replay ? [stepControls(t)] : []), ...links);
  if (t.replay) showPly(t.moves.length);
}

function stepByHand() {
  $("moves").addEventListener("click", (event) => {
    const span = event.target.closest("[data-ply]");
    if (span && live.table && live.table.replay) showPly(Number(span.dataset.ply));
  });
  document.addEventListener("keydown", (event) => {
    if (!live.table || !live.table.replay || event.target.closest("input")) return;
    if (event.key === "ArrowLeft") showPly(live.ply - 1);
    else if (event.key === "ArrowRight") showPly(live.ply + 1);
    else if (event.key === "Home") showPly(0);
    else if (event.key === "End") showPly(live.table.moves.length);
    else if (event.key === "Enter" && event.target.dataset.ply) showPly(Number(event.target.dataset.ply));
    else return;
    event.preventDefault();
  });
}

/* The table's changes pushed over a WebSocket; resolves when it closes, true if
   it delivered anything (false: no stream here, follow by long polling instead). */
function streamTable(id) {
  return new Promise((done) => {
    let delivered = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}/api/watch/${encodeURIComponent(id)}`);
    } catch (error) {
      done(false);
      return;
    }
    ws.onmessage = (event) => {
      delivered = true;
      const t = JSON.parse(event.data);
      drawTable(t);
      if (t.status === "finished") ws.close();   // a finished game never changes
    };
    ws.onclose = () => done(delivered);
  });
}

async function pollTable(id) {
  let version = live.table ? live.table.version : null;
  for (;;) {
    try {
      const since = version ? `?since=${encodeURIComponent(version)}` : "";
      const asked = performance.now();
      const t = await getJSON(`/api/table/${encodeURIComponent(id)}${since}`);
      if (t.version === version && performance.now() - asked < 1000) await sleep(1000);  // not held: busy
      drawTable(t);
      version = t.version;
      if (t.status === "finished") return;      // a finished game never changes
    } catch (error) {
      showError($("status"), error);
      await sleep(2000);
    }
  }
}

async function tablePage() {
  const id = pathPart(2);
  setInterval(tickClocks, 100);
  stepByHand();
  for (let tries = 0; ; tries++) {
    const delivered = await streamTable(id);
    if (live.table && live.table.status === "finished") return;
    if (!delivered || tries >= 3) break;       // no stream here, or it keeps dropping
    await sleep(1000);
  }
  await pollTable(id);
}

/* --- a player -------------------------------------------------------------------- */
async function playerPage() {
  const name = pathPart(2), offset = parseInt(query.get("offset") || "0", 10) || 0;
  linkRows($("games").tBodies[0]);
  $("title").textContent = name;
  document.title = `${name} · Round Table`;
  try {
    const p = await getJSON(`/api/player/${encodeURIComponent(name)}?offset=${offset}`);
    const about = [p.guest ? "Guest" : "Account"];
    if (p.created) about.push(`since ${p.created.slice(0, 10)}`);
    if (p.online) about.push("online now");
    $("about").textContent = about.join(" · ");
    $("about").append(" · ", el("a", {href: `/archive?player=${encodeURIComponent(name)}`, text: "in the archive"}));
    const classes = Object.entries(p.ratings || {});
    $("ratings").replaceChildren(...(classes.length ? classes.map(([cls, r]) =>
      el("div", {class: "rating-card"}, el("div", {class: "dim", text: cls}),
        el("div", {class: "value", text: `${Math.round(r.rating)}${r.provisional ? "?" : ""}`}),
        el("div", {class: "dim", text: `± ${Math.round(2 * r.rd)} · ${r.games} games`}))) :
      [el("p", {class: "note", text: p.guest ? "Guests play casual games: no rating." : "No rated games yet."})]));
    showGames($("games"), p.games);
    $("empty").hidden = p.games.length > 0;
    pager($("pager"), offset, p.next, (o) => `?offset=${o}`);
  } catch (error) {
    showError($("about"), error);
  }
}

/* --- the leaderboard ------------------------------------------------------------- */
async function leaderboardPage() {
  const cls = query.get("class"), offset = parseInt(query.get("offset") || "0", 10) || 0;
  const params = new URLSearchParams({offset});
  if (cls) params.set("class", cls);
  try {
    const board = await getJSON(`/api/leaderboard?${params}`);
    $("classes").replaceChildren(...board.time_classes.map((c) =>
      el("a", {class: `button${c === board.time_class ? " current" : ""}`, href: `?class=${c}`, text: c})));
    $("rows").tBodies[0].replaceChildren(...board.rows.map((r) =>
      el("tr", {}, el("td", {class: "num", text: r.rank}), el("td", {}, playerLink(r.name)),
        el("td", {class: "num", text: Math.round(r.rating)}),
        el("td", {class: "num wide", text: Math.round(r.rd)}), el("td", {class: "num", text: r.games}))));
    $("empty").hidden = board.rows.length > 0;
    pager($("pager"), offset, board.next, (o) => `?class=${board.time_class}&offset=${o}`);
  } catch (error) {
    showError($("classes"), error);
  }
}

/* --- the archive ----------------------------------------------------------------- */
async function archivePage() {
  const player = (query.get("player") || "").trim(), offset = parseInt(query.get("offset") || "0", 10) || 0;
  $("player").value = player;
  const params = new URLSearchParams({offset});
  if (player) params.set("player", player);
  linkRows($("games").tBodies[0]);
  try {
    const archive = await getJSON(`/api/archive?${params}`);
    $("heading").textContent = player ? `Finished games of ${player}` : "The newest finished games";
    showGames($("games"), archive.games);
    $("empty").hidden = archive.games.length > 0;
    pager($("pager"), offset, archive.next, (o) => {
      const p = new URLSearchParams({offset: o});
      if (player) p.set("player", player);
      return `?${p}`;
    });
  } catch (error) {
    showError($("heading"), error);
  }
}

const PAGES = {lobby: lobbyPage, table: tablePage, player: playerPage,
               leaderboard: leaderboardPage, archive: archivePage};

document.addEventListener("DOMContentLoaded", () => {
  const page = document.body.dataset.page;
  const nav = document.querySelector(`nav a[data-nav="${page}"]`);
  if (nav) nav.setAttribute("aria-current", "page");
  if (PAGES[page]) PAGES[page]();
});
