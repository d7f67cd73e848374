/**
 * Page loads by URL in Chromium, cold (empty cache) and warm (assets cached), with the layout shift of
 * each page, before and after in one run:
 *   - after:  the client built from the working tree (client/dist), served precompressed;
 *   - before: the console as it was before route prefetch and precompression (BENCH_BEFORE_REF, by
 *             default the parent of the commit that added this file): its client built into a temporary
 *             directory and served by its own server, so that a change to either is measured.
 *   - floor:  this client's pages as its server paints them for the same visitor, without the code they
 *             load, served as static files by a server that does nothing else (bench/page-load-floor.ts):
 *             what the browser itself takes to show each page, a floor for the console's own time.
 * Both consoles share one local stack, one signed-in user and the same data. A page counts as loaded
 * when it is on screen with its heading and nothing loading (no skeleton, spinner or 'Loading
 * Project'): at the first frame whose main area is so, or, when the browser paints its first content
 * later than that frame is made (its first-contentful-paint mark: a page the server painted is whole
 * in that first paint, which comes some frames after it is laid out), at that paint. It is live once it is
 * also the console's own render (a painted page: once its code has taken the inert paint's place). Runs:
 * BENCH_RUNS (default 3); the median is reported.
 *
 *   npm run bench:pages     (CHROMIUM_PATH, default /usr/bin/chromium)
 */
import { spawn } from 'node:child_process';
import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type BrowserContext, type Cookie, type Page } from '@playwright/test';
import { CODE_AFTER_PAINT_ELEMENT_ID } from '../shared/code-after-paint';
import { beforeRef, buildBefore, freePort, ROOT, run } from './before-checkout';
import { signUpInBrowser } from './browser-user';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Targets of the client issue: a page by URL within 300 ms cold on localhost, CLS at most 0.05. */
const COLD_TARGET_MS = 300;
const CLS_TARGET = 0.05;
/** Anything that says the page is still loading. */
const BUSY = '[aria-busy="true"], [data-testid="spinner"], [data-testid="loading-project"], [data-testid="skeleton"], .loading-block';

/** `floor`: this client's painted pages as static files with no script (bench/page-load-floor.ts). */
type Variant = 'before' | 'after' | 'floor';
interface Sample {
  /** On screen (see the header). */
  ms: number;
  /** The frame that had it all, made before it is painted. */
  frame: number;
  /** Live: on screen and the console's own render (a painted page, once its code has taken its place). */
  live: number;
  cls: number;
  bytes: number;
}

async function startServers(afterDir: string, before: { root: string; dist: string } | undefined) {
  const args = ['bench/page-load-servers.ts', String(await freePort()), afterDir];
  if (before) args.push(String(await freePort()), before.dist, before.root);
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
  });
  return { child, urls: JSON.parse(line) as { after: string; before?: string } };
}


/** Marks a page the console's server painted (server/static-client.ts). */
const PAINTED_ROOT = '<div id="root" inert>';

/**
 * Each route's page as the console's server paints it for this visitor, without its scripts: the floor's pages.
 * A route whose page did not come painted in a few tries (its first answers missed the server's deadline) has none.
 */
async function floorPages(after: string, cookies: Cookie[], routes: string[]): Promise<Record<string, string>> {
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const pages: Record<string, string> = {};
  for (const route of routes) {
    for (let attempt = 0; attempt < 5 && pages[route] === undefined; attempt++) {
      const html = await (await fetch(after + route, { headers: { accept: 'text/html', cookie } })).text();
      if (!html.includes(PAINTED_ROOT)) continue;
      // Without the code, whether named in the head or loaded after the first frame (shared/code-after-paint.ts).
      pages[route] = html
        .replace(/<script\b[^>]*\bsrc=[^>]*><\/script>/g, '')
        .replace(/<link rel="modulepreload"[^>]*>/g, '')
        .replace(new RegExp(`<script type="application/json" id="${CODE_AFTER_PAINT_ELEMENT_ID}">[^<]*</script><script>[^<]*</script>`), '');
    }
  }
  return pages;
}

async function startFloor(pages: Record<string, string>) {
  const file = join(tmpdir(), `console-bench-floor-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(pages));
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['bench/page-load-floor.ts', String(await freePort()), join(ROOT, 'client/dist'), file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    });
    return { child, url };
  } finally {
    // The server has read its pages once it prints its URL (or is gone).
    unlinkSync(file);
  }
}

/**
 * Installed before any page script: watches every frame until the page is loaded (records the time
 * since navigation start) and keeps every layout shift not caused by input. A string, not a function:
 * the TypeScript loader would wrap a function's inner functions in helpers the page does not have.
 */
const WATCH_PAGE = `(() => {
  const bench = { readyAt: undefined, shifts: [] };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) bench.shifts.push({ t: entry.startTime, v: entry.value });
  }).observe({ type: 'layout-shift', buffered: true });
  const busy = '${BUSY}';
  // Then live: the first frame where the page is the console's own render, not the server's inert paint.
  const frame = () => {
    const heading = document.querySelector('main h1');
    if (bench.readyAt === undefined && heading && heading.textContent && !document.querySelector(busy)) bench.readyAt = performance.now();
    if (bench.readyAt !== undefined && !document.querySelector('#root[inert]')) {
      bench.liveAt = performance.now();
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

/** `live`: the page has code that makes it live (not the floor's), and its time until then is measured. */
async function measure(page: Page, url: string, live: boolean): Promise<Sample> {
  await page.goto(url, { waitUntil: 'commit' });
  await page
    .waitForFunction(() => (window as unknown as { __bench?: { readyAt?: number } }).__bench?.readyAt !== undefined, undefined, { timeout: 30_000, polling: 'raf' })
    .catch(async (error: unknown) => {
      const state = await page.evaluate((busy) => ({ h1: document.querySelector('main h1')?.outerHTML, busy: document.querySelector(busy)?.outerHTML }), BUSY);
      throw new Error(`${url} never loaded (at ${page.url()}: ${JSON.stringify(state)})`, { cause: error });
    });
  if (new URL(page.url()).pathname !== new URL(url).pathname) throw new Error(`${url} went to ${page.url()}`);
  if (live) await page.waitForFunction(() => (window as unknown as { __bench: { liveAt?: number } }).__bench.liveAt !== undefined, undefined, { timeout: 30_000, polling: 'raf' });
  // Shifts after the page has its data (late images, fonts, a second query) count too.
  await page.waitForLoadState('networkidle');
  const result = await page.evaluate(() => {
    const b = (window as unknown as { __bench: { readyAt: number; liveAt?: number; shifts: { t: number; v: number }[] } }).__bench;
    let best = 0;
    let current = 0;
    let start = -Infinity;
    let last = -Infinity;
    for (const s of b.shifts) {
      if (s.t - last > 1000 || s.t - start > 5000) {
        current = 0;
        start = s.t;
      }
      current += s.v;
      last = s.t;
      best = Math.max(best, current);
    }
    // Where the time went, up to the loaded frame: the document, the last script, the last API answer.
    const before = performance.getEntriesByType('resource').filter((e) => e.startTime < b.readyAt) as PerformanceResourceTiming[];
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const scripts = before.filter((e) => e.name.endsWith('.js') || e.name.endsWith('.css'));
    const api = before.filter((e) => e.name.includes('/api/trpc'));
    const bytes = before.reduce((sum, e) => sum + e.transferSize, nav?.transferSize ?? 0);
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    const phases = `html ${Math.round(nav?.responseEnd ?? 0)}, browser's first contentful paint ${fcp === undefined ? '-' : Math.round(fcp)}, code ${Math.round(Math.max(0, ...scripts.map((e) => e.responseEnd)))} (${scripts.length} files), api ${api.map((e) => `${Math.round(e.startTime)}→${Math.round(e.responseEnd)}`).join(' ')}`;
    // On screen: the frame that had it all, or the first paint when that came later (see the header).
    const ms = Math.max(b.readyAt, fcp ?? 0);
    return { ms, frame: b.readyAt, live: Math.max(ms, b.liveAt ?? 0), cls: best, bytes, phases: `content frame ${Math.round(b.readyAt)}, live ${b.liveAt === undefined ? '-' : Math.round(b.liveAt)}, ${phases}` };
  });
  if (process.env.BENCH_VERBOSE) console.log(`  ${url}: ${Math.round(result.ms)} ms — ${result.phases}`);
  return { ms: result.ms, frame: result.frame, live: result.live, cls: result.cls, bytes: result.bytes };
}

async function newContext(browser: Browser, cookies: Cookie[]): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies(cookies);
  await context.addInitScript(WATCH_PAGE);
  return context;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH`);
  run('node', ['scripts/ensure-client-build.mjs'], ROOT);
  const ref = beforeRef('bench/page-load.ts');
  let before: { root: string; dist: string } | undefined;
  try {
    before = ref ? buildBefore(ref) : undefined;
  } catch (error) {
    console.warn(`no "before" build: ${(error as Error).message}`);
  }
  const { child, urls } = await startServers(join(ROOT, 'client/dist'), before);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
  });
  let floor: Awaited<ReturnType<typeof startFloor>> | undefined;
  try {
    const { cookies, project, workspace } = await signUpInBrowser(browser, urls.after, 'Bench');
    const P = `/projects/${project}`;
    const W = `/workspaces/${workspace}`;
    const routes = [
      '/projects',
      '/workspaces',
      `${P}/get-started`,
      `${P}/identities`,
      `${P}/sessions`,
      `${P}/identity-schema`,
      `${P}/email-configuration`,
      `${P}/email-templates`,
      `${P}/email-delivery`,
      `${P}/settings`,
      `${P}/settings/collaborators`,
      `${P}/settings/billing`,
      `${P}/settings/advanced`,
      W,
      `${W}/settings/members`,
      `${W}/settings/billing`,
    ];
    const variants: [Variant, string][] = [['after', urls.after]];
    if (urls.before) variants.unshift(['before', urls.before]);
    const floors = await floorPages(urls.after, cookies, routes);
    floor = await startFloor(floors);
    variants.push(['floor', floor.url]);
    const results = new Map<string, { cold: Sample[]; warm: Sample[] }>();
    for (let runIndex = 0; runIndex < RUNS; runIndex++) {
      for (const [routeIndex, route] of routes.entries()) {
        // Before and after take turns, so a busy moment of the machine weighs on both alike; and each goes first,
        // second and third in turn: the one after another pays for the tab the browser is still closing.
        const shift = (runIndex + routeIndex) % variants.length;
        for (const [variant, base] of [...variants.slice(shift), ...variants.slice(0, shift)]) {
          if (variant === 'floor' && floors[route] === undefined) continue;
          const context = await newContext(browser, cookies.map((c) => ({ ...c })));
          const page = await context.newPage();
          const cold = await measure(page, base + route, variant !== 'floor');
          const warm = await measure(page, base + route, variant !== 'floor');
          await context.close();
          const key = `${variant} ${route}`;
          const entry = results.get(key) ?? { cold: [], warm: [] };
          entry.cold.push(cold);
          entry.warm.push(warm);
          results.set(key, entry);
        }
      }
    }

    const label = (route: string) => route.replace(project, ':project').replace(workspace, ':workspace');
    const rows: string[] = [];
    const totals: Record<Variant, { cold: number[]; coldFrame: number[]; coldLive: number[]; warm: number[]; cls: number[]; bytes: number[] }> = {
      before: { cold: [], coldFrame: [], coldLive: [], warm: [], cls: [], bytes: [] },
      after: { cold: [], coldFrame: [], coldLive: [], warm: [], cls: [], bytes: [] },
      floor: { cold: [], coldFrame: [], coldLive: [], warm: [], cls: [], bytes: [] },
    };
    /** Per route with a floor: after's cold median less the floor's. */
    const overFloor: number[] = [];
    const misses: string[] = [];
    for (const route of routes) {
      const cells: string[] = [label(route).padEnd(44)];
      for (const [variant] of variants) {
        const entry = results.get(`${variant} ${route}`);
        if (!entry) {
          cells.push(`${variant}: not painted`);
          continue;
        }
        const cold = median(entry.cold.map((s) => s.ms));
        const warm = median(entry.warm.map((s) => s.ms));
        const cls = Math.max(...entry.cold.map((s) => s.cls), ...entry.warm.map((s) => s.cls));
        const kb = median(entry.cold.map((s) => s.bytes)) / 1024;
        totals[variant].cold.push(cold);
        totals[variant].coldFrame.push(median(entry.cold.map((s) => s.frame)));
        totals[variant].coldLive.push(median(entry.cold.map((s) => s.live)));
        totals[variant].warm.push(warm);
        totals[variant].cls.push(cls);
        totals[variant].bytes.push(kb);
        cells.push(`${variant}: cold ${cold.toFixed(0).padStart(4)} ms, warm ${warm.toFixed(0).padStart(4)} ms, CLS ${cls.toFixed(3)}, ${kb.toFixed(0).padStart(4)} KB`);
        if (variant === 'after' && cold > COLD_TARGET_MS) misses.push(`${label(route)} cold ${cold.toFixed(0)} ms > ${COLD_TARGET_MS} ms`);
        if (variant === 'after' && cls > CLS_TARGET) misses.push(`${label(route)} CLS ${cls.toFixed(3)} > ${CLS_TARGET}`);
        if (variant === 'floor') overFloor.push(median(results.get(`after ${route}`)!.cold.map((s) => s.ms)) - cold);
      }
      rows.push(cells.join(' | '));
    }
    console.log(`\nPage by URL in Chromium (1440×900, ${RUNS} runs, median; CLS: worst run; KB transferred until loaded, cold)`);
    for (const row of rows) console.log(row);
    console.log('');
    for (const [variant] of variants) {
      const t = totals[variant];
      if (!t.cold.length) continue;
      console.log(
        `${variant.padEnd(6)}: cold median ${median(t.cold).toFixed(0)} ms (max ${Math.max(...t.cold).toFixed(0)}; its content frame ${median(t.coldFrame).toFixed(0)} ms), warm median ${median(t.warm).toFixed(0)} ms (max ${Math.max(...t.warm).toFixed(0)}), worst CLS ${Math.max(...t.cls).toFixed(3)}, median ${median(t.bytes).toFixed(0)} KB per cold load`,
      );
    }
    if (urls.before) {
      const ratio = (a: number[], b: number[]) => (median(b) / median(a)).toFixed(2);
      console.log(`after/before: cold ×${ratio(totals.before.cold, totals.after.cold)}, warm ×${ratio(totals.before.warm, totals.after.warm)}, bytes ×${ratio(totals.before.bytes, totals.after.bytes)}`);
      console.log(
        `live (on screen and usable: a painted page once its code has taken its place), cold median: before ${median(totals.before.coldLive).toFixed(0)} ms, after ${median(totals.after.coldLive).toFixed(0)} ms (×${ratio(totals.before.coldLive, totals.after.coldLive)})`,
      );
    }
    if (overFloor.length) {
      console.log(
        `after over the floor (the same painted page with no script, from a static server), cold, per route: median ${median(overFloor).toFixed(0)} ms (${Math.min(...overFloor).toFixed(0)} to ${Math.max(...overFloor).toFixed(0)}; ${overFloor.length} of ${routes.length} routes painted)`,
      );
    }
    console.log(misses.length ? `targets missed:\n  ${misses.join('\n  ')}` : `targets met: every page cold ≤ ${COLD_TARGET_MS} ms, CLS ≤ ${CLS_TARGET}`);
    if (misses.length) process.exitCode = 1;
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    floor?.child.kill('SIGTERM');
  }
}

await main();
