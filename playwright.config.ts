import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import {
  E2E_BASE_URL,
  E2E_CLOCK_LOCALSTACK_PORT,
  E2E_CLOCK_PORT,
  E2E_CLOCK_URL,
  E2E_CONSENT_LOCALSTACK_PORT,
  E2E_CONSENT_PORT,
  E2E_CONSENT_URL,
  E2E_LOCALSTACK_PORT,
  E2E_PORT,
} from './e2e/ports';

/**
 * Debian's Chromium; the suite never downloads a browser. Its headless shell (`chromium-headless-shell`, the
 * same build without the browser's own window machinery) when installed: the journeys ran in 5.7 min with it
 * against 7.0 min in the full browser, with a fifth less CPU. The binary itself, not its /usr/bin wrapper,
 * which does not pass signals on.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const chromiumPath = process.env.CHROMIUM_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
if (!existsSync(chromiumPath)) {
  throw new Error('Chromium not found: install it with `apt-get install -y chromium-headless-shell` (or `chromium`) or set CHROMIUM_PATH');
}


// A fresh data directory per run. Set once in the runner process; workers inherit it.
process.env.E2E_DATA_DIR ??= join(tmpdir(), `console-e2e-${Date.now()}-${process.pid}`);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalTeardown: './e2e/global-teardown.ts',
  // Every test signs up its own user (the navigation tests that share one run in order, as they say), so
  // tests spread over the workers one by one. Two workers keep both cores busy while one waits on the
  // browser or the server; E2E_WORKERS sets another count.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: true,
  // A budget, not a check: the longest journeys (a dozen pages, each scanned with axe) took 35 s with the
  // machine to themselves, 60 s with the other worker and a loaded machine beside them, and past 120 s on a
  // 2-core machine about half as fast with the PostgreSQL pass of the integration suite running beside them.
  timeout: 240_000,
  // Conditions are awaited, never time: on such a machine one answer can take longer than 10 s to show.
  expect: { timeout: 20_000 },
  reporter: 'list',
  outputDir: 'test-results',
  use: {
    baseURL: E2E_BASE_URL,
    // A trace records every action of every journey (snapshots, screencast) to keep the failing ones: a third
    // of the runner's CPU. CI keeps only what it prints, so there it is off; a failure's screenshot stays.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-quic',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // The console serves the built client: build it first when missing or out of date.
      command: 'node scripts/ensure-client-build.mjs && node --import tsx server/main.ts',
      url: `${E2E_BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(E2E_PORT),
        HOST: '127.0.0.1',
        PUBLIC_URL: E2E_BASE_URL,
        LOCALSTACK_PORT: String(E2E_LOCALSTACK_PORT),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The journeys read recovery and verification codes from the local mailbox.
        LOCAL_MAILBOX: 'true',
        // Its SMTP port: any free one, so parallel runs never collide.
        LOCAL_SMTP_PORT: '0',
        // A painted page's code always waits for its first answers (their wait is 800 ms), however busy the
        // machine: every painted page of the journeys loads its code after its first frame, under the real CSP.
        FIRST_CODE_HOLD_MS: '5000',
      },
    },
    {
      // The same console, asking for analytics consent, on its own local stack and data directory.
      command: 'node --import tsx server/main.ts',
      url: `${E2E_CONSENT_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(E2E_CONSENT_PORT),
        HOST: '127.0.0.1',
        PUBLIC_URL: E2E_CONSENT_URL,
        LOCALSTACK_PORT: String(E2E_CONSENT_LOCALSTACK_PORT),
        DATA_DIR: `${dataDir}-consent`,
        LOG_LEVEL: 'warn',
        LOCAL_MAILBOX: 'true',
        LOCAL_SMTP_PORT: '0',
        ANALYTICS_REQUIRE_CONSENT: 'true',
      },
    },
    {
      // The same console on a stack of its own for the journeys that move the stack's clock (billing.spec):
      // they run beside the rest, whose flows and codes keep their own time.
      command: 'node --import tsx server/main.ts',
      url: `${E2E_CLOCK_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(E2E_CLOCK_PORT),
        HOST: '127.0.0.1',
        PUBLIC_URL: E2E_CLOCK_URL,
        LOCALSTACK_PORT: String(E2E_CLOCK_LOCALSTACK_PORT),
        DATA_DIR: `${dataDir}-clock`,
        LOG_LEVEL: 'warn',
        LOCAL_MAILBOX: 'true',
        LOCAL_SMTP_PORT: '0',
      },
    },
  ],
});
