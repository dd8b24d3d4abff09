// tessera viewer: draws the views the server (or an embedded report) hands over.
// Three views: "board", "replay" (a board changing step by step) and "charts".
// Replay steps leave out empty fields (set, clear, marks, text_at, score): long replays stay small.
"use strict";
(function () {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const CELL = 24;
  const HEX_R = CELL / Math.sqrt(3);
  // Triangles (as the server's SVG draws them): side TRI, up where col + row is even.
  const TRI = 32;
  const TRI_H = TRI * Math.sqrt(3) / 2;
  const up = (c, r) => ((c + r) % 2 + 2) % 2 === 0;
  const EMPTY = "#eeeeee";

  // ---- small DOM helpers ----------------------------------------------------------------
  function html(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  const key = (c, r) => c + "," + r;

  // ---- boards -------------------------------------------------------------------------
  function centre(lattice, col, row) {
    if (lattice === "hex") {
      const shift = ((row % 2) + 2) % 2 === 1 ? 0.5 : 0;
      return [CELL * (col + shift + 0.5), HEX_R * (1 + 1.5 * row)];
    }
    if (lattice === "triangle") return [TRI / 2 * (col + 1), TRI_H * (row + (up(col, row) ? 2 / 3 : 1 / 3))];
    return [CELL * (col + 0.5), CELL * (row + 0.5)];
  }
  function hexPoints(x, y) {
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 3) * k + Math.PI / 6;
      pts.push((x + HEX_R * Math.cos(a)).toFixed(1) + "," + (y + HEX_R * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }
  function trianglePoints(col, row) {
    const x = TRI / 2 * (col + 1), top = TRI_H * row;
    const pts = up(col, row)
      ? [[x, top], [x + TRI / 2, top + TRI_H], [x - TRI / 2, top + TRI_H]]
      : [[x - TRI / 2, top], [x + TRI / 2, top], [x, top + TRI_H]];
    return pts.map(([a, b]) => a.toFixed(1) + "," + b.toFixed(1)).join(" ");
  }

  // A drawing of every cell a view may use; cells change label without being rebuilt.
  class Drawing {
    constructor(lattice, positions, palette, labels) {
      this.lattice = lattice;
      this.palette = palette || {};
      this.labels = labels !== false;
      this.shapes = new Map();
      this.marked = [];
      let w = 0, h = 0;
      for (const [c, r] of positions) {
        const [x, y] = centre(lattice, c, r);
        w = Math.max(w, x); h = Math.max(h, y);
      }
      const halfH = lattice === "hex" ? HEX_R : lattice === "triangle" ? TRI_H * 2 / 3 : CELL / 2;
      const halfW = lattice === "triangle" ? TRI / 2 : CELL / 2;
      const width = w + halfW + 2, height = h + halfH + 2;
      // Small boards are drawn bigger.
      const scale = Math.max(1, Math.min(3, 320 / width));
      this.svg = svg("svg", { viewBox: `-1 -1 ${width.toFixed(1)} ${height.toFixed(1)}`, width: (width * scale).toFixed(0), height: (height * scale).toFixed(0), role: "img" });
      const g = svg("g", { stroke: "#ffffff", "stroke-width": "1.5", "text-anchor": "middle" });
      this.svg.append(g);
      for (const [c, r] of positions) {
        const k = key(c, r);
        if (this.shapes.has(k)) continue;
        const [x, y] = centre(lattice, c, r);
        const shape = lattice === "hex"
          ? svg("polygon", { points: hexPoints(x, y), class: "cell" })
          : lattice === "triangle"
          ? svg("polygon", { points: trianglePoints(c, r), class: "cell" })
          : svg("rect", { x: (x - CELL / 2).toFixed(1), y: (y - CELL / 2).toFixed(1), width: CELL, height: CELL, class: "cell" });
        const text = svg("text", { x: x.toFixed(1), y: (y + 4).toFixed(1), stroke: "none", fill: "#000" });
        g.append(shape, text);
        this.shapes.set(k, { shape, text, label: null });
        this.set(c, r, ".");
      }
    }
    set(c, r, label) {
      const s = this.shapes.get(key(c, r));
      if (!s || s.label === label) return;
      s.label = label;
      s.shape.setAttribute("fill", label === "." ? EMPTY : (this.palette[label] || "#999999"));
      s.text.textContent = label === "." || !this.labels ? "" : label;
    }
    // Outlines these cells (and no others).
    mark(cells) {
      for (const s of this.marked) { s.shape.setAttribute("stroke", "#ffffff"); s.shape.setAttribute("stroke-width", "1.5"); }
      this.marked = [];
      for (const [c, r] of cells || []) {
        const s = this.shapes.get(key(c, r));
        if (s) { s.shape.setAttribute("stroke", "#000000"); s.shape.setAttribute("stroke-width", "3"); this.marked.push(s); }
      }
    }
  }

  function renderBoard(v) {
    const d = new Drawing(v.lattice, v.cells, v.palette, v.labels);
    for (const [c, r, l] of v.cells) d.set(c, r, l);
    d.mark(v.marks);
    // Each piece outlined, so that pieces of one colour side by side are told apart.
    if (v.outline) d.svg.append(svg("path", { d: v.outline, class: "outline", fill: "none", stroke: "#1d232a", "stroke-width": "2", "stroke-linecap": "round" }));
    const box = html("div", { class: "view board", "data-view": "board" }, html("h3", {}, v.title), d.svg);
    for (const line of v.caption || []) box.append(html("p", { class: "caption" }, line));
    return box;
  }

  // ---- replays ------------------------------------------------------------------------
  const SNAPSHOT_EVERY = 64;

  function renderReplay(v) {
    for (const s of v.steps) { s.set = s.set || []; s.clear = s.clear || []; s.marks = s.marks || []; }
    const positions = v.start.map(([c, r]) => [c, r]);
    for (const s of v.steps) for (const [c, r] of s.set) positions.push([c, r]);
    for (const s of v.steps) for (const [c, r] of s.clear) positions.push([c, r]);
    const d = new Drawing(v.lattice, positions, v.palette, v.labels);
    // state[k]: label of every cell after k steps; snapshots every SNAPSHOT_EVERY steps.
    let state = new Map();
    for (const [c, r, l] of v.start) state.set(key(c, r), l);
    const snapshots = [new Map(state)];
    const apply = (st, step) => {
      for (const [c, r] of step.clear) st.set(key(c, r), ".");
      for (const [c, r, l] of step.set) st.set(key(c, r), l);
    };
    for (let k = 0; k < v.steps.length; k++) {
      apply(state, v.steps[k]);
      if ((k + 1) % SNAPSHOT_EVERY === 0) snapshots.push(new Map(state));
    }
    const labelsAt = (n) => {
      const st = new Map(snapshots[Math.floor(n / SNAPSHOT_EVERY)]);
      for (let k = Math.floor(n / SNAPSHOT_EVERY) * SNAPSHOT_EVERY; k < n; k++) apply(st, v.steps[k]);
      return st;
    };

    const n = v.steps.length;
    // A last step that is the verdict is no unit: "move k of" counts the moves alone.
    const units = v.verdict ? n - 1 : n;
    const box = html("div", { class: "view replay", "data-view": "replay", "data-steps": String(n) });
    const caption = html("p", { class: "caption" });
    const position = html("span", { class: "position" });
    const slider = html("input", { type: "range", min: "0", max: String(n), value: "0", "aria-label": "step" });
    const play = html("button", { class: "play", type: "button" }, "play");
    const rates = n > 2000 ? [1, 5, 20, 100, 500, 2000] : [1, 5, 20, 100, 500];
    const speed = html("select", { class: "speed", "aria-label": "speed" },
      ...rates.map((s) => html("option", { value: String(s) }, s + " " + v.unit + "s/s")));
    speed.value = "20";
    // The score so far, for games that keep one.
    const scored = v.steps.some((s) => s.score != null);
    const score = html("span", { class: "score" });
    const text = v.text ? renderText(v.text, v.highlights) : null;
    let at = 0, timer = null;

    function show(target) {
      target = Math.max(0, Math.min(n, target));
      const st = Math.abs(target - at) < SNAPSHOT_EVERY && target > at ? null : labelsAt(target);
      if (st) { for (const [k, l] of st) { const [c, r] = k.split(",").map(Number); d.set(c, r, l); } }
      else { for (let k = at; k < target; k++) { const s = v.steps[k]; for (const [c, r] of s.clear) d.set(c, r, "."); for (const [c, r, l] of s.set) d.set(c, r, l); } }
      at = target;
      const step = at > 0 ? v.steps[at - 1] : null;
      d.mark(step ? step.marks : []);
      slider.value = String(at);
      box.dataset.step = String(at);
      position.textContent = at > units ? `the end (${units} ${v.unit}${units === 1 ? "" : "s"})` : `${v.unit} ${at} of ${units}`;
      caption.textContent = step ? step.caption : "start";
      if (scored) {
        let k = at - 1;
        while (k >= 0 && v.steps[k].score == null) k--;
        const value = k >= 0 ? v.steps[k].score : 0;
        score.textContent = "score " + value;
        box.dataset.score = String(value);
      }
      if (text) text.moveTo(step && step.text_at != null ? step.text_at : 0);
    }
    function stop() { if (timer) { clearInterval(timer); timer = null; play.textContent = "play"; } }
    function start() {
      if (at >= n) show(0);
      const rate = Number(speed.value);
      const per = Math.max(1, Math.round(rate / 50));
      timer = setInterval(() => { if (at >= n) stop(); else show(at + per); }, Math.max(20, 1000 / rate));
      play.textContent = "pause";
    }
    play.addEventListener("click", () => (timer ? stop() : start()));
    speed.addEventListener("change", () => { if (timer) { stop(); start(); } });
    slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
    const back = html("button", { class: "step-back", type: "button", onclick: () => { stop(); show(at - 1); } }, "\u2039");
    const fwd = html("button", { class: "step-forward", type: "button", onclick: () => { stop(); show(at + 1); } }, "\u203a");
    const first = html("button", { class: "first", type: "button", onclick: () => { stop(); show(0); } }, "\u00ab");
    const last = html("button", { class: "last", type: "button", onclick: () => { stop(); show(n); } }, "\u00bb");
    box.tabIndex = 0;
    box.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight") { stop(); show(at + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { stop(); show(at - 1); e.preventDefault(); }
      else if (e.key === " ") { timer ? stop() : start(); e.preventDefault(); }
    });
    box.append(html("h3", {}, v.title), d.svg, caption,
      html("div", { class: "controls" }, first, back, play, fwd, last, slider, position, speed, ...(scored ? [score] : [])));
    if (text) box.append(text.element);
    show(n > 0 && v.unit === "solution" ? 1 : 0);
    return box;
  }

  // The command string: characters up to the current position drawn dark, phrases marked, the
  // current character outlined and kept in sight. A long string is drawn a window at a time.
  const TEXT_CHUNK = 1500;
  function renderText(text, highlights) {
    const element = html("div", { class: "commands", "data-view": "commands" });
    const inPhrase = new Uint8Array(text.length);
    for (const [a, b] of highlights || []) for (let i = a; i < b && i < text.length; i++) inPhrase[i] = 1;
    const whole = text.length <= 3 * TEXT_CHUNK;
    let from = -1, to = -1, chars = [], done = 0, now = null, scrolling = false, active = [];
    // Highlights by start; the longest one bounds how far back a phrase around a position starts.
    const spans = (highlights || []).slice().sort((x, y) => x[0] - y[0]);
    const longest = spans.reduce((m, [a, b]) => Math.max(m, b - a), 0);
    // The phrases the character before `pos` is part of: drawn stronger.
    function activate(pos) {
      for (const span of active) span.classList.remove("active");
      active = [];
      const i = pos - 1;
      let lo = 0, hi = spans.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (spans[mid][0] < i - longest) lo = mid + 1; else hi = mid; }
      for (let k = lo; k < spans.length && spans[k][0] <= i; k++) {
        if (spans[k][1] <= i) continue;
        for (let j = Math.max(from, spans[k][0]); j < Math.min(to, spans[k][1]); j++) { chars[j - from].classList.add("active"); active.push(chars[j - from]); }
      }
    }
    // Draws the window around `pos`; false if it is already drawn.
    function build(pos) {
      const c = Math.floor(pos / TEXT_CHUNK);
      const a = whole ? 0 : Math.max(0, (c - 1) * TEXT_CHUNK);
      const b = whole ? text.length : Math.min(text.length, (c + 2) * TEXT_CHUNK);
      if (a === from && b === to) return false;
      from = a; to = b; chars = []; now = null; active = [];
      const parts = [];
      if (a > 0) parts.push(html("span", { class: "more" }, `\u2026 ${a} characters before \u2026\n`));
      for (let i = a; i < b; i++) {
        const span = html("span", inPhrase[i] ? { class: "phrase" } : {}, text[i]);
        chars.push(span);
        parts.push(span);
      }
      if (b < text.length) parts.push(html("span", { class: "more" }, `\n\u2026 ${text.length - b} characters more`));
      element.replaceChildren(...parts);
      return true;
    }
    return {
      element,
      moveTo(pos) {
        pos = Math.max(0, Math.min(text.length, pos));
        const [lo, hi] = build(pos) ? [from, to] : [Math.max(from, Math.min(done, pos)), Math.min(to, Math.max(done, pos))];
        for (let i = lo; i < hi; i++) chars[i - from].classList.toggle("done", i < pos);
        if (now) now.classList.remove("now");
        now = pos > from && pos <= to ? chars[pos - 1 - from] : null;
        if (now) now.classList.add("now");
        activate(pos);
        done = pos;
        // Scrolled once a frame: reading positions after every step would lay the page out again.
        if (!scrolling) {
          scrolling = true;
          requestAnimationFrame(() => {
            scrolling = false;
            if (!now) return;
            const y = now.offsetTop;
            if (y < element.scrollTop || y > element.scrollTop + element.clientHeight - 16) element.scrollTop = Math.max(0, y - element.clientHeight / 2);
          });
        }
      },
    };
  }

  // ---- charts -------------------------------------------------------------------------
  const pct = (x) => (100 * x).toFixed(2) + "%";

  // Charts size themselves to their labels: every text is measured in the charts' font (or
  // estimated where no canvas is at hand), so that none is cut off at an edge.
  const CHART_FONT = "11px system-ui, -apple-system, \"Segoe UI\", sans-serif";
  const measurer = (() => { try { return document.createElement("canvas").getContext("2d"); } catch (e) { return null; } })();
  function textWidth(text) {
    if (measurer) { measurer.font = CHART_FONT; return Math.ceil(measurer.measureText(text).width * 1.05) + 2; }
    return 7 * text.length;
  }
  // A text at x, anchored as asked unless that would cut it off at an edge of [0, width].
  function label(x, y, text, anchor, width, attrs) {
    const w = textWidth(text);
    const left = anchor === "end" ? x - w : anchor === "middle" ? x - w / 2 : x;
    const fits = left >= 1 && left + w <= width - 1;
    const place = fits ? { x: x.toFixed(1), "text-anchor": anchor } : { x: Math.max(1, Math.min(width - w - 1, left)).toFixed(1), "text-anchor": "start" };
    const t = svg("text", Object.assign(place, { y: y }, attrs || {}));
    t.textContent = text;
    return t;
  }

  function renderRates(c) {
    const rowH = 22, barW = 360;
    const values = c.rows.map(([, r]) => `${r.successes}/${r.n} = ${pct(r.rate)} (${pct(r.low)}..${pct(r.high)})`);
    const labelW = Math.max(60, ...c.rows.map(([l]) => textWidth(l))) + 12;
    const width = Math.ceil(labelW + barW + 12 + Math.max(textWidth("100%"), ...values.map(textWidth)));
    const height = rowH * c.rows.length + 24;
    const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, width: String(width), height: String(height) });
    const axisY = rowH * c.rows.length + 4;
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      const x = labelW + barW * t;
      s.append(svg("line", { x1: x, x2: x, y1: 0, y2: axisY, stroke: "#e3e7eb" }));
      s.append(label(x, axisY + 14, (100 * t) + "%", "middle", width, { fill: "#66707a" }));
    }
    c.rows.forEach(([name, r], k) => {
      const y = k * rowH + 4;
      s.append(label(labelW - 8, y + 13, name, "end", width));
      s.append(svg("rect", { x: labelW, y: y + 3, width: (barW * r.rate).toFixed(1), height: 12, fill: "#2c6fbb", class: "rate-bar" }));
      const lo = labelW + barW * r.low, hi = labelW + barW * r.high;
      s.append(svg("line", { x1: lo, x2: hi, y1: y + 9, y2: y + 9, stroke: "#1d232a", "stroke-width": "1.5" }));
      for (const x of [lo, hi]) s.append(svg("line", { x1: x, x2: x, y1: y + 4, y2: y + 14, stroke: "#1d232a", "stroke-width": "1.5" }));
      s.append(label(labelW + barW + 12, y + 13, values[k], "start", width));
    });
    return html("div", { class: "chart", "data-chart": "rates" }, html("h4", {}, c.title + " (95% intervals)"), s);
  }

  function renderHistogram(c) {
    const values = c.values.filter((x) => Number.isFinite(x));
    // Above the plot, a row for each label that names a line: the reference, p50, p99.
    const width = 620, rowH = 13, top = 8 + 3 * rowH, bottom = 24, plotH = 140, height = top + plotH + bottom;
    const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, width: String(width), height: String(height) });
    const box = html("div", { class: "chart", "data-chart": "histogram" }, html("h4", {}, `${c.title} (${values.length} values, ${c.unit})`), s);
    if (values.length === 0) return box;
    let lo = Math.min(...values), hi = Math.max(...values);
    const sorted = values.slice().sort((a, b) => a - b);
    const quantile = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    // A reference far beyond the values would squash them into one bin: name it instead.
    const refShown = c.reference && c.reference[1] <= 2 * hi && c.reference[1] >= lo - (hi - lo);
    if (refShown) { lo = Math.min(lo, c.reference[1]); hi = Math.max(hi, c.reference[1]); }
    if (hi === lo) { hi = lo + 1; }
    const bins = Math.max(5, Math.min(40, Math.ceil(Math.sqrt(values.length))));
    const counts = new Array(bins).fill(0);
    for (const x of values) counts[Math.min(bins - 1, Math.floor(((x - lo) / (hi - lo)) * bins))]++;
    const most = Math.max(...counts);
    const left = Math.max(40, textWidth(String(most)) + 10), plotW = width - left - 10;
    const bw = plotW / bins;
    counts.forEach((n, k) => {
      const h = (plotH * n) / most;
      s.append(svg("rect", { x: (left + k * bw + 0.5).toFixed(1), y: (top + plotH - h).toFixed(1), width: Math.max(1, bw - 1).toFixed(1), height: h.toFixed(1), fill: "#2c6fbb", class: "bin" }));
    });
    const xAt = (x) => left + ((x - lo) / (hi - lo)) * plotW;
    // Enough decimals to tell values across the range apart.
    const decimals = Math.max(0, Math.min(8, Math.ceil(-Math.log10(hi - lo)) + 2));
    const fmt = (x) => (Math.abs(x) >= 1e6 ? x.toPrecision(6) : x.toFixed(decimals));
    s.append(label(xAt(lo), height - 6, fmt(lo) + " " + c.unit, "start", width, { fill: "#66707a" }));
    s.append(label(xAt(hi), height - 6, fmt(hi) + " " + c.unit, "end", width, { fill: "#66707a" }));
    s.append(label(left - 6, top + 8, String(most), "end", width, { fill: "#66707a" }));
    s.append(svg("line", { x1: left, x2: left + plotW, y1: top + plotH, y2: top + plotH, stroke: "#66707a" }));
    // A line from its label's row down through the plot, the label beside it, towards the middle.
    const marked = (x, row, text, colour, dash) => {
      const y = 8 + row * rowH;
      s.append(svg("line", { x1: x, x2: x, y1: y - 2, y2: top + plotH, stroke: colour, "stroke-dasharray": dash }));
      const right = x > left + plotW / 2;
      s.append(label(right ? x - 4 : x + 4, y + 8, text, right ? "end" : "start", width, { fill: colour }));
    };
    if (refShown) marked(xAt(c.reference[1]), 0, c.reference[0], "#b3261e", "4 3");
    else if (c.reference) s.append(label(width, 16, `${c.reference[0]}: ${fmt(c.reference[1])} ${c.unit} (off the scale)`, "end", width, { fill: "#b3261e" }));
    marked(xAt(quantile(0.5)), 1, `p50 ${fmt(quantile(0.5))}`, "#1d232a", "2 2");
    marked(xAt(quantile(0.99)), 2, `p99 ${fmt(quantile(0.99))}`, "#1d232a", "2 2");
    return box;
  }

  // Bars split in parts, each row with an optional reference tick.
  const PART_COLOURS = ["#2c6fbb", "#e0a526", "#6a9a3a", "#9a5bb0"];
  function renderBars(c) {
    const rowH = 22, barW = 360, legendH = 22;
    const height = legendH + rowH * c.rows.length + 6;
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    let most = 0;
    for (const r of c.rows) most = Math.max(most, sum(r.values), c.reference && r.reference != null ? r.reference : 0);
    if (!(most > 0)) most = 1;
    const names = c.rows.map((r) => (r.label.length > 30 ? r.label.slice(0, 29) + "\u2026" : r.label));
    const labelW = Math.max(60, ...names.map(textWidth)) + 12;
    const legendItems = c.parts.map((p, k) => [PART_COLOURS[k % PART_COLOURS.length], p, false]);
    if (c.reference) legendItems.push(["#b3261e", c.reference, true]);
    const legendEnd = labelW + legendItems.reduce((w, [, name]) => w + 24 + textWidth(name), 0);
    const width = Math.ceil(Math.max(legendEnd, labelW + barW + 12 + Math.max(0, ...c.rows.map((r) => textWidth(r.note)))));
    const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, width: String(width), height: String(height) });
    let lx = labelW;
    for (const [colour, name, tick] of legendItems) {
      s.append(tick ? svg("line", { x1: lx + 5, x2: lx + 5, y1: 3, y2: 15, stroke: colour, "stroke-width": "2.5" })
        : svg("rect", { x: lx, y: 4, width: 10, height: 10, fill: colour }));
      s.append(label(lx + 14, 13, name, "start", width));
      lx += 24 + textWidth(name);
    }
    c.rows.forEach((r, k) => {
      const y = legendH + k * rowH;
      const name = label(labelW - 8, y + 13, names[k], "end", width);
      const tip = svg("title"); tip.textContent = r.label; name.append(tip); s.append(name);
      let x = labelW;
      r.values.forEach((val, p) => {
        const w = Math.max(0, (barW * val) / most);
        s.append(svg("rect", { x: x.toFixed(1), y: y + 3, width: w.toFixed(1), height: 12, fill: PART_COLOURS[p % PART_COLOURS.length], class: "bar" }));
        x += w;
      });
      if (c.reference && r.reference != null) {
        const rx = labelW + (barW * r.reference) / most;
        s.append(svg("line", { x1: rx, x2: rx, y1: y + 1, y2: y + 17, stroke: "#b3261e", "stroke-width": "2.5", class: "reference" }));
      }
      s.append(label(labelW + barW + 12, y + 13, r.note, "start", width));
    });
    return html("div", { class: "chart", "data-chart": "bars" }, html("h4", {}, c.title), s);
  }

  function renderCharts(v) {
    const box = html("div", { class: "view charts", "data-view": "charts" }, html("h3", {}, v.title));
    if (v.figures.length) {
      box.append(html("table", { class: "figures" }, ...v.figures.map(([k, val]) => html("tr", {}, html("td", {}, k), html("td", {}, val)))));
    }
    for (const c of v.charts) box.append(c.chart === "rates" ? renderRates(c) : c.chart === "bars" ? renderBars(c) : renderHistogram(c));
    return box;
  }

  // ---- documents ------------------------------------------------------------------------
  function renderDocument(doc) {
    const box = html("div", { class: "document", "data-game": doc.game, "data-kind": doc.kind },
      html("h2", {}, `${doc.game} \u00b7 ${doc.kind} \u00b7 ${doc.name}`));
    for (const v of doc.views) {
      try {
        box.append(v.view === "board" ? renderBoard(v) : v.view === "replay" ? renderReplay(v) : renderCharts(v));
      } catch (e) {
        box.append(html("p", { class: "error" }, "cannot draw this view: " + e.message));
      }
    }
    return box;
  }

  function show(doc) {
    const main = document.getElementById("main");
    main.replaceChildren(renderDocument(doc));
  }

  // A report: the document is in the page.
  const embedded = document.getElementById("tessera-document");
  if (embedded) {
    show(JSON.parse(embedded.textContent));
    return;
  }

  // The served page: lists from the server.
  const status = (msg, isError) => {
    const s = document.getElementById("status");
    s.textContent = msg; s.className = isError ? "error" : "";
  };
  async function getJson(url, options) {
    const r = await fetch(url, options);
    const body = await r.json().catch(() => ({ error: "not JSON" }));
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  }
  async function open(id) {
    status("loading\u2026");
    try {
      show(await getJson("/api/documents/" + id));
      for (const b of document.querySelectorAll("#documents button")) b.classList.toggle("current", b.dataset.id === String(id));
      status("");
    } catch (e) { status(e.message, true); }
  }
  async function refresh() {
    const docs = await getJson("/api/documents");
    const list = document.getElementById("documents");
    list.replaceChildren(...docs.map((d) => html("li", {},
      html("button", { type: "button", "data-id": String(d.id), onclick: () => open(d.id) }, `${d.game} ${d.kind}: ${d.name}`))));
    return docs;
  }
  async function init() {
    const games = await getJson("/api/games");
    document.getElementById("demos").replaceChildren(...games.map((g) =>
      html("button", { type: "button", "data-game": g.game, title: g.shows, onclick: async () => {
        status(`solving the ${g.game} demonstration\u2026`);
        try { show(await getJson("/api/demo/" + g.game)); await refresh(); status(""); } catch (e) { status(e.message, true); }
      } }, g.game)));
    const docs = await refresh();
    if (docs.length > 0) await open(docs[0].id);
    document.getElementById("upload").addEventListener("change", async (e) => {
      const file = e.target.files[0];
      if (!file) return;
      status("reading " + file.name + "\u2026");
      try {
        const r = await getJson("/api/documents", { method: "POST", headers: { "X-Name": file.name }, body: await file.text() });
        await refresh(); await open(r.id);
      } catch (err) { status(err.message, true); }
      e.target.value = "";
    });
  }
  init().catch((e) => status(e.message, true));
})();
