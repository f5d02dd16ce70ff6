// scand's setup page: the newest frame about 5 times a second, outlines of the codes in view (from the
// daemon's SCAN/UPDATE/LOST events over a WebSocket), the rect of interest to drag, the last scans and
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
// What the badge says: scand web's WebSocket, the daemon (from STATUS), and the camera.
const health = { web: false, daemon: true, camera: "" };

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
        $("frame-message").textContent = (await r.json()).message;
      }
    } catch (e) { /* the daemon or scand web restarting: try again */ }
    await new Promise((done) => setTimeout(done, Math.max(0, 200 - (performance.now() - started))));
  }
}

// Events: outlines and the list of scans.
function events() {
  // ws: for a page served in the clear, wss: behind a TLS proxy (the protocol's tail is ":" or "s:").
  const ws = new WebSocket(`ws${location.protocol.slice(4)}//${location.host}/ws`);
  ws.onopen = () => { health.web = true; showHealth(); };
  ws.onclose = () => {
    health.web = false;
    showHealth();
    for (const id of [...codes.keys()]) removeCode(id);
    setTimeout(events, 1000);
  };
  ws.onmessage = (m) => {
    let e;
    try { e = JSON.parse(m.data); } catch { return; }
    switch (e.class) {
      case "SCAN": showCode(e); addScan(e); break;
      case "UPDATE": showCode(e); break;
      case "LOST": removeCode(e.id); break;
      case "DEVICE":
        health.camera = e.state;
        showHealth();
        // A camera (re)opened: its controls, as it has them now.
        if (e.state === "streaming") loadControls();
        if (e.state !== "streaming") for (const id of [...codes.keys()]) removeCode(id);
        break;
    }
  };
}

// live / camera missing / daemon unreachable / scand web unreachable: what stands between the camera and
// this page, first what is furthest; it recovers by itself as the WebSocket and STATUS come back.
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
  // The normalized corners, for tests and tools: the drawn points are in camera pixels.
  c.polygon.dataset.normalized = JSON.stringify(e.normalized);
  placeCode(c);
  updateHint();
}

function placeCode(c) {
  if (!source.width || !c.normalized) return;
  const px = c.normalized.map((p) => [p[0] * source.width, p[1] * source.height]);
  c.polygon.setAttribute("points", px.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "));
  const size = Math.max(12, source.height * 0.035);
  c.label.setAttribute("font-size", size);
  c.label.setAttribute("x", Math.min(...px.map((p) => p[0])));
  c.label.setAttribute("y", Math.max(size, Math.min(...px.map((p) => p[1])) - size * 0.4));
  c.label.textContent = `${c.format} ${c.text}`.slice(0, 48);
}

function removeCode(id) {
  const c = codes.get(id);
  if (!c) return;
  c.polygon.remove();
  c.label.remove();
  codes.delete(id);
  updateHint();
}

// Modules across a linear symbol (bars and spaces, start and stop, without quiet zones), from its format
// and its text's length: a 1D code is as readable as its narrowest bar is wide, whatever its height.
function linearModules(format, text) {
  const n = text.length;
  switch (format) {
    case "EAN13": case "UPCA": return 95;
    case "EAN8": return 67;
    case "UPCE": return 51;
    case "Code128": return 11 * (n + 2) + 13;
    case "Code39": return 16 * (n + 2) - 1;
    case "Code93": return 9 * (n + 4) + 1;
    case "Codabar": return 10 * (n + 2) - 1;
    case "ITF": return 9 * n + 9;
    case "DataBar": return 96;
    case "DataBarLimited": return 74;
    case "DataBarExpanded": return 49 * Math.ceil(n / 6) + 4;
    default: return 0;  // a matrix code
  }
}

// What reads unreliably: a 1D code whose narrowest bar is under 1.5 camera pixels (its length along the
// bars over its modules), a 2D code whose shorter side is under 60 pixels (a module is then 1–2 pixels).
function updateHint() {
  const small = [];
  for (const c of codes.values()) {
    if (!source.width || !c.normalized) continue;
    const px = c.normalized.map((p) => [p[0] * source.width, p[1] * source.height]);
    const side = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
    const sides = [side(px[0], px[1]), side(px[1], px[2])];
    const modules = linearModules(c.format, c.text);
    if (modules) {
      const module = Math.max(...sides) / modules;
      if (module < 1.5) small.push(`${c.format} (bars ${module.toFixed(1)} px wide)`);
    } else if (Math.min(...sides) < 60) {
      small.push(`${c.format} (${Math.round(Math.min(...sides))} px)`);
    }
  }
  $("hint").hidden = small.length === 0;
  $("hint").textContent = small.length
    ? `Too small to read reliably: ${small.join(", ")}. Move the camera closer or choose a larger capture size.` : "";
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

function showDown(message) {
  $("s-camera").textContent = message;
  for (const id of ["s-size", "s-fps", "s-dropped", "s-decode", "s-focus", "s-latency", "s-subscribers"]) $(id).textContent = "–";
  lastCaptured = null;
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
  // Higher is sharper: a person turning the focus ring watches it climb.
  $("s-focus").textContent = s.focus !== undefined ? `${s.focus} (higher is sharper)` : "–";
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
      $("controls-message").textContent = answer.message;
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
placeRoi();
snapshots();
events();
status();
loadControls();
