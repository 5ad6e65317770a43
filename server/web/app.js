/*
 * app.js - iiowired's built-in page: the board's devices, their channels'
 * live processed values, the consumer maps, live plots (WATCH, or a
 * STREAM on a trigger at a chosen rate), attribute writes, an output
 * channel's code and power-down set from its row, and per device
 * with events/ files its thresholds and the IIO events that fired
 * (SUBSCRIBE), all over the daemon's WebSocket (/ws), one JSON request of
 * PROTOCOL.md per message. No framework: the DOM, WebSocket and dygraphs.
 */
"use strict";

/* How often values are read again, the device list checked, a lost connection retried. */
const VALUE_POLL_MS = 1000;
const DEVICES_POLL_MS = 3000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 5000;
/* Events kept in a card's list; stream blocks a second a plot asks for. */
const FIRED_MAX = 20;
const BLOCKS_PER_S = 10;

/* Units of processed values, by channel type (the kernel's sysfs-bus-iio ABI). */
const UNITS = {
	voltage: "mV", current: "mA", power: "mW", temp: "m°C", accel: "m/s²",
	anglvel: "rad/s", magn: "G", illuminance: "lux", pressure: "kPa",
	humidityrelative: "m%RH", rot: "°", incli: "°", capacitance: "nF",
	resistance: "Ω", distance: "m", velocity: "m/s", concentration: "%",
	steps: "steps", activity: "%", energy: "J", proximity: "", intensity: "",
};

const state = {
	ws: null,
	nextId: 1,
	pending: new Map(),		/* id -> {resolve, reject} */
	watches: new Map(),		/* "dev\0attr" -> plot */
	streams: new Map(),		/* stream id on this connection -> plot */
	triggers: [],			/* {id, name} from DEVICES */
	devices: new Map(),		/* id -> {info, card, chans} */
	devKey: "",
	devAsked: 0, devShown: 0,	/* loadDevices() calls made, and the last shown */
	everOpen: false,
	lostAt: null,
	retryMs: RECONNECT_MIN_MS,
	authNeeded: false,
	timers: [],
};
window.iiowire = state;		/* for the browser tests */

function el(tag, attrs, ...kids) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) {
		if (k === "text")
			e.textContent = v;
		else
			e.setAttribute(k, v);
	}
	for (const k of kids)
		e.append(k);
	return e;
}

function setStatus(st, text) {
	const s = document.getElementById("status");
	s.dataset.state = st;
	s.textContent = text;
}

function notice(text) {
	const n = document.getElementById("notice");
	n.textContent = text;
	n.hidden = !text;
}

/* ---- requests ---- */

class DaemonError extends Error {
	constructor(reply) {
		super(reply.error + ": " + reply.message);
		this.errno = reply.error;
	}
}

function request(obj) {
	return new Promise((resolve, reject) => {
		if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
			reject(new Error("not connected"));
			return;
		}
		const id = state.nextId++;
		state.pending.set(id, { resolve, reject });
		state.ws.send(JSON.stringify(Object.assign({ id }, obj)));
	});
}

function onMessage(ev) {
	let m;
	if (typeof ev.data !== "string")
		return;		/* a raw block's payload: the page asks for json blocks only */
	try {
		m = JSON.parse(ev.data);
	} catch (e) {
		return;
	}
	if (m.event) {
		const p = state.watches.get(m.event.device + "\0" + m.event.attr);
		if (p)
			plotEvent(p, m.event);
		return;
	}
	if (m.block) {
		const p = state.streams.get(m.block.stream);
		if (p && m.block.values)
			plotBlock(p, m.block);
		return;
	}
	if (m.streamend) {
		const p = state.streams.get(m.streamend.stream);
		if (p)
			notice("Plot " + p.chan.name + ": " + m.streamend.error + " " + m.streamend.message);
		return;
	}
	if (m.iio_event || m.iio_event_lost || m.iio_event_end) {
		iioEvent(m);
		return;
	}
	const p = state.pending.get(m.id);
	if (!p)
		return;
	state.pending.delete(m.id);
	if (m.ok)
		p.resolve(m);
	else
		p.reject(new DaemonError(m));
}

/* ---- connection ---- */

function connect() {
	const proto = location.protocol === "https:" ? "wss:" : "ws:";
	const ws = new WebSocket(proto + "//" + location.host + "/ws");

	state.ws = ws;
	ws.binaryType = "arraybuffer";
	ws.onmessage = onMessage;
	ws.onopen = () => {
		ws.wasOpen = true;
		state.retryMs = RECONNECT_MIN_MS;
		setStatus("open", "connected");
		if (state.everOpen)
			notice("Connection lost at " + state.lostAt.toLocaleTimeString() +
			       "; reconnected at " + new Date().toLocaleTimeString() +
			       " (the daemon restarted or the network dropped).");
		state.everOpen = true;
		start();
	};
	ws.onclose = () => {
		stopTimers();
		for (const p of state.pending.values())
			p.reject(new Error("connection closed"));
		state.pending.clear();
		if (state.ws !== ws)
			return;
		if (ws.wasOpen)
			state.lostAt = new Date();
		setStatus("lost", "disconnected: retrying in " + state.retryMs / 1000 + " s");
		setTimeout(connect, state.retryMs);
		state.retryMs = Math.min(state.retryMs * 2, RECONNECT_MAX_MS);
	};
}

function stopTimers() {
	for (const t of state.timers)
		clearInterval(t);
	state.timers = [];
}

/* Everything the page shows, loaded again on each (re)connection. */
async function start() {
	try {
		const tok = sessionStorage.getItem("iiowire-token");
		if (tok)
			await request({ op: "auth", token: tok })
				.catch(() => sessionStorage.removeItem("iiowire-token"));
		await loadDevices();
	} catch (e) {
		if (e.errno === "EACCES" && /authentication/.test(e.message)) {
			askToken();
			return;
		}
		notice("Loading failed: " + e.message);
		return;
	}
	document.getElementById("auth").hidden = true;
	await loadMaps().catch((e) => notice("Maps: " + e.message));
	state.streams.clear();	/* stream ids were the old connection's */
	for (const dev of state.devices.values())
		subscribe(dev);
	for (const p of state.watches.values())
		plotStart(p);
	state.timers.push(setInterval(pollValues, VALUE_POLL_MS));
	state.timers.push(setInterval(() => loadDevices().catch(() => {}), DEVICES_POLL_MS));
	pollValues();
}

function askToken() {
	const f = document.getElementById("auth");
	f.hidden = false;
	document.getElementById("token").focus();
}

document.getElementById("auth").addEventListener("submit", async (ev) => {
	ev.preventDefault();
	const tok = document.getElementById("token").value;
	const err = document.getElementById("auth-error");
	try {
		await request({ op: "auth", token: tok });
		err.textContent = "";
		sessionStorage.setItem("iiowire-token", tok);
		start();
	} catch (e) {
		err.textContent = e.message;
	}
});

/* ---- devices and channels ---- */

function chanName(c) {
	let n = c.type;
	if (c.index !== undefined)
		n += c.index;
	if (c.differential)
		n += "-" + c.type + c.index2;
	if (c.modifier)
		n += "_" + c.modifier;
	return n;
}

/* The attribute with @suffix among a channel's, the channel's own before a shared one. */
function chanAttr(c, suffix) {
	const own = (c.output ? "out_" : "in_") + chanName(c) + suffix;
	if (c.attributes.includes(own))
		return own;
	return c.attributes.find((a) => a.endsWith(suffix));
}

/* Triggers are in DEVICES after the devices (triggerN): a plot may stream on one. */
function loadTriggers(list) {
	state.triggers = list.filter((d) => /^trigger\d+$/.test(d.id));
	const sel = document.getElementById("source");
	const cur = sel.value;
	sel.replaceChildren(el("option", { value: "watch", text: "WATCH (reads)" }),
			    ...state.triggers.map((t) => el("option", { value: t.name,
				    text: "STREAM on " + t.name })));
	sel.value = [...sel.options].some((o) => o.value === cur) ? cur : "watch";
}

/*
 * The board as DEVICES gives it. Every changed card is built before any card is
 * touched, then the list is swapped in one step: across a reload the page never
 * shows a half-built board (cards are renumbered when one goes).
 */
async function loadDevices() {
	const seq = ++state.devAsked;
	const r = await request({ op: "devices" });
	const key = JSON.stringify(r.devices);
	if (key === state.devKey)
		return;
	const built = new Map();
	for (const d of r.devices) {
		const old = state.devices.get(d.id);
		if (!old || JSON.stringify(old.info) !== JSON.stringify(d))
			built.set(d.id, await loadDevice(d));
	}
	if (seq < state.devShown || key === state.devKey)
		return;		/* a poll that overlapped this one swapped its board in */
	state.devShown = seq;
	state.devKey = key;
	loadTriggers(r.devices);
	const seen = new Set(r.devices.map((d) => d.id));
	for (const [id, dev] of state.devices) {
		if (seen.has(id) && !built.has(id))
			continue;
		dev.card.remove();
		if (!seen.has(id))	/* gone on a reload of the board */
			for (const chan of dev.chans)
				togglePlot(dev.info, chan, false);
		state.devices.delete(id);
	}
	for (const [id, dev] of built) {
		state.devices.set(id, dev);
		subscribe(dev);
	}
	const box = document.getElementById("devices");
	box.append(...r.devices.map((d) => state.devices.get(d.id).card));
}

async function loadDevice(d) {
	const [ch, at] = await Promise.all([
		request({ op: "channels", device: d.id }),
		request({ op: "attrs", device: d.id }),
	]);
	const dev = { info: d, chans: [], card: null, events: null };
	const rows = el("tbody");
	for (const c of ch.channels) {
		if (c.type === "timestamp")
			continue;
		const chan = {
			dev: d.id, name: chanName(c) + (c.output ? " (out)" : ""), type: c.type,
			key: (c.output ? "out_" : "in_") + chanName(c), output: c.output,
			input: chanAttr(c, "_input"), raw: chanAttr(c, "_raw"),
			scaleAttr: chanAttr(c, "_scale"), offsetAttr: chanAttr(c, "_offset"),
			scale: 1, offset: 0,
		};
		chan.value = chan.input || chan.raw;
		if (!chan.value)
			continue;
		chan.cell = el("td", { class: "num value", "data-attr": chan.value, text: "…" });
		chan.rawCell = el("td", { class: "num raw", text: "" });
		const box = el("input", { type: "checkbox", title: "plot" });
		box.addEventListener("change", () => togglePlot(d, chan, box.checked));
		rows.append(el("tr", { "data-chan": chan.key }, el("td", { text: chan.name }),
			       chan.cell, el("td", { text: UNITS[chan.type] ?? "" }), chan.rawCell,
			       el("td", {}, box)));
		if (chan.output && chan.raw)
			rows.append(outputRow(d, chan, chanAttr(c, "_powerdown")));
		dev.chans.push(chan);
	}
	await Promise.all(dev.chans.map(loadScale));
	const ids = [d.id, d.hwid ? "hardware id " + d.hwid : null].filter(Boolean).join(" · ");
	dev.card = el("div", { class: "card", "data-device": d.id, "data-name": d.name },
		      el("h3", { text: d.name + (d.label ? " (" + d.label + ")" : "") }),
		      el("div", { class: "ids", text: ids }),
		      el("table", {}, el("thead", {}, el("tr", {},
			 el("th", { text: "channel" }), el("th", { text: "value" }),
			 el("th", { text: "unit" }), el("th", { text: "raw" }),
			 el("th", { text: "plot" }))), rows),
		      eventsBox(dev, at.attrs), attrsBox(d, at.attrs));
	if (dev.events)
		readThresholds(dev);
	return dev;
}

/*
 * An output channel's controls, under its row: its raw code and, where the
 * driver has one, its _powerdown, each written with WRITE as any attribute
 * (--read-only and --allow-write answer; the page shows their error).
 */
function outputRow(d, chan, pdAttr) {
	const msg = el("span", { class: "attr-msg" });
	const inp = el("input", { type: "number", step: "1", class: "set-raw",
				  "aria-label": chan.raw });
	const btn = el("button", { type: "button", class: "set", text: "set " + chan.raw });
	btn.addEventListener("click", () => writeValue(d.id, chan.raw, inp.value, msg)
		.then(pollValues));
	const cell = el("td", { colspan: "5", class: "out-set" }, inp, btn);
	if (pdAttr) {
		chan.pdAttr = pdAttr;
		chan.pdBox = el("input", { type: "checkbox", class: "set-powerdown",
					   "aria-label": pdAttr });
		chan.pdBox.addEventListener("change", () =>
			writeValue(d.id, pdAttr, chan.pdBox.checked ? "1" : "0", msg).then(pollValues));
		cell.append(el("label", { title: pdAttr }, chan.pdBox, " powered down"));
	}
	cell.append(" ", msg);
	return el("tr", { "data-set": chan.key }, cell);
}

async function loadScale(chan) {
	if (chan.input)
		return;
	if (chan.scaleAttr)
		chan.scale = Number((await request({ op: "read", device: chan.dev,
						      attr: chan.scaleAttr })).value);
	if (chan.offsetAttr)
		chan.offset = Number((await request({ op: "read", device: chan.dev,
						       attr: chan.offsetAttr })).value);
}

/* What the kernel's ABI calls the processed value: _input, or (_raw + _offset) * _scale. */
function processed(chan, text) {
	if (chan.input)
		return text;
	const v = (Number(text) + chan.offset) * chan.scale;
	return Number.isFinite(v) ? String(Number(v.toPrecision(6))) : text;
}

async function pollValues() {
	const jobs = [];
	for (const dev of state.devices.values()) {
		for (const chan of dev.chans) {
			if (chan.pdBox)
				jobs.push(request({ op: "read", device: chan.dev, attr: chan.pdAttr })
					.then((r) => { chan.pdBox.checked = r.value.trim() === "1"; },
					      () => {}));
			jobs.push(request({ op: "read", device: chan.dev, attr: chan.value }).then((r) => {
				chan.cell.textContent = processed(chan, r.value);
				chan.cell.classList.remove("error");
				chan.rawCell.textContent = chan.input ? "" : r.value;
			}, (e) => {
				chan.cell.textContent = e.errno || e.message;
				chan.cell.classList.add("error");
			}));
		}
	}
	await Promise.all(jobs);
}

/* ---- attributes: read all, write the writable ones ---- */

function attrsBox(d, attrs) {
	const body = el("tbody");
	const box = el("details", { class: "attrs" },
		       el("summary", { text: attrs.length + " attributes" }), el("table", {}, body));
	for (const a of attrs) {
		const cur = el("td", { class: "num cur" });
		const row = el("tr", { "data-attr": a.name }, el("td", { text: a.name }), cur);
		const cell = el("td");
		if (a.mode.includes("w")) {
			const inp = el("input", { type: "text", "aria-label": a.name });
			const btn = el("button", { type: "button", class: "write", text: "write" });
			const msg = el("span", { class: "attr-msg" });
			btn.addEventListener("click", () => writeAttr(d, a.name, inp, msg, cur));
			cell.append(inp, btn, msg);
		}
		row.append(cell);
		body.append(row);
		if (a.mode.includes("r"))
			box.addEventListener("toggle", () => {
				if (box.open)
					readInto(d.id, a.name, cur);
			});
	}
	return box;
}

function readInto(dev, attr, cell) {
	return request({ op: "read", device: dev, attr }).then((r) => { cell.textContent = r.value; },
		(e) => { cell.textContent = e.errno || e.message; });
}

/* WRITE @value to @attr, its answer in @msg; Return: true when written. */
async function writeValue(dev, attr, value, msg) {
	msg.className = "attr-msg";
	msg.textContent = "…";
	try {
		await request({ op: "write", device: dev, attr, value });
	} catch (e) {
		msg.className = "attr-msg error";
		msg.textContent = e.message;	/* the daemon's errno name and message */
		return false;
	}
	msg.textContent = "written";
	return true;
}

async function writeAttr(d, attr, inp, msg, cur) {
	if (!await writeValue(d.id, attr, inp.value, msg))
		return;
	const dev = state.devices.get(d.id);
	if (dev)
		await Promise.all(dev.chans.map(loadScale));
	if (dev && dev.events && attr.startsWith("events/"))
		readThresholds(dev);
	await readInto(d.id, attr, cur);
	pollValues();
}

/* ---- consumer maps ---- */

async function loadMaps() {
	const r = await request({ op: "maps" });
	const body = document.querySelector("#maps tbody");
	body.replaceChildren(...r.maps.map((m) => el("tr", {},
		el("td", { text: m.consumer }), el("td", { text: m.channel ?? "" }),
		el("td", { text: m.device ?? "(not registered)" }),
		el("td", { text: m.datasheet_name }), el("td", { text: m.provider }))));
}

/* ---- thresholds and alarms: events/ files, SUBSCRIBE ---- */

/* events/in_voltage0_thresh_rising_value -> ["in_voltage0_thresh_rising", "value"] */
function eventSpec(name) {
	const m = /^events\/(.+)_(en|value|hysteresis|period|timeout|reset_timeout)$/.exec(name);
	return m ? [m[1], m[2]] : null;
}

/* A card's "thresholds and alarms": one row per event spec, then the events that fired. */
function eventsBox(dev, attrs) {
	const specs = new Map();
	for (const a of attrs) {
		const sp = eventSpec(a.name);
		if (!sp || !a.mode.includes("r"))
			continue;
		if (!specs.has(sp[0]))
			specs.set(sp[0], {});
		specs.get(sp[0])[sp[1]] = a.name;
	}
	if (!specs.size)
		return "";
	const body = el("tbody");
	const rows = [];
	for (const [spec, files] of specs) {
		const row = { spec, files, value: el("td", { class: "num" }),
			      en: el("td", { class: "en" }), hyst: el("td", { class: "num" }) };
		row.tr = el("tr", { "data-event": spec }, el("td", { text: spec }), row.value,
			    row.hyst, row.en);
		body.append(row.tr);
		rows.push(row);
	}
	const fired = el("ol", { class: "fired", reversed: "" });
	const status = el("div", { class: "ev-status" });
	dev.events = { rows, fired, status };
	return el("div", { class: "events" }, el("h4", { text: "Thresholds and alarms" }),
		  el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "event" }),
		     el("th", { text: "value" }), el("th", { text: "hysteresis" }),
		     el("th", { text: "enabled" }))), body), status, fired);
}

function readThresholds(dev) {
	const rd = (attr) => attr ? request({ op: "read", device: dev.info.id, attr })
		.then((r) => r.value, (e) => e.errno || e.message) : Promise.resolve("");
	return Promise.all(dev.events.rows.map(async (row) => {
		const [v, en, h] = await Promise.all([rd(row.files.value), rd(row.files.en),
						      rd(row.files.hysteresis)]);
		row.value.textContent = v;
		row.hyst.textContent = h;
		/* _en reads what the driver returns: max1363 1, 2, 4 or 8 when on */
		const on = /^[0-9]+$/.test(en) && Number(en) !== 0;
		row.en.textContent = on ? "armed" : (en === "0" ? "off" : en);
		row.tr.classList.toggle("armed", on);
	}));
}

function subscribe(dev) {
	if (!dev.events)
		return;
	request({ op: "subscribe", device: dev.info.id }).then(() => {
		dev.events.status.textContent = "";
	}, (e) => {
		dev.events.status.textContent = "events: " + e.message;
	});
}

/* What iio_event_monitor calls the channel: voltage0, voltage1-voltage2, activity_running. */
function eventChan(e) {
	let n = e.type ?? "?";
	if (e.channel !== undefined)
		n += e.channel;
	if (e.channel2 !== undefined)
		n += "-" + e.type + e.channel2;
	if (e.modifier)
		n += "_" + e.modifier;
	return n;
}

function iioEvent(m) {
	const e = m.iio_event || m.iio_event_lost || m.iio_event_end;
	const dev = state.devices.get(e.device);
	if (!dev || !dev.events)
		return;
	if (!m.iio_event) {
		dev.events.status.textContent = m.iio_event_lost ?
			e.count + " events lost (the page fell behind)" : "events ended: " + e.message;
		return;
	}
	/* timestamp is ns since 1970 (realtime), above 2^53: ms is all a person reads */
	const t = new Date(Math.floor(e.timestamp / 1e6));
	const li = el("li", { class: "ev", "data-chan": eventChan(e), "data-dir": e.direction ?? "",
			      text: t.toLocaleTimeString() + "." + String(t.getMilliseconds())
				      .padStart(3, "0") + "  " + eventChan(e) + " " +
				      (e.evtype ?? "") + " " + (e.direction ?? "") });
	dev.events.fired.prepend(li);
	if (!dev.events.reading)	/* what is armed now (a driver may disarm on alert) */
		dev.events.reading = readThresholds(dev).finally(() => { dev.events.reading = null; });
	while (dev.events.fired.children.length > FIRED_MAX)
		dev.events.fired.lastChild.remove();
	dev.card.dataset.events = String(Number(dev.card.dataset.events || 0) + 1);
}

/* ---- live plots: a WATCH, or a STREAM on a trigger, per plotted channel ---- */

function windowS() {
	return Number(document.getElementById("window").value);
}

function togglePlot(d, chan, on) {
	const key = chan.dev + "\0" + chan.value;
	const old = state.watches.get(key);
	if (!on) {
		if (old) {
			state.watches.delete(key);
			old.box.remove();
			plotStop(old);
		}
		document.getElementById("plots-section").hidden = state.watches.size === 0;
		return;
	}
	const graph = el("div", { class: "plot-graph" });
	const box = el("div", { class: "plot", "data-plot": d.name + " " + chan.name, "data-points": "0" },
		       el("div", { text: d.name + " " + chan.name + " (" + (UNITS[chan.type] ?? "") + ")" }),
		       graph);
	document.getElementById("plots").append(box);
	document.getElementById("plots-section").hidden = false;
	const p = { chan, box, data: [], graph: null, err: null };
	p.graph = new Dygraph(graph, [[new Date(), null]], {
		labels: ["time", chan.name], connectSeparatedPoints: true, drawPoints: true,
		strokeWidth: 1.5, legend: "follow",
	});
	state.watches.set(key, p);
	plotStart(p);
}

/* The plot's source as the controls say: WATCH every N ms, or STREAM on a trigger. */
function plotStart(p) {
	const src = document.getElementById("source").value;
	if (src === "watch") {
		const iv = Number(document.getElementById("interval").value);
		request({ op: "watch", device: p.chan.dev, attr: p.chan.value, interval_ms: iv })
			.catch((e) => notice("Plot " + p.chan.name + ": " + e.message));
		return;
	}
	const rate = Number(document.getElementById("rate").value);
	const scans = Math.max(1, Math.round(rate / BLOCKS_PER_S));
	const trig = state.triggers.find((t) => t.name === src);
	/* the rate is the trigger's sampling_frequency: a write, as --allow-write says */
	const set = trig ? request({ op: "write", device: trig.id, attr: "sampling_frequency",
				     value: String(rate) }).catch((e) => notice(
					     "Rate of " + src + ": " + e.message)) : Promise.resolve();
	set.then(() => request({ op: "stream", device: p.chan.dev, trigger: src, scans,
				 format: "json", channels: [p.chan.key.replace(/^(in|out)_/, ""),
							    "timestamp"] }))
		.then((r) => {
			p.stream = r.stream.id;
			state.streams.set(p.stream, p);
		}, (e) => notice("Plot " + p.chan.name + " as a stream: " + e.message));
}

function plotStop(p) {
	if (p.stream) {
		state.streams.delete(p.stream);
		request({ op: "unstream", stream: p.stream }).catch(() => {});
		p.stream = null;
	} else {
		request({ op: "unwatch", device: p.chan.dev, attr: p.chan.value }).catch(() => {});
	}
}

function plotPoint(p, t, v) {
	p.data.push([t, v]);
}

function plotDraw(p, now) {
	const from = now - windowS() * 1000;
	while (p.data.length && p.data[0][0].getTime() < from)
		p.data.shift();
	p.box.dataset.points = String(p.data.length);
	p.graph.updateOptions({ file: p.data, dateWindow: [from, now] });
}

/* A json block: [value, timestamp ns] per scan, values as CREAD processed (S-5). */
function plotBlock(p, b) {
	for (const [v, ts] of b.values)
		plotPoint(p, new Date(Math.floor(ts / 1e6)), v);
	if (p.data.length)
		plotDraw(p, p.data[p.data.length - 1][0].getTime());
}

function plotEvent(p, ev) {
	if (ev.error)
		return;
	/* timestamp_ns is above 2^53: ms precision is all a plot needs */
	const t = new Date(Math.floor(ev.timestamp_ns / 1e6));
	plotPoint(p, t, Number(processed(p.chan, ev.value)));
	plotDraw(p, t.getTime());
}

/* A control changed: every plot stops its source and starts the one now chosen. */
function plotsRestart() {
	for (const p of state.watches.values()) {
		plotStop(p);
		p.data = [];
		plotStart(p);
	}
}
for (const id of ["interval", "source", "rate"])
	document.getElementById(id).addEventListener("change", plotsRestart);

document.getElementById("where").textContent = location.host;
connect();
