// The viewer's script: lays the ranks' lanes out as rows of a canvas, draws the visible
// spans (merging those under a pixel into grey bands), and handles zoom, pan, hover and
// the selection of a task with the tasks it waited on. window.tesseraTest() is for tests.
#include "prof/viewer_template.h"

namespace tessera::detail {

const char* const kViewerScript = R"VIEWER((function () {
'use strict';
const DATA = /*TESSERA_DATA*/;
const KIND = ['task', 'inline', 'analysis', 'wait', 'copy'];
const LABEL_W = 190, AXIS_H = 24, RANK_H = 22, LANE_H = 20, MEM_H = 48;
const canvas = document.getElementById('timeline'), ctx = canvas.getContext('2d');
const tip = document.getElementById('tip'), info = document.getElementById('info');

// ---- model: one row per rank header, lane and memory pool ----
const rows = [];
let tEnd = 1;
for (const r of DATA.ranks) {
  rows.push({type: 'rank', rank: r, h: RANK_H});
  r.tasks = new Map();
  r.byOp = new Map();  // operation -> its analysis and tasks, on every lane
  r.preds = new Map();
  for (let i = 0; i + 1 < r.deps.length; i += 2) {
    if (!r.preds.has(r.deps[i])) r.preds.set(r.deps[i], []);
    r.preds.get(r.deps[i]).push(r.deps[i + 1]);
  }
  tEnd = Math.max(tEnd, r.offset + r.duration);
  for (const l of r.lanes) {
    const row = {type: l.kind === 'memory' ? 'memory' : 'lane', rank: r, lane: l,
                 h: l.kind === 'memory' ? MEM_H : LANE_H, layers: [[], []], items: [], busy: 0};
    for (const s of l.spans) {
      const o = {b: s[0] + r.offset, e: s[1] + r.offset, k: s[2], op: s[3], task: s[4],
                 d: r.strings[s[5]], bytes: s[6], row: row};
      row.layers[o.k === 3 ? 0 : 1].push(o);
      if (o.task >= 0) r.tasks.set(o.task, o);
      if (o.op >= 0) { if (!r.byOp.has(o.op)) r.byOp.set(o.op, []); r.byOp.get(o.op).push(o); }
      if (o.k !== 3 || l.kind !== 'program') row.busy += o.e - o.b;
    }
    for (const layer of row.layers) {  // running maximum of ends, to find the first visible span
      let m = -Infinity;
      layer.maxEnd = layer.map(o => (m = Math.max(m, o.e)));
    }
    if (row.type === 'memory') {
      row.mem = l.mem.map(m => ({t: m[0] + r.offset, used: m[1], cap: m[2], delta: m[3], what: r.strings[m[4]]}));
      row.peak = row.mem.reduce((p, m) => Math.max(p, m.used), 1);
      row.cap = row.mem.length ? row.mem[row.mem.length - 1].cap : 0;
    }
    rows.push(row);
  }
}
const view = {t0: 0, t1: tEnd};
let selected = null, drag = null;

// ---- formatting ----
function fmtTime(ns) {
  const a = Math.abs(ns);
  if (a < 1e3) return ns.toFixed(0) + ' ns';
  if (a < 1e6) return (ns / 1e3).toFixed(1) + ' \u00b5s';
  if (a < 1e9) return (ns / 1e6).toFixed(2) + ' ms';
  return (ns / 1e9).toFixed(3) + ' s';
}
function fmtBytes(b) {
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0, v = Math.abs(b);
  while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
  return (b < 0 ? '-' : '') + v.toFixed(i ? 1 : 0) + ' ' + u[i];
}
function opOf(s) { return s.op >= 0 ? s.row.rank.ops[s.op] : null; }
function nameOf(s) { const op = opOf(s); return op ? op[0] : s.d; }
function hue(text) { let h = 0; for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0; return Math.abs(h) % 360; }
function colour(s) {
  if (s.k === 3) return '#f6d0de';
  if (s.k === 4) return '#ff9800';
  return 'hsl(' + hue(nameOf(s)) + ',55%,' + (s.k === 2 ? 72 : 55) + '%)';
}
function describe(s) {
  const op = opOf(s), r = s.row.rank, lines = [];
  const what = {0: 'point task', 1: 'run inline on the program thread', 2: 'analysis (tiling, dependences)',
                3: 'blocked', 4: 'copy'}[s.k];
  lines.push(nameOf(s) + '  \u2014 ' + what);
  lines.push('duration: ' + fmtTime(s.e - s.b) + '   start: ' + fmtTime(s.b));
  if (s.k <= 1 && s.d) lines.push('tile: ' + s.d);
  else if (s.d && s.d !== nameOf(s)) lines.push(s.d);
  if (s.bytes) lines.push('bytes: ' + fmtBytes(s.bytes));
  if (op) lines.push('provenance: ' + (op[1] || '(not recorded: run with --provenance)'));
  if (op) lines.push('operation ' + s.op + ' over ' + op[2] + (s.task >= 0 ? ', task ' + s.task : ''));
  lines.push(s.row.lane.name + ', rank ' + r.rank);
  return lines.join('\n');
}

// ---- drawing ----
function plotWidth() { return Math.max(10, canvas.clientWidth - LABEL_W); }
function X(t) { return LABEL_W + (t - view.t0) / (view.t1 - view.t0) * plotWidth(); }
function T(x) { return view.t0 + (x - LABEL_W) / plotWidth() * (view.t1 - view.t0); }
function firstVisible(layer) {
  let lo = 0, hi = layer.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (layer.maxEnd[m] < view.t0) lo = m + 1; else hi = m; }
  return lo;
}
function drawLayer(row, layer, y, h) {
  let band = null;
  const flush = () => {
    if (!band) return;
    const w = Math.max(1, band.x1 - band.x0);
    ctx.fillStyle = band.n === 1 ? colour(band.first) : '#9e9e9e';
    ctx.fillRect(band.x0, y, w, h);
    row.items.push(band.n === 1 ? {x0: band.x0, x1: band.x0 + w, s: band.first, y: y, h: h}
                                : {x0: band.x0, x1: band.x0 + w, band: band, y: y, h: h});
    band = null;
  };
  for (let i = firstVisible(layer); i < layer.length && layer[i].b <= view.t1; i++) {
    const s = layer[i], x0 = Math.max(LABEL_W, X(s.b)), x1 = X(s.e);
    if (x1 < LABEL_W) continue;
    if (x1 - x0 < 1) {
      if (band && x0 <= band.x1 + 1) { band.x1 = Math.max(band.x1, x1); band.n++; band.last = s; }
      else { flush(); band = {x0: x0, x1: x1, n: 1, first: s, last: s}; }
      continue;
    }
    flush();
    ctx.fillStyle = colour(s);
    ctx.fillRect(x0, y, x1 - x0, h);
    if (x1 - x0 > 40) {
      ctx.fillStyle = '#000';
      ctx.save(); ctx.beginPath(); ctx.rect(x0, y, x1 - x0, h); ctx.clip();
      ctx.fillText(nameOf(s), x0 + 3, y + h - 5);
      ctx.restore();
    }
    row.items.push({x0: x0, x1: x1, s: s, y: y, h: h});
  }
  flush();
}
function drawMemory(row, y) {
  const m = row.mem, top = y + 4, h = row.h - 8, W = LABEL_W + plotWidth();
  const Y = v => top + h - v / row.peak * h;
  let i = 0;
  while (i + 1 < m.length && m[i + 1].t <= view.t0) i++;
  let used = m.length && m[i].t <= view.t0 ? m[i].used : 0;
  ctx.beginPath(); ctx.moveTo(LABEL_W, Y(used));
  for (; i < m.length && m[i].t <= view.t1; i++) {
    if (m[i].t < view.t0) continue;
    const x = X(m[i].t); ctx.lineTo(x, Y(used)); used = m[i].used; ctx.lineTo(x, Y(used));
  }
  ctx.lineTo(W, Y(used));
  ctx.strokeStyle = '#1565c0'; ctx.lineWidth = 1.5; ctx.stroke();
  ctx.lineTo(W, top + h); ctx.lineTo(LABEL_W, top + h); ctx.closePath();
  ctx.fillStyle = '#cfe3f780'; ctx.fill();
}
function drawAxis(W) {
  const range = view.t1 - view.t0, target = range / Math.max(1, plotWidth() / 110);
  let step = Math.pow(10, Math.floor(Math.log10(target)));
  for (const f of [2, 5, 10]) if (step < target) step = Math.pow(10, Math.floor(Math.log10(target))) * f;
  ctx.fillStyle = '#444'; ctx.strokeStyle = '#eee'; ctx.lineWidth = 1;
  for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
    const x = Math.round(X(t)) + 0.5;
    ctx.beginPath(); ctx.moveTo(x, AXIS_H - 6); ctx.lineTo(x, canvas.height); ctx.stroke();
    ctx.fillText(fmtTime(t), x + 3, AXIS_H - 9);
  }
}
function draw() {
  const dpr = window.devicePixelRatio || 1, W = canvas.clientWidth || 1000;
  let H = AXIS_H;
  for (const row of rows) H += row.h;
  canvas.style.height = H + 'px';
  canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, H);
  ctx.font = '11px system-ui, sans-serif';
  drawAxis(W);
  let y = AXIS_H;
  for (const row of rows) {
    row.y = y; row.items = [];
    if (row.type === 'rank') {
      const r = row.rank;
      ctx.fillStyle = '#37474f'; ctx.fillRect(0, y, W, row.h);
      ctx.fillStyle = '#fff'; ctx.font = 'bold 12px system-ui, sans-serif';
      ctx.fillText('rank ' + r.rank + ' \u2014 ' + r.host + ' \u2014 ' + fmtTime(r.duration) +
                   (r.meta.command ? ' \u2014 ' + r.meta.command : ''), 6, y + 15);
      ctx.font = '11px system-ui, sans-serif';
    } else {
      ctx.fillStyle = '#f5f5f5'; ctx.fillRect(0, y, LABEL_W, row.h);
      ctx.strokeStyle = '#eee'; ctx.beginPath(); ctx.moveTo(0, y + row.h - 0.5); ctx.lineTo(W, y + row.h - 0.5); ctx.stroke();
      ctx.fillStyle = '#222';
      let label = row.lane.name;
      if (row.type === 'memory') label += '  peak ' + fmtBytes(row.peak);
      else if (row.lane.kind !== 'program') label += '  ' + (100 * row.busy / Math.max(1, row.rank.duration)).toFixed(0) + '%';
      ctx.fillText(label, 6, y + row.h / 2 + 4);
      if (row.type === 'memory') drawMemory(row, y);
      else {
        const program = row.lane.kind === 'program';
        drawLayer(row, row.layers[0], y + 1, row.h - 2);
        drawLayer(row, row.layers[1], program ? y + 4 : y + 1, program ? row.h - 8 : row.h - 2);
      }
    }
    y += row.h;
  }
  if (selected) drawSelection();
}
function drawSelection() {
  const s = selected, mid = o => o.row.y + o.row.h / 2;
  ctx.lineWidth = 1; ctx.strokeStyle = '#1e88e5';  // the same operation elsewhere: analysis, other tiles
  for (const o of s.op >= 0 ? s.row.rank.byOp.get(s.op) : [])
    if (o !== s && o.e >= view.t0 && o.b <= view.t1) ctx.strokeRect(X(o.b), o.row.y + 1, Math.max(2, X(o.e) - X(o.b)), o.row.h - 2);
  ctx.lineWidth = 2;
  for (const id of s.row.rank.preds.get(s.task) || []) {
    const p = s.row.rank.tasks.get(id);
    if (!p) continue;
    ctx.strokeStyle = '#d32f2f';
    ctx.strokeRect(X(p.b), p.row.y + 1, Math.max(2, X(p.e) - X(p.b)), p.row.h - 2);
    ctx.beginPath(); ctx.moveTo(X(p.e), mid(p)); ctx.lineTo(X(s.b), mid(s)); ctx.stroke();
  }
  ctx.strokeStyle = '#000';
  ctx.strokeRect(X(s.b), s.row.y + 1, Math.max(2, X(s.e) - X(s.b)), s.row.h - 2);
}

// ---- interaction ----
function hit(x, y) {
  const row = rows.find(r => y >= r.y && y < r.y + r.h);
  if (!row || row.type === 'rank' || x < LABEL_W) return null;
  if (row.type === 'memory') return {row: row, memory: true};
  let best = null;
  for (const it of row.items)  // tasks are drawn after (inside) waits: prefer them
    if (x >= it.x0 - 0.5 && x <= it.x1 + 0.5 && y >= it.y && y < it.y + it.h) best = it;
  return best;
}
function memoryText(row, t) {
  let lo = 0, hi = row.mem.length;  // the last change at or before t
  while (lo < hi) { const m = (lo + hi) >> 1; if (row.mem[m].t <= t) lo = m + 1; else hi = m; }
  const last = lo ? row.mem[lo - 1] : null;
  const used = last ? last.used : 0;
  let text = row.lane.name + ' in use at ' + fmtTime(t) + ': ' + fmtBytes(used) + ' of ' + fmtBytes(row.cap) +
             ' (peak ' + fmtBytes(row.peak) + ')';
  if (last) text += '\nlast change: ' + (last.delta > 0 ? '+' : '') + fmtBytes(last.delta) +
                    (last.what ? ' for ' + last.what : '') + ' at ' + fmtTime(last.t);
  return text;
}
function tipText(h, x) {
  if (h.memory) return memoryText(h.row, T(x));
  if (h.band) return h.band.n + ' spans shorter than a pixel, merged: zoom in to see them\nfrom ' +
                     fmtTime(h.band.first.b) + ' to ' + fmtTime(h.band.last.e) + ' on ' + h.band.first.row.lane.name;
  return describe(h.s);
}
function pos(e) { const r = canvas.getBoundingClientRect(); return {x: e.clientX - r.left, y: e.clientY - r.top}; }
canvas.addEventListener('mousemove', e => {
  const p = pos(e);
  if (drag) {
    const dt = (p.x - drag.x) / plotWidth() * (drag.t1 - drag.t0);
    view.t0 = drag.t0 - dt; view.t1 = drag.t1 - dt;
    if (Math.abs(p.x - drag.x) > 2) drag.moved = true;
    draw(); tip.style.display = 'none'; return;
  }
  const h = hit(p.x, p.y);
  if (!h) { tip.style.display = 'none'; return; }
  tip.textContent = tipText(h, p.x);
  tip.style.display = 'block';
  tip.style.left = Math.min(e.clientX + 14, window.innerWidth - 300) + 'px';
  tip.style.top = (e.clientY + 14) + 'px';
});
canvas.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
canvas.addEventListener('wheel', e => {
  e.preventDefault();
  const p = pos(e), t = T(Math.max(LABEL_W, p.x)), f = Math.exp(e.deltaY * 0.0015);
  const range = Math.min(tEnd * 1.2, Math.max(1000, (view.t1 - view.t0) * f));
  const frac = (Math.max(LABEL_W, p.x) - LABEL_W) / plotWidth();
  view.t0 = t - frac * range; view.t1 = view.t0 + range;
  draw();
}, {passive: false});
canvas.addEventListener('mousedown', e => {
  const p = pos(e);
  drag = {x: p.x, t0: view.t0, t1: view.t1, moved: false};
  canvas.classList.add('dragging');
});
window.addEventListener('mouseup', e => {
  if (!drag) return;
  const moved = drag.moved;
  drag = null; canvas.classList.remove('dragging');
  if (!moved && e.target === canvas) select(pos(e));
});
canvas.addEventListener('dblclick', () => { view.t0 = 0; view.t1 = tEnd; draw(); });
function select(p) {
  const h = hit(p.x, p.y);
  selected = h && h.s && (h.s.task >= 0 || h.s.op >= 0) ? h.s : null;
  if (!selected) { info.textContent = 'Click a task to see what it waited on.'; draw(); return; }
  const r = selected.row.rank, lines = [describe(selected), ''];
  if (selected.task >= 0) {
    const preds = r.preds.get(selected.task) || [];
    lines.push(preds.length ? 'waited on (outlined in red):' : 'waited on no unfinished task');
    for (const id of preds) {
      const q = r.tasks.get(id);
      lines.push(q ? '  task ' + id + ' ' + nameOf(q) + ' ' + q.d + ' on ' + q.row.lane.name + ', ended at ' + fmtTime(q.e)
                   : '  task ' + id);
    }
  }
  if (selected.op >= 0) {  // follow the operation across lanes (outlined in blue)
    const same = r.byOp.get(selected.op), work = same.filter(o => o.k <= 1), a = same.find(o => o.k === 2);
    lines.push('operation ' + selected.op + ': ' + work.length + ' task(s), ' +
               fmtTime(work.reduce((t, o) => t + o.e - o.b, 0)) + ' of work' +
               (a ? '; analysed at ' + fmtTime(a.b) + ' in ' + fmtTime(a.e - a.b) + ' on ' + a.row.lane.name : ''));
  }
  info.textContent = lines.join('\n');
  draw();
}
window.addEventListener('resize', draw);

// ---- header and test hook ----
document.getElementById('meta').textContent = DATA.ranks.map(r =>
  'rank ' + r.rank + ' on ' + r.host + ': ' + fmtTime(r.duration) + (r.meta.command ? ', ' + r.meta.command : '') +
  (r.meta.cpus ? ' (' + r.meta.cpus + ' cpus)' : '')).join('\n');
draw();

// Counts of what is drawn, and the tooltip and selection of the longest task when hovered
// and clicked, through the real event handlers.
window.tesseraTest = function () {
  view.t0 = 0; view.t1 = tEnd; draw();
  const out = {ranks: DATA.ranks.length, lanes: [], boxes: 0, bands: 0, spans: 0, painted: 0};
  let best = null, bestScore = null;
  for (const row of rows) {
    if (row.type === 'rank') continue;
    out.lanes.push(row.lane.name);
    for (const it of row.items) it.band ? out.bands++ : out.boxes++;
    for (const layer of row.layers) {
      out.spans += layer.length;
      for (const s of layer) {
        if (s.k > 1) continue;  // prefer a task with provenance that waited on others, then the longest
        const score = [opOf(s) && opOf(s)[1] ? 1 : 0, row.rank.preds.has(s.task) ? 1 : 0, s.e - s.b];
        const better = !bestScore || score[0] !== bestScore[0] ? !bestScore || score[0] > bestScore[0]
                     : score[1] !== bestScore[1] ? score[1] > bestScore[1] : score[2] > bestScore[2];
        if (better) { best = s; bestScore = score; }
      }
    }
  }
  const img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  for (let i = 0; i < img.length; i += 4) if (img[i] < 250 || img[i + 1] < 250 || img[i + 2] < 250) out.painted++;
  if (best) {
    const d = Math.max(1000, best.e - best.b);
    view.t0 = best.b - d; view.t1 = best.e + d; draw();
    const r = canvas.getBoundingClientRect(), x = (X(best.b) + X(best.e)) / 2, y = best.row.y + best.row.h / 2;
    canvas.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + x, clientY: r.top + y, bubbles: true}));
    out.tooltip = tip.textContent;
    select({x: x, y: y});
    out.selected = selected ? selected.task : null;
    out.waitedOn = selected ? (selected.row.rank.preds.get(selected.task) || []).length : 0;
    out.info = info.textContent;
  }
  return out;
};
if (location.hash === '#selftest') {
  const pre = document.createElement('pre');
  pre.id = 'tessera-selftest';
  pre.textContent = JSON.stringify(window.tesseraTest());
  document.body.appendChild(pre);
}
})();
)VIEWER";

}  // namespace tessera::detail
