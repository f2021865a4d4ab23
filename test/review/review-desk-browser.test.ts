import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { describeInChromium, launchChromium } from '../support/browser.js';
import { emulatorEnvironment, PROJECT_ROOT } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { removeTempFolders, tempFolder } from '../ops/ops-helpers.js';
import { startServe, stopServe, type ServeProcess } from '../console/console-helpers.js';
import { renameHolder } from './review-helpers.js';

/**
 * The morning review through the console, in Chromium (test/support/browser.ts): two people behind an
 * authenticating proxy (each browser context sends the proxy's X-Forwarded-User). Day 1 a person approves and
 * rejects rows on the batch page; the page reloaded shows them decided, and so does the other person's
 * browser. Day 2 the same file shows both decisions; day 3 the bank renamed the approved holder, and that row
 * needs a person again.
 * REVIEW_DESK_SCREENSHOT=path writes the screenshot in docs/ (the emulator's accounts: nobody real).
 */
/** The example file without its two rows that end FAILED: each day's upload of it is then a new batch. */
const FAILED_ROWS = ['EMP-0304', 'EMP-0306'];

const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let serve: ServeProcess | undefined;
let browser: Browser | undefined;
let file: string;

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv'), latencyMs: { min: 5, max: 20 } });
  const folder = await tempFolder('review-desk');
  const lines = (await readFile(join(PROJECT_ROOT, 'examples/beneficiaries.csv'), 'utf8')).split('\n');
  file = join(folder, 'payouts.csv');
  await writeFile(file, lines.filter((line) => !FAILED_ROWS.some((id) => line.startsWith(`${id},`))).join('\n'));
  serve = await startServe(
    [],
    emulatorEnvironment(prefix, sandbox.url, {
      INQUIRY_RATE: '100/s',
      CONSOLE_USER_HEADER: 'X-Forwarded-User',
      CONSOLE_REPORTS_DIR: join(folder, 'reports'),
    }),
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stopServe(serve);
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await removeTempFolders();
});

/** A person's browser: the proxy in front of the console names them in every request. */
async function personBrowser(person: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser!.newContext({ viewport: { width: 1500, height: 1000 }, extraHTTPHeaders: { 'X-Forwarded-User': person } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Uploads the file through the index page; resolves on its batch page once the report is written and the review list read. */
async function uploadFile(page: Page): Promise<string> {
  await page.goto(serve!.url);
  await page.setInputFiles('input[name=file]', file);
  await page.click('#upload button[type=submit]');
  await page.waitForURL(/\/batches\/b\d{8}-/, { timeout: 30_000 });
  await reviewLoaded(page);
  return page.url().split('/batches/')[1]!;
}

async function reviewLoaded(page: Page): Promise<void> {
  await page.locator('#state', { hasText: 'reported' }).waitFor({ timeout: 60_000 });
  await page.locator('#review-status', { hasText: 'rows' }).waitFor({ timeout: 30_000 });
}

const rowOf = (page: Page, reference: string) =>
  page.locator('#review tbody tr').filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${reference}$`) }) });

async function decide(page: Page, reference: string, button: 'APPROVED' | 'REJECTED', note: string): Promise<void> {
  const row = rowOf(page, reference);
  await row.locator('input.note').fill(note);
  await row.locator(`button.decide-${button}`).click();
  await rowOf(page, reference)
    .locator('.decided', { hasText: `${button} by` })
    .waitFor({ timeout: 10_000 });
}

const decisionText = async (page: Page, reference: string) => (await rowOf(page, reference).locator('td.decision').textContent()) ?? '';
const counts = async (page: Page) => [
  await page.locator('#review-needsReview').textContent(),
  await page.locator('#review-approved').textContent(),
  await page.locator('#review-rejected').textContent(),
];

describeInChromium('the review desk in a real browser', () => {
  it('day 1 decided by one person and seen by another, day 2 remembered, day 3 void after the bank renamed the holder', async () => {
    const ratna = await personBrowser('ratna');
    const budi = await personBrowser('budi');

    // Day 1.
    const day1 = await uploadFile(ratna.page);
    expect(await ratna.page.locator('#decider').textContent()).toBe('Deciding as ratna');
    expect(await counts(ratna.page)).toEqual(['3', '0', '0']);
    const results = await ratna.page.locator('#review tbody tr td:nth-child(6)').allTextContents();
    expect([...new Set(results)].sort()).toEqual(['ACCOUNT_INVALID', 'CLOSE_MATCH', 'INPUT_INVALID', 'NO_MATCH']);
    expect(await ratna.page.locator('dd', { hasText: / WIB$/ }).count()).toBeGreaterThan(0);
    await decide(ratna.page, 'DRV-0106', 'APPROVED', 'same driver: middle name missing in our data');
    await decide(ratna.page, 'AGT-0201', 'REJECTED', 'another person: ask the agent');
    await ratna.page.locator('#review-needsReview', { hasText: /^1$/ }).waitFor();

    await ratna.page.reload();
    await reviewLoaded(ratna.page);
    expect(await decisionText(ratna.page, 'DRV-0106')).toMatch(
      /^APPROVED by ratna · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d WIBsame driver: middle name missing in our data/,
    );
    expect(await decisionText(ratna.page, 'AGT-0201')).toContain('REJECTED by ratna');
    expect(await counts(ratna.page)).toEqual(['1', '1', '1']);

    await budi.page.goto(`${serve!.url}/batches/${day1}`);
    await reviewLoaded(budi.page);
    expect(await decisionText(budi.page, 'DRV-0106')).toContain('APPROVED by ratna');
    expect(await decisionText(budi.page, 'AGT-0201')).toContain('REJECTED by ratna');
    // Filters: what is left to decide, and a search by the last digits of an account.
    await budi.page.selectOption('#filter-decided', 'undecided');
    await budi.page.locator('#review-status', { hasText: /^1 rows$/ }).waitFor();
    expect(await budi.page.locator('#review tbody tr td:nth-child(2)').allTextContents()).toEqual(['AGT-0205']);
    await budi.page.selectOption('#filter-decided', 'all');
    await budi.page.fill('#filter-q', '6543');
    await budi.page.click('#filters button[type=submit]');
    await budi.page.locator('#review-status', { hasText: /^1 rows$/ }).waitFor();
    expect(await budi.page.locator('#review tbody tr td:nth-child(2)').allTextContents()).toEqual(['DRV-0106']);
    await budi.page.fill('#filter-q', '');
    await budi.page.click('#filters button[type=submit]');
    await budi.page.locator('#review-status', { hasText: /^\d+ rows$/ }).waitFor();
    if (process.env.REVIEW_DESK_SCREENSHOT) await budi.page.screenshot({ path: process.env.REVIEW_DESK_SCREENSHOT, fullPage: true });

    // Day 2: the same file, a new batch: both decisions stand.
    const day2 = await uploadFile(budi.page);
    expect(day2).not.toBe(day1);
    expect(await counts(budi.page)).toEqual(['1', '1', '1']);
    expect(await decisionText(budi.page, 'DRV-0106')).toContain('APPROVED by ratna');

    // Day 3: the bank renamed the approved holder: the approval no longer applies.
    await renameHolder(sandbox, { bankCode: '008', accountNumber: '0060009876543' }, 'RATNA SARI WULANDARI');
    await uploadFile(ratna.page);
    expect(await counts(ratna.page)).toEqual(['2', '0', '1']);
    const renamed = rowOf(ratna.page, 'DRV-0106');
    expect(await renamed.locator('td:nth-child(9)').textContent()).toContain('the decision APPROVED by ratna');
    expect(await renamed.locator('td:nth-child(9)').textContent()).toContain('no longer applies');
    expect(await renamed.locator('.decided').count()).toBe(0);

    // The batch table counts what is left for a person, per day.
    await ratna.page.goto(serve!.url);
    await ratna.page.locator('#batches tbody tr').nth(2).waitFor();
    const toReview = await ratna.page.locator('#batches tbody tr td.review-needsReview').allTextContents();
    expect(toReview).toEqual(['2', '1', '1']);
    expect(await ratna.page.locator('#batches thead').textContent()).toContain('Created (WIB)');

    // A file whose columns are not recognised: the page asks which is which, then checks it.
    const odd = join(file, '..', 'odd-headers.csv');
    await writeFile(odd, 'kode,norek,penerima\n008,0060009876543,Ratna Sari\n');
    await ratna.page.setInputFiles('input[name=file]', odd);
    await ratna.page.click('#upload button[type=submit]');
    await ratna.page.locator('#mapping').waitFor({ state: 'visible' });
    expect(await ratna.page.locator('#upload-status').textContent()).toContain('choose which column holds each');
    await ratna.page.selectOption('#map-bank', '0');
    await ratna.page.selectOption('#map-account', '1');
    await ratna.page.selectOption('#map-name', '2');
    await ratna.page.click('#map-submit');
    await ratna.page.waitForURL(/\/batches\/b\d{8}-/, { timeout: 30_000 });
    await reviewLoaded(ratna.page);
    expect(await ratna.page.locator('#review tbody tr td:nth-child(8)').allTextContents()).toEqual(['RATNA SARI WULANDARI']);
    expect([...ratna.errors, ...budi.errors]).toEqual([]);
    await ratna.context.close();
    await budi.context.close();
  });
});
