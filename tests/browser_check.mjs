#!/usr/bin/env node
// Headless check of the Neo4j Browser view of the code graph, with Debian's Chromium driven by playwright-core
// (no browser download). It opens the Browser served by the local Neo4j, connects to Bolt with "No
// authentication", applies the project's GRASS style with `:style`, sets parameters with `:param`, runs one
// saved query from cypher/browser/ exactly as a user would paste it (header included), waits for the result
// frame (graph or table), checks that an expected text (a symbol name) appears in it, and saves a screenshot.
//
//   node tests/browser_check.mjs --screenshot out.png [--query hottest_call_targets] [--param repo=main ...]
//        [--expect snapshot] [--style cypher/browser/style.grass | --no-style] [--fullscreen]
//        [--url http://127.0.0.1:7474/browser/] [--bolt bolt://127.0.0.1:7687] [--connect url|form]
//        [--size 1400x900] [--timeout 60]
//
// Connecting: by default the Browser is opened at URL?dbms=BOLT&preselectAuthMethod=NO_AUTH, with which it
// connects by itself to a server without auth. --connect form opens the bare URL and fills the connect form
// (scheme, address, "No authentication", Connect) instead; the form is also the fallback when it shows.
//
// Prints one JSON line (ok, view, rows, found, timings); exits 0 when the check passed, 1 when it failed,
// 2 on bad arguments. CHROMIUM overrides the browser binary (default /usr/bin/chromium).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function usage(message) {
  console.error(`browser_check: ${message}\nusage: node tests/browser_check.mjs --screenshot PATH [--query NAME] ` +
    '[--param k=v ...] [--expect TEXT] [--style FILE | --no-style] [--fullscreen] [--url URL] [--bolt URI] ' +
    '[--connect url|form] ' +
    '[--size WxH] [--timeout SECONDS]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { query: 'hottest_call_targets', params: [], expect: null, screenshot: null, fullscreen: false,
    style: path.join(ROOT, 'cypher', 'browser', 'style.grass'), url: 'http://127.0.0.1:7474/browser/',
    bolt: 'bolt://127.0.0.1:7687', connect: 'url', width: 1400, height: 900, timeout: 60 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => { if (i + 1 >= argv.length) usage(`${arg} needs a value`); return argv[++i]; };
    switch (arg) {
      case '--query': opts.query = value(); break;
      case '--param': {
        const kv = value(); const eq = kv.indexOf('=');
        if (eq < 1) usage(`--param wants name=value, got ${kv}`);
        opts.params.push([kv.slice(0, eq), kv.slice(eq + 1)]); break;
      }
      case '--expect': opts.expect = value(); break;
      case '--screenshot': opts.screenshot = value(); break;
      case '--style': opts.style = value(); break;
      case '--no-style': opts.style = null; break;
      case '--fullscreen': opts.fullscreen = true; break;
      case '--connect':
        opts.connect = value();
        if (!['url', 'form'].includes(opts.connect)) usage('--connect url|form');
        break;
      case '--url': opts.url = value(); break;
      case '--bolt': opts.bolt = value(); break;
      case '--size': {
        const m = /^(\d+)x(\d+)$/.exec(value()); if (!m) usage('--size wants WIDTHxHEIGHT');
        opts.width = Number(m[1]); opts.height = Number(m[2]); break;
      }
      case '--timeout': opts.timeout = Number(value()); break;
      default: usage(`unknown argument ${arg}`);
    }
  }
  if (!opts.screenshot) usage('--screenshot PATH is required');
  if (!/^[a-z_][a-z0-9_]*$/.test(opts.query)) usage(`bad query name ${opts.query}`);
  for (const [k] of opts.params) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) usage(`bad parameter name ${k}`);
  return opts;
}

// A :param value: integers stay numbers, everything else is a single-quoted Cypher string.
function cypherLiteral(v) {
  if (/^-?\d+$/.test(v)) return v;
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

// Neo4j Browser 5.24 crashes ("Cannot read properties of undefined (reading 'replace')") on a multi-line
// `:style` command; its GRASS reader ignores line breaks, so the style goes in on one line.
function grassOneLine(text) {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

// The fill colours the style gives node labels: { Symbol: '#FFC454', ... }.
function grassNodeColors(text) {
  const colors = {};
  for (const m of text.matchAll(/node\.(\w+)\s*\{([^}]*)\}/g)) {
    const c = /(?:^|[;\s])color:\s*(#[0-9A-Fa-f]{6})/.exec(m[2]);
    if (c) colors[m[1]] = c[1].toUpperCase();
  }
  return colors;
}

const opts = parseArgs(process.argv.slice(2));
const queryFile = path.join(ROOT, 'cypher', 'browser', `${opts.query}.cypher`);
if (!fs.existsSync(queryFile)) usage(`no saved query ${queryFile}`);
const queryText = fs.readFileSync(queryFile, 'utf8');
const styleText = opts.style ? fs.readFileSync(opts.style, 'utf8') : null;
const timeoutMs = opts.timeout * 1000;
const started = Date.now();
const timings = {};
const mark = (name) => { timings[name] = (Date.now() - started) / 1000; };
const result = { ok: false, query: opts.query, params: Object.fromEntries(opts.params), expect: opts.expect };

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'graphrag-browser-check-'));
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS,
    viewport: { width: opts.width, height: opts.height }, timeout: timeoutMs,
  });
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  mark('launched');

  // 1. Open the Browser pointed at our Bolt URI with "No authentication" preselected. With server auth off
  // (the local launcher's loopback server) it connects by itself; otherwise fill the connect form.
  const url = new URL(opts.url);
  if (opts.connect === 'url') {
    url.searchParams.set('dbms', opts.bolt);
    url.searchParams.set('preselectAuthMethod', 'NO_AUTH');
  }
  await page.goto(url.toString(), { waitUntil: 'load' });
  const connected = page.getByText('Connected to Neo4j').first();
  const connectButton = page.locator('[data-testid="connect"]');
  await connected.or(connectButton).first().waitFor();
  if (!(await connected.isVisible())) {
    const scheme = /^([a-z+]+:\/\/)/.exec(opts.bolt);
    if (scheme) await page.locator('[data-testid="bolt-scheme-select"]').selectOption(scheme[1]).catch(() => {});
    await page.locator('[data-testid="boltaddress"]').fill(opts.bolt.replace(/^[a-z+]+:\/\//, ''));
    await page.locator('[data-testid="authenticationMethod"]').selectOption('NO_AUTH');
    await connectButton.click();
    await connected.waitFor();
    result.connected = 'form';
  } else {
    result.connected = opts.connect;
  }
  mark('connected');
  // The product-usage banner (it may come late) only takes room in the screenshot: close it when it shows.
  const dismissBanner = async () => {
    try {
      const banner = page.locator('div', { hasText: /^To help make Neo4j Browser better/ }).last();
      if (await banner.isVisible()) await banner.locator('> span').last().click({ timeout: 2000 });
    } catch { /* no banner */ }
  };
  await dismissBanner();

  const stream = page.locator('[data-testid="stream"]');
  const newestFrame = () => stream.locator('[data-testid="frame"]').first();
  const editorText = () => (document.querySelector('[data-testid="activeEditor"] .view-lines')?.innerText || '')
    .replace(/[\s\u200b]+/g, '');
  async function runCommand(text) {
    const before = await stream.locator('[data-testid="frame"]').count();
    // The editor empties itself after a run; on a busy machine that may come late and would swallow the next
    // command, so wait for it to be empty, and for the text to be in it before pressing Run.
    await page.waitForFunction(`(${editorText})() === ''`);
    await page.locator('[data-testid="activeEditor"]').click();
    // insertText types no key events: Monaco adds no closing brackets or quotes of its own.
    await page.keyboard.insertText(text);
    await page.waitForFunction(`(${editorText})() !== ''`);
    await page.locator('[data-testid="editor-Run"]').click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="stream"] [data-testid="frame"]').length > n, before);
    return newestFrame();
  }

  // 2. The project's style, the parameters, then the saved query as stored.
  if (styleText) {
    const frame = await runCommand(`:style ${grassOneLine(styleText)}`);
    const text = await frame.innerText();
    if (/Could not parse|InvalidGrass/i.test(text)) throw new Error(`:style was refused: ${text.slice(0, 300)}`);
  }
  for (const [k, v] of opts.params) {
    const frame = await runCommand(`:param ${k} => ${cypherLiteral(v)}`);
    await frame.getByText(`"${k}"`).first().waitFor();
  }
  mark('prepared');
  const frame = await runCommand(queryText);
  // A table view has a status bar ("Started streaming N records ... completed after"); a graph view has none
  // but draws nodes; an empty result says "no records"; a failure shows an error banner.
  const status = frame.locator('[data-testid="frameStatusbar"]').filter({ hasText: /completed after|no records/i });
  const drawn = frame.locator('svg g.node').first();
  const error = frame.locator('[data-testid="cypherFrameErrorMessage"], [data-testid="errorBanner"]');
  await status.or(drawn).or(error).first().waitFor();
  if (await error.count()) throw new Error(`the query failed: ${(await error.first().innerText()).slice(0, 500)}`);
  if (await status.count()) {
    result.status = (await status.first().innerText()).replace(/\s+/g, ' ').trim();
    const rows = /(\d+) records?/.exec(result.status);
    result.rows = rows ? Number(rows[1]) : 0;
  }
  mark('query_done');

  // 3. Graph or table: let a force layout settle, then look for the expected text.
  const nodes = frame.locator('svg g.node');
  if (await nodes.count()) {
    result.view = 'graph';
    const settle = async () => {   // until node positions stop moving (at most ~8 s)
      let last = '';
      for (let i = 0; i < 40; i++) {
        await page.waitForTimeout(200);
        const now = (await nodes.evaluateAll((gs) => gs.map((g) => g.getAttribute('transform')))).join('|');
        if (now === last) return;
        last = now;
      }
    };
    await settle();
    if (opts.fullscreen) {
      await frame.locator('button[title="Fullscreen"]').first().click();
      await page.waitForTimeout(500);
      await frame.locator('button[aria-label="zoom-to-fit"]').click();
      await page.waitForTimeout(1000);   // the zoom is animated
      await settle();
    }
    const shown = /Displaying (\d+) nodes?, (\d+) relationships?/.exec(await frame.innerText());
    if (shown) result.status = shown[0];
    const captions = await frame.locator('svg g.node text.caption').allTextContents();
    result.nodes = await nodes.count();
    // Captions longer than the circle are cut to "start…" by the Browser: a cut caption counts when the
    // expected name starts with what is shown (at least 6 characters of it).
    const shows = (c) => {
      const t = c.trim();
      if (t.includes(opts.expect)) return true;
      const cut = t.endsWith('…') ? t.slice(0, -1).trim().split(' ').pop() : '';
      return cut.length >= 6 && opts.expect.startsWith(cut);
    };
    result.found = opts.expect ? captions.some(shows) : true;
    if (styleText) {   // every node is drawn in the colour the style gives one of the labels
      const want = new Set(Object.values(grassNodeColors(styleText)));
      const fills = await frame.locator('svg g.node circle.b-outline').evaluateAll(
        (cs) => cs.map((c) => (c.getAttribute('fill') || '').toUpperCase()));
      result.styled = fills.length > 0 && fills.every((f) => want.has(f));
      if (!result.styled) throw new Error(`nodes are not drawn in the style's colours: ${[...new Set(fills)]}`);
    }
  } else {
    result.view = 'table';
    const text = await frame.locator('[data-testid="frameContents"]').innerText();
    result.found = opts.expect ? text.includes(opts.expect) : true;
  }
  if (opts.expect && !result.found) throw new Error(`"${opts.expect}" does not appear in the rendered ${result.view}`);

  await dismissBanner();
  // Park the pointer where it hovers nothing: the frame's export menu opens on hover.
  await page.mouse.move(opts.width / 2, opts.height - 2);
  await page.waitForTimeout(300);
  fs.mkdirSync(path.dirname(path.resolve(opts.screenshot)), { recursive: true });
  await page.screenshot({ path: opts.screenshot });
  result.screenshot = opts.screenshot;
  mark('screenshot');
  result.ok = true;
} catch (err) {
  result.error = String(err && err.message ? err.message : err).split('\n')[0];
  try {
    const page = context && context.pages()[0];
    if (page) { await page.screenshot({ path: opts.screenshot }); result.screenshot = opts.screenshot; }
  } catch { /* the screenshot of a failure is best effort */ }
} finally {
  if (context) await context.close().catch(() => {});
  fs.rmSync(profile, { recursive: true, force: true });
}
result.timings = timings;
result.seconds = (Date.now() - started) / 1000;
console.log(JSON.stringify(result));
process.exit(result.ok ? 0 : 1);
