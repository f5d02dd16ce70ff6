// scand's setup page: the newest frame about 5 times a second, outlines of the codes in view (from the
// daemon's SCAN/UPDATE/LOST events on scand web's /events), the rect of interest to drag, the last scans and
// STATUS. Everything comes from `scand web` itself: a kiosk has no internet.
"use strict";

const $ = (id) => document.getElementById(id);
// The SVG namespace, taken from the page's own <svg> (the assets hold no URL at all).
const svgNS = $("overlay").namespaceURI;
const codes = new Map();   // id -> {polygon, label, normalized, format, text, seen}
let source = { width: 0, height: 0 };
let roi = { x: 0, y: 0, w: 1, h: 1 };
let dragging = null;
let sending = 0;  // rects of interest posted and not answered yet
let roiChanges = 0;  // rects of interest posted so far: a STATUS asked for before the last one is stale
let lastCaptured = null;
// What the badge says: scand web's event stream, the daemon (from STATUS), and the camera.
const health = { web: false, daemon: true, camera: "" };
// The sharpest figure seen since the page opened, or since the rect of interest or the camera changed: the
// sharpness is shown against it, as a person turning the focus ring looks for the best setting.
let focusBest = 0;

// The preview: one snapshot at a time, at most 5 a second.
async function snapshots() {
  for (;;) {
    const started = performance.now();
    try {
      const r = await fetch("/api/snapshot", { cache: "no-store" });
      if (r.ok) {
        const s = await r.json();
        $("frame").src = `data:${s.mime};base64,${s.data}`;
        $("frame").dataset.frame = s.frame;
        // The codes read in the newest frame decoded: an outline whose code has left is hidden at once, not
        // at its LOST (lost_after later).
        if (Array.isArray(s.inView)) {
          for (const [id, c] of codes) {
            const gone = !s.inView.includes(id);
            c.polygon.classList.toggle("gone", gone);
            c.label.classList.toggle("gone", gone);
          }
        }
        if (s.sourceWidth !== source.width || s.sourceHeight !== source.height) {
          source = { width: s.sourceWidth, height: s.sourceHeight };
          // The overlay in camera pixels: outlines and labels keep their shape whatever the page's size.
          $("overlay").setAttribute("viewBox", `0 0 ${source.width} ${source.height}`);
          for (const c of codes.values()) placeCode(c);
        }
        $("preview").classList.remove("no-frame");
        // The page's layout keeps the whole frame on screen: it needs the frame's shape.
        document.documentElement.style.setProperty("--aspect", (s.sourceWidth / s.sourceHeight).toFixed(4));
      } else {
        $("preview").classList.add("no-frame");
        showMessage($("frame-message"), (await r.json()).message);
      }
    } catch (e) { /* the daemon or scand web restarting: try again */ }
    await new Promise((done) => setTimeout(done, Math.max(0, 200 - (performance.now() - started))));
  }
}

// Events: outlines and the list of scans. Each stream starts with a VIEW of the present; a stream that ends
// is not resumed (EventSource would, from its last id) but opened anew, whose VIEW replaces what was missed.
function events() {
  const stream = new EventSource("/events?classes=SCAN,UPDATE,LOST,DEVICE&view=1");
  stream.onopen = () => { health.web = true; showHealth(); };
  stream.onerror = () => {
    stream.close();
    health.web = false;
    showHealth();
    for (const id of [...codes.keys()]) removeCode(id);
    setTimeout(events, 1000);
  };
  for (const name of ["VIEW", "SCAN", "UPDATE", "LOST", "DEVICE"]) {
    stream.addEventListener(name, (m) => {
      let e;
      try { e = JSON.parse(m.data); } catch { return; }
      onEvent(e);
    });
  }
}

function onEvent(e) {
  switch (e.class) {
    // scand web's first line: the last scans and the codes in view when the page opened (or reconnected).
    case "VIEW":
      $("scans").replaceChildren();
      for (const scan of e.scans) addScan(scan);
      for (const id of [...codes.keys()]) removeCode(id);
      for (const code of e.inView) showCode(code);
      break;
    case "SCAN": showCode(e); addScan(e); break;
    case "UPDATE": showCode(e); break;
    case "LOST": removeCode(e.id); break;
    case "DEVICE":
      health.camera = e.state;
      showHealth();
      // A camera (re)opened: its controls, as it has them now; its sharpness is a new scale.
      if (e.state === "streaming") { loadControls(); focusBest = 0; }
      if (e.state !== "streaming") for (const id of [...codes.keys()]) removeCode(id);
      break;
  }
}

// live / camera missing / daemon unreachable / scand web unreachable: what stands between the camera and
// this page, first what is furthest; it recovers by itself as the event stream and STATUS come back.
function showHealth() {
  let text = "live", kind = "ok";
  if (!health.web) [text, kind] = ["scand web unreachable", "bad"];
  else if (!health.daemon) [text, kind] = ["daemon unreachable", "bad"];
  else if (health.camera && health.camera !== "streaming") [text, kind] = ["camera missing", "warn"];
  $("connection").textContent = text;
  $("connection").className = "badge " + kind;
}

function showCode(e) {
  if (!e.normalized) return;
  let c = codes.get(e.id);
  if (!c) {
    const polygon = document.createElementNS(svgNS, "polygon");
    const label = document.createElementNS(svgNS, "text");
    $("overlay").append(polygon, label);
    c = { polygon, label, format: e.format, text: e.text || "" };
    codes.set(e.id, c);
  }
  if (e.text) c.text = e.text;
  c.normalized = e.normalized;
  c.polygon.dataset.id = e.id;
  c.polygon.dataset.format = c.format;
  // The event's normalized corners, for tests and tools: the drawn points are in camera pixels.
  c.polygon.dataset.normalized = JSON.stringify(e.normalized);
  placeCode(c);
  updateHint();
}

function placeCode(c) {
  if (!source.width || !c.normalized) return;
  const outline = (isLinear(c.format) && barsOutline(c)) || c.normalized;
  const px = outline.map((p) => [p[0] * source.width, p[1] * source.height]);
  c.polygon.setAttribute("points", px.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "));
  const size = Math.max(12, source.height * 0.035);
  c.label.setAttribute("font-size", size);
  c.label.setAttribute("y", Math.max(size, Math.min(...px.map((p) => p[1])) - size * 0.4));
  c.label.textContent = `${c.format} ${c.text}`.slice(0, 48);
  // Inside the frame: a code near its right edge keeps its label whole, moved left (camera pixels).
  const length = c.label.getComputedTextLength();
  c.label.setAttribute("x", Math.max(0, Math.min(Math.min(...px.map((p) => p[0])), source.width - length - size * 0.3)));
}

function removeCode(id) {
  const c = codes.get(id);
  if (!c) return;
  c.polygon.remove();
  c.label.remove();
  codes.delete(id);
  updateHint();
}

// 1D codes. zxing reports a linear read as the box of the scan lines that agreed: its length is the bars'
// length (the daemon joins a frame's lines of one code: BarsSpan), its height only what those lines crossed,
// often a strip along the bars' top. The size hint divides the read's length by the symbol's modules; the
// outline is drawn over the bars themselves, found in the newest frame.

// Modules from a linear symbol's first bar to its last, by its format as events name it (BarcodeFormat's
// name; the browser test reads a real symbol of every linear format through this page) and, for a length
// that varies, its text. Wide elements as zxing's writer draws them (Code 39 2:1, ITF 3:1): a label printed
// 3:1 has bars a little narrower than said.
const fixedModules = new Map([
  ["EAN-13", 95], ["UPC-A", 95], ["EAN-8", 67], ["UPC-E", 51],
  ["DataBar", 96], ["DataBarLimited", 74], ["DataBarStacked", 50],
]);
const textModules = new Map([
  ["Code128", code128Modules],
  ["Code39", (t) => 13 * (t.length + 2) - 1],
  ["Code93", (t) => 9 * (t.length + 4) + 1],
  ["Codabar", (t) => 10 * (t.length + 2) - 1],  // zxing's text leaves out the start and stop characters
  ["ITF", (t) => 9 * t.length + 9],
  ["DataBarExpanded", expandedModules],
]);
const isLinear = (format) => fixedModules.has(format) || textModules.has(format) || format === "DataBarExpandedStacked";

// Along the read's first edge (PX: its corners in pixels); null when the length needs a text not known yet
// (a code first seen in an UPDATE) or the outline does not tell, 0 for a matrix code.
function linearModules(format, text, px) {
  if (format === "DataBarExpandedStacked") return expandedStackedModules(text, px);
  if (fixedModules.has(format)) return fixedModules.get(format);
  if (!textModules.has(format)) return 0;
  return text ? textModules.get(format)(text) : null;
}

// zxing's outline of a stacked DataBar Expanded runs along its top row's first pair of characters (49
// modules) and its bottom row's last pair: edges of different lengths. A rectangle no taller than half its
// length is one row, the whole symbol. Other outlines (reads of several rows joined in a box) tell neither.
function expandedStackedModules(text, px) {
  const side = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const [top, bottom, height] = [side(px[0], px[1]), side(px[3], px[2]), side(px[0], px[3])];
  if (Math.abs(top - bottom) > 0.1 * Math.max(top, bottom)) return 49;
  return text && height < top / 2 ? expandedModules(text) : null;
}

// Code 128: 11 modules a character, start and check, a 13-module stop; digits in runs of 4 or more (or a
// text of an even number of digits only) go two to a character (code set C), with a switch to it.
function code128Modules(text) {
  let characters = 0;
  for (const run of text.match(/[0-9]+|[^0-9]+/g) || []) {
    const whole = run.length === text.length;
    if (/[0-9]/.test(run[0]) && (run.length >= 4 || (whole && run.length % 2 === 0))) {
      characters += Math.floor(run.length / 2) + (run.length % 2) + (whole ? 0 : 1);
    } else {
      characters += run.length;
    }
  }
  return 11 * (characters + 2) + 13;
}

// GS1 DataBar Expanded (ISO/IEC 24724): 12-bit characters and a check character, two characters and their
// finder a pair of 49 modules, guards of 2 at each end. Its bits, as an encoder spends them: a header (48
// with an (01) GTIN), then digits at 7 bits a pair, after a 4-bit latch digits at 5 and capitals at 6, after
// a 5-bit one anything at up to 8, back to pairs of digits for 3 bits; a separator after each element of a
// length that varies, but the last.
function expandedModules(text) {
  const elements = [...text.matchAll(/\((\d+)\)([^(]*)/g)];
  let bits = 5, data = "";
  elements.forEach(([, ai, value], i) => {
    if (i === 0 && ai === "01" && /^[0-9]{14}$/.test(value)) { bits = 48; return; }
    const fixed = /^(0[0-4]|1[1-9]|20|3[1-6]|41)/.test(ai);
    data += ai + value + (fixed || i === elements.length - 1 ? "" : "\x1d");
  });
  if (!elements.length) data = text;
  const digit = (ch) => ch !== undefined && /[0-9\x1d]/.test(ch);
  let mode = "numeric";
  for (let i = 0; i < data.length;) {
    const [ch, next] = [data[i], data[i + 1]];
    if (mode !== "numeric" && /^[0-9]{4}/.test(data.slice(i, i + 4))) { bits += 3; mode = "numeric"; }
    if (mode === "numeric") {
      if (digit(ch) && (digit(next) || next === undefined)) { bits += next === undefined ? 4 : 7; i += 2; continue; }
      bits += 4;
      mode = "alphanumeric";
    }
    if (mode === "alphanumeric" && !/[0-9A-Z*,./\x1d-]/.test(ch)) { bits += 5; mode = "iso"; }
    bits += digit(ch) ? 5 : mode === "alphanumeric" || /[A-Za-z]/.test(ch) ? (mode === "iso" ? 7 : 6) : 8;
    i += 1;
  }
  const characters = Math.max(4, Math.ceil(bits / 12) + 1);
  return 49 * Math.ceil(characters / 2) - (characters % 2 ? 17 : 0) + 4;
}

// A code's size when it can be judged: a 1D code by its narrowest bar (the read's length, its first
// corner to its second, over its modules), a 2D code by its shorter side; small under 1.5 camera pixels a
// bar or 60 pixels a side (a module is then 1–2 pixels).
function sizeOf(c) {
  if (!source.width || !c.normalized) return null;
  const px = c.normalized.map((p) => [p[0] * source.width, p[1] * source.height]);
  const side = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const modules = linearModules(c.format, c.text, px);
  if (modules === null) return null;
  if (modules) {
    const bar = side(px[0], px[1]) / modules;
    return { small: bar < 1.5, words: `bars ${bar.toFixed(1)} px wide` };
  }
  const shorter = Math.min(side(px[0], px[1]), side(px[1], px[2]));
  return { small: shorter < 60, words: `${Math.round(shorter)} px` };
}

// The hint names at most three codes (the preview keeps its room); every small one is outlined in amber.
function updateHint() {
  const small = [];
  for (const c of codes.values()) {
    const size = sizeOf(c);
    c.polygon.dataset.size = size ? size.words : "";
    c.polygon.classList.toggle("small", !!size?.small);
    if (size?.small) small.push(`${c.format} (${size.words})`);
  }
  const named = small.slice(0, 3).join(", ") + (small.length > 3 ? ` and ${small.length - 3} more` : "");
  $("hint").hidden = small.length === 0;
  $("hint").textContent = small.length
    ? `Too small to read reliably: ${named}. Move the camera closer or choose a larger capture size.` : "";
}

// The newest frame's pixels, read once a frame when an outline needs them.
let framePixels = null;
function pixels() {
  const img = $("frame");
  if (!framePixels && img.complete && img.naturalWidth) {
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [img.naturalWidth, img.naturalHeight];
    const g = canvas.getContext("2d", { willReadFrequently: true });
    g.drawImage(img, 0, 0);
    framePixels = { data: g.getImageData(0, 0, canvas.width, canvas.height).data, width: canvas.width, height: canvas.height };
  }
  return framePixels;
}

// A 1D code's bars, as normalized corners: rows across the code, from the middle of the read's lines
// outwards, are compared with that middle line (their light and dark along the code, correlated) in the
// newest frame; the bars end where a row no longer matches (the digits under an EAN, the label's edge).
// null when the read's own box covers as much, or the frame shows no bars there.
function barsOutline(c) {
  const f = pixels();
  if (!f || !source.width) return null;
  const px = c.normalized.map((p) => [p[0] * source.width, p[1] * source.height]);
  const d = [px[1][0] - px[0][0] + px[2][0] - px[3][0], px[1][1] - px[0][1] + px[2][1] - px[3][1]];
  const norm = Math.hypot(d[0], d[1]);
  const along = norm > 0 ? [d[0] / norm, d[1] / norm] : [1, 0];
  const across = [-along[1], along[0]];
  const project = (v) => px.map((p) => p[0] * v[0] + p[1] * v[1]);
  const [a, t] = [project(along), project(across)];
  const [start, end, top, bottom] = [Math.min(...a), Math.max(...a), Math.min(...t), Math.max(...t)];
  const length = end - start;
  if (length < 8) return null;
  const sx = f.width / source.width, sy = f.height / source.height;
  const n = Math.max(16, Math.min(800, Math.round(length * sx)));
  // The row at `offset` across the code: its samples less their mean, and their spread; null off the frame.
  const row = (offset) => {
    const v = new Float32Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const s = start + ((i + 0.5) * length) / n;
      const x = Math.floor((along[0] * s + across[0] * offset) * sx), y = Math.floor((along[1] * s + across[1] * offset) * sy);
      if (x < 0 || y < 0 || x >= f.width || y >= f.height) return null;
      v[i] = f.data[(y * f.width + x) * 4 + 1];
      sum += v[i];
    }
    let squares = 0;
    for (let i = 0; i < n; i++) { v[i] -= sum / n; squares += v[i] * v[i]; }
    return { v, spread: Math.sqrt(squares) };
  };
  const middle = (top + bottom) / 2, reference = row(middle);
  // Bars differ from the page by tens of grey levels: less is no code in this frame (it moved, or lags).
  if (!reference || reference.spread < 12 * Math.sqrt(n)) return null;
  const matches = (r) => {
    if (!r || r.spread < reference.spread / 2) return false;
    let product = 0;
    for (let i = 0; i < n; i++) product += r.v[i] * reference.v[i];
    return product / (r.spread * reference.spread) > 0.7;
  };
  const step = 1 / Math.min(sx, sy);
  const reach = (direction) => {
    let far = 0;
    for (let o = step; o <= 1.5 * length && matches(row(middle + direction * o)); o += step) far = o;
    return far;
  };
  const [from, to] = [Math.min(top, middle - reach(-1)), Math.max(bottom, middle + reach(1))];
  if (from > top - 1 && to < bottom + 1) return null;
  const point = (s, o) => [(along[0] * s + across[0] * o) / source.width, (along[1] * s + across[1] * o) / source.height];
  return [point(start, from), point(end, from), point(end, to), point(start, to)];
}

function addScan(e) {
  const li = document.createElement("li");
  const format = document.createElement("span");
  format.className = "format";
  format.textContent = e.format + " ";
  const text = document.createElement("span");
  text.textContent = e.text;
  const value = document.createElement("div");
  value.className = "value";
  if (e.value) value.textContent = inWords(e.value);
  li.append(format, text, value);
  $("scans").prepend(li);
  while ($("scans").children.length > 10) $("scans").lastChild.remove();
}

// A typed value in words: its type, then each field as "name value" ("issue date 2026-12-31"), nested
// fields and lists flattened the same way; a GS1 code as its elements ("GTIN 0950…, BATCH/LOT AB12"); a
// field named as the type (a URL's url) as its value alone; never JSON.
function inWords(value) {
  const words = (key) => key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();
  const say = (v) => {
    if (Array.isArray(v)) return v.map(say).join(", ");
    if (v && typeof v === "object") {
      if ("title" in v && "value" in v) return `${v.title} ${v.value}`;
      return Object.entries(v).map(([k, x]) => `${words(k)} ${say(x)}`).join(", ");
    }
    return String(v);
  };
  const { type = "text", ...fields } = value;
  if (fields.elements) return `${words(type)}: ${say(fields.elements)}`;
  const { [type]: main, ...others } = fields;
  const rest = say(others);
  if (main === undefined) return words(type) + (rest ? ": " + rest : "");
  return `${words(type)}: ${say(main)}` + (rest ? ` (${rest})` : "");
}

// The rect of interest in words: the whole frame, or where it starts and how much it takes.
function roiInWords(r) {
  const pct = (v) => `${Math.round(v * 100)}%`;
  if (r[0] === 0 && r[1] === 0 && r[2] === 1 && r[3] === 1) return "whole frame";
  return `${pct(r[2])} × ${pct(r[3])} of the frame at ${pct(r[0])}, ${pct(r[1])}`;
}

// STATUS once a second.
async function status() {
  for (;;) {
    try {
      const asked = roiChanges;
      const r = await fetch("/api/status", { cache: "no-store" });
      if (r.ok) {
        health.daemon = true;
        showStatus(await r.json(), performance.now(), asked === roiChanges);
      } else {
        health.daemon = false;
        showDown((await r.json()).message);
      }
    } catch (e) {
      health.web = false;
      showDown("scand web is not answering");
    }
    showHealth();
    await new Promise((done) => setTimeout(done, 1000));
  }
}

// The daemon (or scand web) not answering: the badge says so, the preview says why (once, the same message
// would fill every cell), the values are unknown.
function showDown(message) {
  for (const id of ["s-camera", "s-size", "s-fps", "s-dropped", "s-decode", "s-focus", "s-latency", "s-subscribers"]) $(id).textContent = "–";
  $("s-focus-meter").value = 0;
  $("preview").classList.add("no-frame");
  showMessage($("frame-message"), message);
  lastCaptured = null;
}

// A message of scand's, with its `commands` set as code rather than shown with their backticks.
function showMessage(element, message) {
  element.replaceChildren(...String(message).split("`").map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const code = document.createElement("code");
    code.textContent = part;
    return code;
  }));
}

// Whether a message says the daemon is out of reach, which the badge and the preview already say.
function saysDaemonDown(message) {
  return /^(scand is not running|no scand answers|permission denied|scand did not answer|scand closed)/.test(message);
}

// The sharpness against the sharpest seen, on a bar: what a person focusing looks at (the figure alone means
// nothing without the same scene at another focus).
function showFocus(focus) {
  if (focus === undefined) {
    $("s-focus").textContent = "–";
    $("s-focus-meter").value = 0;
    return;
  }
  focusBest = Math.max(focusBest, focus);
  const share = focusBest > 0 ? Math.round((100 * focus) / focusBest) : 0;
  $("s-focus-meter").value = share;
  $("s-focus").textContent = focus === 0 ? "nothing sharp in the rect" : `${share}% of the best (${Math.round(focus)})`;
}

function showStatus(s, now, roiCurrent) {
  const d = s.device || {};
  health.camera = d.state || "";
  $("s-camera").textContent = d.state ? `${d.state} ${d.path || ""}` + (d.message ? ` — ${d.message}` : "") : "–";
  $("s-size").textContent = d.width ? `${d.width}×${d.height} ${d.pixelformat}` : "–";
  if (lastCaptured && s.captured >= lastCaptured.count) {
    const fps = (s.captured - lastCaptured.count) / ((now - lastCaptured.at) / 1000);
    $("s-fps").textContent = fps.toFixed(1);
  }
  lastCaptured = { count: s.captured, at: now };
  $("s-dropped").textContent = `${s.dropped} of ${s.captured}`;
  $("s-decode").textContent = `${s.decodeMsMean} ms`;
  showFocus(s.focus);
  $("s-latency").textContent = s.latencyP50Ms !== undefined ? `${s.latencyP50Ms} / ${s.latencyP99Ms} ms` : "–";
  $("s-subscribers").textContent = `${s.watching} watching, ${s.clients} connected`;
  if (s.roi && roiCurrent) {
    $("s-roi").textContent = roiInWords(s.roi);
    // Not while the user drags or a new rect is on its way: this STATUS may predate it.
    if (!dragging && !sending) { roi = { x: s.roi[0], y: s.roi[1], w: s.roi[2], h: s.roi[3] }; placeRoi(); }
  }
}

// The rect of interest: dragged and resized in the preview, sent on release.
function placeRoi() {
  const el = $("roi");
  el.style.left = `${roi.x * 100}%`;
  el.style.top = `${roi.y * 100}%`;
  el.style.width = `${roi.w * 100}%`;
  el.style.height = `${roi.h * 100}%`;
}

function startDrag(event, mode) {
  event.preventDefault();
  event.stopPropagation();
  const box = $("preview").getBoundingClientRect();
  dragging = { mode, box, from: { x: event.clientX, y: event.clientY }, start: { ...roi } };
  $("roi").classList.add("dragging");
  $("roi").setPointerCapture(event.pointerId);
}

function moveDrag(event) {
  if (!dragging) return;
  const dx = (event.clientX - dragging.from.x) / dragging.box.width;
  const dy = (event.clientY - dragging.from.y) / dragging.box.height;
  const s = dragging.start;
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  if (dragging.mode === "move") {
    roi = { x: clamp(s.x + dx, 0, 1 - s.w), y: clamp(s.y + dy, 0, 1 - s.h), w: s.w, h: s.h };
  } else {
    roi = { x: s.x, y: s.y, w: clamp(s.w + dx, 0.05, 1 - s.x), h: clamp(s.h + dy, 0.05, 1 - s.y) };
  }
  placeRoi();
}

async function endDrag() {
  if (!dragging) return;
  dragging = null;
  $("roi").classList.remove("dragging");
  await sendRoi(roi);
}

async function sendRoi(r) {
  const round = (v) => Math.round(v * 10000) / 10000;
  const body = { x: round(r.x), y: round(r.y), w: round(r.w), h: round(r.h) };
  $("roi-message").textContent = "applying…";
  sending += 1;
  roiChanges += 1;
  focusBest = 0;  // another part of the scene: another scale
  try {
    const response = await fetch("/api/roi", {
      method: "POST", headers: { "Content-Type": "application/json", "X-Scand-Request": "1" }, body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (response.ok && answer.roi) {
      // The daemon's rect, as it took it.
      if (sending === 1 && !dragging) {
        roi = { x: answer.roi[0], y: answer.roi[1], w: answer.roi[2], h: answer.roi[3] };
        placeRoi();
      }
      $("s-roi").textContent = roiInWords(answer.roi);
    }
    $("roi-message").textContent = response.ok ? "applied" : `refused: ${answer.message}`;
  } catch (e) {
    $("roi-message").textContent = "scand web is not answering";
  } finally {
    sending -= 1;
  }
}

// Camera controls: what the camera has (CONTROLS), each changed on the camera as soon as it is let go of,
// and kept in the daemon's state directory for restarts on request. Only the admin group may change them.
async function loadControls() {
  try {
    const r = await fetch("/api/controls", { cache: "no-store" });
    const answer = await r.json();
    if (!r.ok) {
      $("controls").replaceChildren();
      $("controls-keep").parentElement.hidden = true;
      // A daemon out of reach is said once, in the preview; a camera without controls is said here.
      showMessage($("controls-message"), saysDaemonDown(answer.message) ? "–" : answer.message);
      return;
    }
    showControls(answer);
  } catch (e) {
    $("controls-message").textContent = "scand web is not answering";
  }
}

function showControls(report) {
  const shown = report.controls.filter((c) => c.type === "int" || c.type === "bool" || c.type === "menu");
  $("controls-message").textContent = shown.length
    ? `${report.device}: changed on the camera when you let go.` : `${report.device} has no controls to set.`;
  const rows = [];
  for (const c of shown) {
    const id = `control-${c.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = c.label;
    const box = document.createElement("div");
    box.className = "control";
    let input;
    if (c.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = c.value === 1;
      input.addEventListener("change", () => setControl(c.name, input.checked));
      box.append(input);
    } else if (c.type === "menu") {
      input = document.createElement("select");
      for (const item of c.menu) {
        const option = document.createElement("option");
        option.value = item.name;
        option.textContent = item.name;
        option.selected = item.index === c.value;
        input.append(option);
      }
      input.addEventListener("change", () => setControl(c.name, input.value));
      box.append(input);
    } else {
      input = document.createElement("input");
      input.type = "range";
      input.min = c.min;
      input.max = c.max;
      input.step = Math.max(1, c.step);
      input.value = c.value ?? c.default;
      const output = document.createElement("output");
      output.textContent = input.value;
      input.addEventListener("input", () => { output.textContent = input.value; });
      input.addEventListener("change", () => setControl(c.name, Number(input.value)));
      box.append(input, output);
    }
    input.id = id;
    input.dataset.control = c.name;
    // Read-only, or ruled by another control (an automatic mode): shown, not set.
    input.disabled = !!(c.readOnly || c.inactive);
    if (c.inactive) { box.classList.add("inactive"); box.title = "Ruled by an automatic mode: turn that off first"; }
    rows.push(label, box);
  }
  $("controls").replaceChildren(...rows);
  $("controls-keep").parentElement.hidden = shown.length === 0;
  const unkept = JSON.stringify(report.set) !== JSON.stringify(report.kept);
  $("controls-keep").disabled = !unkept;
  $("controls-kept").textContent = report.kept.length
    ? (unkept ? "some changes are not kept yet" : "kept for restarts")
    : (report.set.length ? "not kept: lost at a restart" : "");
}

async function postControls(body, doing) {
  $("controls-message").textContent = doing;
  try {
    const r = await fetch("/api/controls", {
      method: "POST", headers: { "Content-Type": "application/json", "X-Scand-Request": "1" }, body: JSON.stringify(body),
    });
    const answer = await r.json();
    if (r.ok) showControls(answer);
    else { $("controls-message").textContent = `refused: ${answer.message}`; await loadControlsQuietly(); }
  } catch (e) {
    $("controls-message").textContent = "scand web is not answering";
  }
}

// After a refusal: the camera's real values back on the page, the refusal's message kept.
async function loadControlsQuietly() {
  const message = $("controls-message").textContent;
  await loadControls();
  $("controls-message").textContent = message;
}

function setControl(name, value) { return postControls({ set: [{ name, value }] }, `setting ${name}…`); }

$("controls-keep").addEventListener("click", () => postControls({ keep: true }, "keeping…"));

$("roi").addEventListener("pointerdown", (e) => startDrag(e, "move"));
$("roi-handle").addEventListener("pointerdown", (e) => startDrag(e, "resize"));
$("roi").addEventListener("pointermove", moveDrag);
$("roi").addEventListener("pointerup", endDrag);
$("roi").addEventListener("pointercancel", endDrag);
$("roi-full").addEventListener("click", () => { roi = { x: 0, y: 0, w: 1, h: 1 }; placeRoi(); sendRoi(roi); });
// A new frame: 1D outlines follow the bars in it.
$("frame").addEventListener("load", () => {
  framePixels = null;
  for (const c of codes.values()) if (isLinear(c.format)) placeCode(c);
});
placeRoi();
snapshots();
events();
status();
loadControls();
