/**
 * Where the time of one page load by URL goes, cold (new browser context: empty cache) then warm (same
 * context), for the routes named in TRACE_ROUTES (identities, projects, workspace, getstarted, billing,
 * schema): every request with its start, end, server wait (from Chromium's network timing), size and
 * encoding; then, from the server's side, each console request and each upstream call to the local stack
 * it made (node:http diagnostics channels), on the same clock; and a Chromium performance trace of each
 * load in /tmp/trace-<route>-<cold|warm>.json (open it in the DevTools Performance panel).
 *
 *   tsx bench/page-trace.ts     (TRACE_PORT, default 3500; TRACE_DIR, default client/dist)
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { signUpInBrowser } from './browser-user';

const ROOT = new URL('..', import.meta.url).pathname;
const PORT = process.env.TRACE_PORT ?? '3500';
const DIR = process.env.TRACE_DIR ?? `${ROOT}client/dist`;
const ROUTES = (process.env.TRACE_ROUTES ?? 'identities').split(',');
const BUSY = '[aria-busy="true"], [data-testid="spinner"], [data-testid="loading-project"], [data-testid="skeleton"], .loading-block';
const WATCH_PAGE = `(() => {
  const bench = { readyAt: undefined, marks: [] };
  window.__bench = bench;
  const busy = '${BUSY}';
  let firstH1;
  const frame = () => {
    const heading = document.querySelector('main h1');
    if (heading && firstH1 === undefined) firstH1 = performance.now(), bench.firstH1 = firstH1;
    if (!bench.rootFilled && document.querySelector('#root > *')) bench.rootFilled = performance.now();
    if (heading && heading.textContent && !document.querySelector(busy)) { bench.readyAt = performance.now(); return; }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;


const child = spawn(`${ROOT}node_modules/.bin/tsx`, ['bench/page-trace-servers.ts', PORT, DIR], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
const { url: base } = JSON.parse(line) as { url: string };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'] });
try {
  const { cookies, project, workspace } = await signUpInBrowser(browser, base, 'Trace');
  const paths: Record<string, string> = {
    identities: `/projects/${project}/identities`, projects: '/projects', workspace: `/workspaces/${workspace}`,
    getstarted: `/projects/${project}/get-started`, billing: `/projects/${project}/settings/billing`, schema: `/projects/${project}/identity-schema`,
  };
  // warm the server a little (as the bench does: signup already went through)
  await fetch(`${base}/__events`);
  for (const name of ROUTES) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies(cookies);
    await context.addInitScript(WATCH_PAGE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const reqs = new Map<string, any>();
    cdp.on('Network.requestWillBeSent', (e: any) => reqs.set(e.requestId, { url: e.request.url, ts: e.timestamp, wall: e.wallTime, initiator: e.initiator?.type, prio: e.request.initialPriority }));
    cdp.on('Network.responseReceived', (e: any) => { const r = reqs.get(e.requestId); if (r) { r.timing = e.response.timing; r.status = e.response.status; r.enc = e.response.headers['content-encoding']; r.proto = e.response.protocol; r.fromCache = e.response.fromDiskCache; } });
    cdp.on('Network.loadingFinished', (e: any) => { const r = reqs.get(e.requestId); if (r) { r.end = e.timestamp; r.bytes = e.encodedDataLength; } });
    for (const run of ['cold', 'warm']) {
      reqs.clear();
      await fetch(`${base}/__events`);
      await browser.startTracing(page, { path: `/tmp/trace-${name}-${run}.json`, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'v8'] });
      await page.goto(base + paths[name], { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as any).__bench?.readyAt !== undefined, undefined, { timeout: 30000, polling: 'raf' });
      await page.waitForLoadState('networkidle');
      await browser.stopTracing();
      const b = await page.evaluate(() => ({ ...(window as any).__bench, nav: performance.getEntriesByType('navigation')[0]!.toJSON(), res: performance.getEntriesByType('resource').map((e) => (e as PerformanceResourceTiming).toJSON()) }));
      const server = await (await fetch(`${base}/__events`)).json();
      const all = [...reqs.values()];
      const doc = all.find((r) => r.url === base + paths[name]);
      const t0 = doc?.ts ?? 0;
      const wall0 = (doc?.wall ?? 0) * 1000;
      const ms = (t: number) => Math.round((t - t0) * 1000);
      console.log(`\n=== ${name} ${run}: readyAt ${Math.round(b.readyAt)} ms (performance.now), firstH1 ${Math.round(b.firstH1)}, rootFilled ${Math.round(b.rootFilled)}; nav responseEnd ${Math.round(b.nav.responseEnd)} domInteractive ${Math.round(b.nav.domInteractive)} DCL ${Math.round(b.nav.domContentLoadedEventEnd)}`);
      for (const r of all.sort((a, b) => a.ts - b.ts)) {
        const t = r.timing;
        const wait = t ? Math.round(t.receiveHeadersStart ?? t.receiveHeadersEnd) - Math.round(t.sendEnd) : NaN;
        console.log(`  ${String(ms(r.ts)).padStart(5)} → ${String(r.end ? ms(r.end) : '?').padStart(5)}  wait ${String(wait).padStart(4)}  ${String(r.bytes ?? '').padStart(7)}B ${r.enc ?? '-'} ${r.prio} ${r.status ?? ''}${r.fromCache ? ' cache' : ''}  ${r.url.replace(base, '').slice(0, 150)}`);
      }
      console.log('  server (ms after document request wall time):');
      for (const e of server.sort((a: any, b: any) => a.start - b.start)) {
        if (e.url === '/__events') continue;
        console.log(`    ${String(Math.round(e.start - wall0)).padStart(5)} → ${String(Math.round(e.end - wall0)).padStart(5)} (${String(Math.round(e.end - e.start)).padStart(4)})  ${e.kind === 'upstream' ? '  upstream ' + e.method + ' ' + e.path : (e.port == PORT ? 'BFF ' : 'stack ') + e.method + ' ' + e.url}`.slice(0, 220));
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  child.kill('SIGTERM');
}
