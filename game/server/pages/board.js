/* The Camelot board as SVG: 12 files x 16 ranks, the castles F1-G1 (White's)
   and F16-G16 (Black's), White at the bottom. Only the board's shape lives
   here; every rule question was answered by the server's engine. */
"use strict";

const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const FILES = "ABCDEFGHIJKL";
  const SPAN = {1: [5, 6], 16: [5, 6], 2: [2, 9], 15: [2, 9], 3: [1, 10], 14: [1, 10]};
  const C = 10, MX = 7, MY = 10;                      // a square; the margins
  const WIDTH = 12 * C + 2 * MX, HEIGHT = 16 * C + 2 * MY;
  const COLORS = {
    light: "#e2d0aa", dark: "#b49266", frame: "#54361f", frameEdge: "#342012", label: "#ece2c8",
    castle: {white: "#ece4ce", black: "#5c627a"},
    piece: {white: ["#f6f0e0", "#70583e", "#c4b698"], black: ["#282e42", "#0c0e16", "#545e7c"]},
    crown: "#e4b840", crownEdge: "#785414", path: "#ffd65a", pathLine: "#ff9248", capture: "#eb5046",
  };

  const span = (rank) => SPAN[rank] || [0, 11];
  const x = (file) => MX + file * C;
  const y = (rank) => MY + (16 - rank) * C;

  function squares() {
    const out = [];
    for (let rank = 16; rank >= 1; rank--) {
      const [first, last] = span(rank);
      for (let f = first; f <= last; f++) out.push({file: f, rank, name: FILES[f] + rank});
    }
    return out;
  }

  /* "2/8/10/…/2 w 2 2" → {"F16": "n", …}: the board field, rank 16 first. */
  function pieces(position) {
    const rows = position.split(" ")[0].split("/");
    const found = {};
    rows.forEach((row, i) => {
      const rank = 16 - i;
      let f = span(rank)[0];
      for (const token of row.match(/[0-9]+|./g) || []) {
        if (/^[0-9]+$/.test(token)) f += parseInt(token, 10);
        else found[FILES[f++] + rank] = token;
      }
    });
    return found;
  }

  function node(name, attrs, parent) {
    const el = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (parent) parent.appendChild(el);
    return el;
  }

  function centre(name) {
    const file = FILES.indexOf(name[0]), rank = parseInt(name.slice(1), 10);
    return [x(file) + C / 2, y(rank) + C / 2];
  }

  function drawSquares(svg) {
    const all = squares();
    const edge = node("g", {fill: COLORS.frameEdge}, svg);
    const frame = node("g", {fill: COLORS.frame}, svg);
    for (const s of all) {
      node("rect", {x: x(s.file) - 2.2, y: y(s.rank) - 2.2, width: C + 4.4, height: C + 4.4, rx: 1}, edge);
      node("rect", {x: x(s.file) - 1.6, y: y(s.rank) - 1.6, width: C + 3.2, height: C + 3.2}, frame);
    }
    const cells = node("g", {}, svg);
    for (const s of all) {
      if (s.rank === 1 || s.rank === 16) continue;
      node("rect", {x: x(s.file), y: y(s.rank), width: C, height: C,
                    fill: (s.file + s.rank) % 2 ? COLORS.light : COLORS.dark}, cells);
    }
    for (const [rank, colour, out] of [[1, "white", 1], [16, "black", -1]]) {
      node("rect", {x: x(5), y: y(rank), width: 2 * C, height: C, fill: COLORS.castle[colour],
                    stroke: COLORS.frameEdge, "stroke-width": 0.5}, svg);
      const wall = out > 0 ? y(rank) + C + 1.6 : y(rank) - 4.2;   // battlements beyond the frame
      for (let i = 0; i < 5; i++) {
        node("rect", {x: x(5) + 0.8 + i * 3.9, y: wall, width: 2.4, height: 2.6,
                      fill: COLORS.frame, stroke: COLORS.frameEdge, "stroke-width": 0.4}, svg);
      }
    }
  }

  function drawLabels(svg) {
    const g = node("g", {fill: COLORS.label, "font-size": 3.4, "font-family": "DejaVu Sans, sans-serif",
                         "text-anchor": "middle"}, svg);
    for (let f = 0; f < 12; f++) {
      for (const ty of [3.8, HEIGHT - 1.6]) {
        node("text", {x: x(f) + C / 2, y: ty}, g).textContent = FILES[f];
      }
    }
    for (let rank = 1; rank <= 16; rank++) {
      const [first, last] = span(rank);
      node("text", {x: x(first) - 3.4, y: y(rank) + C / 2 + 1.2}, g).textContent = rank;
      node("text", {x: x(last + 1) + 3.4, y: y(rank) + C / 2 + 1.2}, g).textContent = rank;
    }
  }

  function drawMove(svg, last) {
    if (!last || !last.path || last.path.length < 2) return;
    const g = node("g", {}, svg);
    for (const sq of last.path) {
      const [cx, cy] = centre(sq);
      node("rect", {x: cx - C / 2, y: cy - C / 2, width: C, height: C, fill: COLORS.path,
                    "fill-opacity": 0.45}, g);
    }
    for (const sq of last.captures || []) {
      const [cx, cy] = centre(sq);
      node("circle", {cx, cy, r: 3.2, fill: "none", stroke: COLORS.capture, "stroke-width": 0.9,
                      "stroke-dasharray": "1.4 1"}, g);
    }
    return last;
  }

  function drawPath(svg, last) {
    if (!last || !last.path || last.path.length < 2) return;
    const points = last.path.map((sq) => centre(sq).join(",")).join(" ");
    node("polyline", {points, fill: "none", stroke: COLORS.pathLine, "stroke-width": 1.1,
                      "stroke-linecap": "round", "stroke-linejoin": "round", "stroke-opacity": 0.9}, svg);
    const [ex, ey] = centre(last.path[last.path.length - 1]);
    node("circle", {cx: ex, cy: ey, r: 1.3, fill: COLORS.pathLine}, svg);
  }

  function drawPiece(g, sq, letter) {
    const [cx, cy] = centre(sq);
    const colour = letter === letter.toUpperCase() ? "white" : "black";
    const [body, rim, groove] = COLORS.piece[colour];
    const piece = node("g", {"data-square": sq, "data-piece": letter}, g);
    node("circle", {cx: cx + 0.35, cy: cy + 0.5, r: 4.1, fill: "#000", "fill-opacity": 0.3}, piece);
    node("circle", {cx, cy, r: 4.1, fill: body, stroke: rim, "stroke-width": 0.7}, piece);
    node("circle", {cx, cy, r: 2.7, fill: "none", stroke: groove, "stroke-width": 0.45}, piece);
    if (letter.toUpperCase() === "N") {              // a knight wears a crown
      const d = `M${cx - 2.4},${cy + 1.4} L${cx - 2.6},${cy - 1.6} L${cx - 1.1},${cy - 0.2} ` +
                `L${cx},${cy - 2.2} L${cx + 1.1},${cy - 0.2} L${cx + 2.6},${cy - 1.6} L${cx + 2.4},${cy + 1.4} Z`;
      node("path", {d, fill: COLORS.crown, stroke: COLORS.crownEdge, "stroke-width": 0.35}, piece);
    }
  }

  /* Draw ``position`` (a position string) into ``svg``, the last move marked. */
  function draw(svg, position, last) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    drawSquares(svg);
    drawLabels(svg);
    drawMove(svg, last);
    const g = node("g", {}, svg);
    for (const [sq, letter] of Object.entries(pieces(position))) drawPiece(g, sq, letter);
    drawPath(svg, last);
  }

  return {draw, pieces};
})();
