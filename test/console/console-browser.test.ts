import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { describeInChromium, launchChromium } from '../support/browser.js';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { startServe, stopServe, type ServeProcess } from './console-helpers.js';

/**
 * The console end to end in Chromium (test/support/browser.ts): upload through the page, progress to 100%,
 * the rows that need a person, the download equal to `run`'s report of the same file.
 * CONSOLE_SCREENSHOT=path writes the screenshot in docs/.
 */
const EXAMPLE = join(PROJECT_ROOT, 'examples/beneficiaries.csv');
/** Differ by design between two checks of one file: the emulator's record id and its answer time. */
const PER_CHECK_COLUMNS = ['inquiry_id', 'checked_at'];

const consolePrefix = testKeyPrefix();
const runPrefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;
let serve: ServeProcess | undefined;
let browser: Browser | undefined;

const env = (prefix: string, extra: Record<string, string> = {}) =>
  cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    INQUIRY_RATE: '100/s',
    ...extra,
  });

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv'), latencyMs: { min: 20, max: 60 } });
  workDir = await mkdtemp(join(tmpdir(), 'bc-console-browser-'));
});

afterAll(async () => {
  await browser?.close();
  await stopServe(serve);
  await sandbox.close();
  await deleteKeys(redis, consolePrefix);
  await deleteKeys(redis, runPrefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

describeInChromium('the operations console in a real browser', () => {
  it('uploads a CSV, shows progress to 100% and the rows that need a person, and downloads the same report as run', async () => {
    const runReport = join(workDir, 'run.reconciled.csv');
    const run = await runCli(['run', EXAMPLE, '--out', runReport], env(runPrefix));
    expect(run.code).toBe(0);

    serve = await startServe([], env(consolePrefix, { CONSOLE_REPORTS_DIR: join(workDir, 'reports') }));
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const scriptErrors: string[] = [];
    page.on('pageerror', (error) => scriptErrors.push(error.message));

    await page.goto(serve.url);
    await page.setInputFiles('input[name=file]', EXAMPLE);
    await page.click('#upload button[type=submit]');
    await page.waitForURL(/\/batches\/b\d{8}-/, { timeout: 30_000 });
    await page.locator('#percent', { hasText: '100%' }).waitFor({ timeout: 60_000 });
    await page.locator('#state', { hasText: 'reported' }).waitFor({ timeout: 60_000 });
    const review = page.locator('#review tbody tr');
    await page.locator('#review-status', { hasText: 'rows' }).waitFor({ timeout: 30_000 });

    const rows = await review.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
    const byReference = new Map(rows.map((cells) => [cells[1], cells]));
    expect(byReference.get('AGT-0201')?.[5]).toBe('NO_MATCH');
    expect(byReference.get('AGT-0205')?.[5]).toBe('NO_MATCH');
    expect(byReference.get('EMP-0304')?.[5]).toBe('FAILED');
    expect([...new Set(rows.map((cells) => cells[5]))].sort()).toEqual([
      'ACCOUNT_INVALID',
      'CLOSE_MATCH',
      'FAILED',
      'INPUT_INVALID',
      'NO_MATCH',
    ]);
    // Account numbers are masked on the page: the last four digits only.
    expect(byReference.get('AGT-0201')?.[3]).toMatch(/^\*+\d{4}$/);
    expect(await page.locator('#count-NO_MATCH').textContent()).toBe('2');

    if (process.env.CONSOLE_SCREENSHOT) await page.screenshot({ path: process.env.CONSOLE_SCREENSHOT, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    const downloaded = join(workDir, 'downloaded.csv');
    await download.saveAs(downloaded);
    const [fromConsole, fromRun] = [await readReport(downloaded), await readReport(runReport)];
    const comparable = (report: Record<string, string>[]) =>
      report.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !PER_CHECK_COLUMNS.includes(column))));
    expect(fromConsole).toHaveLength(28);
    expect(Object.keys(fromConsole[0]!)).toEqual(Object.keys(fromRun[0]!));
    expect(comparable(fromConsole)).toEqual(comparable(fromRun));
    expect(scriptErrors).toEqual([]);
  });

  it('shows hostile names as text: nothing from a file or the provider runs in the page', async () => {
    const hostile = join(workDir, 'hostile <script>.csv');
    await writeFile(
      hostile,
      'ref,bank_code,account_number,account_name\n"<img src=x onerror=window.__xss=1>",014,0012345678,"<script>window.__xss=2</script>Agus"\n',
    );
    const page = await browser!.newPage();
    await page.goto(serve!.url);
    await page.setInputFiles('input[name=file]', hostile);
    await page.click('#upload button[type=submit]');
    await page.waitForURL(/\/batches\/b\d{8}-/, { timeout: 30_000 });
    await page.locator('#review-status', { hasText: 'rows' }).waitFor({ timeout: 60_000 });
    const cells = await page.locator('#review tbody tr td').allTextContents();
    expect(cells).toContain('<img src=x onerror=window.__xss=1>');
    expect(cells).toContain('<script>window.__xss=2</script>Agus');
    await page.goto(serve!.url);
    await page.locator('#batches tbody tr').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await readFile(hostile, 'utf8')).toContain('onerror');
  });
});
