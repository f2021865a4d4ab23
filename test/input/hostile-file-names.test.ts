import { readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { keptName } from '../../src/watch/watcher.js';
import { cliEnvironment, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { ACCOUNTS_FIXTURE, beneficiaryCsv, opsEnvironment, removeTempFolders, tempFolder, waitFor } from '../ops/ops-helpers.js';

/**
 * The hostile-input suite, file names: what ops, a file server or an attacker drop into the watched folder.
 * Every file must end in outbox/ (a report with every row) and archive/, or in failed/ with a note saying
 * why; none may stay in inbox/ or processing/, and none may go unmentioned in the log.
 */
const ROWS = 3;

/** Names dropped into inbox/, by what makes them odd (each file's content is its own: no duplicates). */
const ODD_NAMES: Array<[string, string]> = [
  ['line feed', 'pay\nroll.csv'],
  ['carriage return', 'pay\rroll.csv'],
  ['CR LF', 'pay\r\nroll.csv'],
  ['line separator U+2028', 'pay\u2028roll.csv'],
  ['paragraph separator U+2029', 'pay\u2029roll.csv'],
  ['tab and other controls', 'pay\troll\u0001\u001b[31m.csv'],
  ['quotes and spaces', `pay "roll" 'final' v2 .csv`],
  ['shell and format characters', '$(id);`id`|&%s%n%d{0}.csv'],
  ['leading dash', '-rf payroll.csv'],
  ['unicode', 'gaji-karyawan-ñ-東京-🙂.csv'],
  ['right-to-left override', 'payroll\u202Evsc.csv'],
  ['an account number', 'payroll 5270 1234 56.csv'],
  ['a claim id of its own', '20261121T065203Z-3f9a1c--payroll.csv'],
  ['240 bytes, ASCII', `${'x'.repeat(236)}.csv`],
  ['251 bytes, two-byte characters', `${'é'.repeat(123)}.xl.csv`],
  ['upper-case extension', 'PAYROLL.CSV'],
];

/** A name that is no valid UTF-8 (Latin-1 `p\xe9roll.csv` from an SMB client): its bytes. */
const LATIN1_NAME = Buffer.from('p\xe9roll-latin1.csv', 'latin1');

let sandbox: SandboxServer;
let redis: Redis;
let prefix: string;
let folder: string;
let watcher: ReturnType<typeof startCli>;
const inbox = () => join(folder, 'inbox');
const list = async (name: string) => (await readdir(join(folder, name))).sort();

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: ACCOUNTS_FIXTURE, latencyMs: { min: 0, max: 2 } });
  redis = testRedis();
  prefix = testKeyPrefix();
  folder = await tempFolder('odd-names');
  watcher = startCli(
    ['watch', folder],
    cliEnvironment(
      opsEnvironment(prefix, sandbox.url, {
        WATCH_STABLE: '1s',
        WATCH_POLL: '100ms',
        INQUIRY_RATE: '100/s',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      }),
    ),
  );
  await waitFor(
    async () => (await readdir(folder).catch((): string[] => [])).includes('failed'),
    10_000,
    'the watcher to create its folders',
  );
  for (const [index, [, name]] of ODD_NAMES.entries())
    await writeFile(join(inbox(), name), (await beneficiaryCsv(`ODD${index}`, ROWS)).text);
  await writeFile(Buffer.concat([Buffer.from(`${inbox()}/`), LATIN1_NAME]), (await beneficiaryCsv('LATIN', ROWS)).text);
  // A file nobody claimed, put into processing/ by hand; another whose name is no valid UTF-8.
  await writeFile(join(folder, 'processing', 'stray.csv'), (await beneficiaryCsv('STRAY', ROWS)).text);
  await writeFile(
    Buffer.concat([Buffer.from(`${folder}/processing/`), Buffer.from('stray-\xe9.csv', 'latin1')]),
    (await beneficiaryCsv('STRAYLATIN', ROWS)).text,
  );
  // A symbolic link to a CSV elsewhere (a file this process can read, the person who dropped it perhaps not).
  await writeFile(join(folder, 'elsewhere.csv'), (await beneficiaryCsv('LINKED', ROWS)).text);
  await symlink(join(folder, 'elsewhere.csv'), join(inbox(), 'linked.csv'));
  await waitFor(
    async () =>
      (await list('inbox')).length === 0 &&
      (await list('processing')).length === 0 &&
      (await list('archive')).length === ODD_NAMES.length + 1 &&
      (await list('failed')).length === 6,
    120_000,
    'every file to leave inbox/ and processing/',
  );
}, 180_000);

afterAll(async () => {
  if (watcher.exitCode === null) {
    watcher.kill('SIGTERM');
    await waitForExit(watcher);
  }
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await sandbox?.close();
  await removeTempFolders();
});

describe('odd file names in the watched folder', () => {
  it.each(ODD_NAMES)('%s: reported with every row, archived, named in the log', async (_what, name) => {
    const kept = keptName(name);
    const stem = kept.replace(/\.csv$/i, '');
    expect(await list('archive')).toContain(kept);
    expect(await list('outbox')).toContain(`${stem}.reconciled.csv`);
    const rows = await readReport(join(folder, 'outbox', `${stem}.reconciled.csv`));
    expect(rows).toHaveLength(ROWS);
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
    // Its own rows, once each: the report is of this file, not another one's.
    expect(new Set(rows.map((row) => row.beneficiary_id!.split('-')[0])).size).toBe(1);
    const logged = watcher
      .output()
      .stderr.split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; file?: string });
    // The log shows the name masked (an account number in it), as it came and as it is kept.
    const shown = (text: string) => text.replace('5270 1234 56', '******3456');
    const mentioned = logged.filter((line) => line.file === shown(name) || line.file === shown(kept));
    expect(mentioned.map((line) => line.msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^took a file from the inbox/), 'report written, input archived']),
    );
  });

  it('keeps a name too long for the claim and the report shorter, cut on a character, ending in …', () => {
    expect(keptName(`${'x'.repeat(236)}.csv`)).toBe(`${'x'.repeat(177)}….csv`);
    expect(keptName(`${'é'.repeat(123)}.xl.csv`)).toBe(`${'é'.repeat(88)}….csv`);
    expect(keptName('payroll.csv')).toBe('payroll.csv');
  });

  it('a name that is no valid UTF-8 is taken and checked, under its text reading (U+FFFD for the odd bytes)', async () => {
    const shown = LATIN1_NAME.toString('utf8');
    expect(shown).toBe('p\uFFFDroll-latin1.csv');
    expect(await list('archive')).toContain(shown);
    expect(await readReport(join(folder, 'outbox', 'p\uFFFDroll-latin1.reconciled.csv'))).toHaveLength(ROWS);
  });

  it('a file in processing/ that no watcher claimed goes to failed/ with the reason, never left there, whatever its name', async () => {
    expect(await list('failed')).toEqual(
      expect.arrayContaining(['stray.csv', 'stray.error.txt', 'stray-\uFFFD.csv', 'stray-\uFFFD.error.txt']),
    );
    expect(await readFile(join(folder, 'failed', 'stray.error.txt'), 'utf8')).toContain(
      'stray.csv was not checked: it was found in processing/ without a claim of this watcher',
    );
    expect(await readFile(join(folder, 'failed', 'stray-\uFFFD.error.txt'), 'utf8')).toContain(
      'was not checked: it was found in processing/ without a claim of this watcher',
    );
    expect(watcher.output().stderr).toContain('found in processing/ without a claim');
  });

  it('a symbolic link dropped into inbox/ is refused: the link goes to failed/ with the reason, its target is never read', async () => {
    expect(await list('failed')).toEqual(expect.arrayContaining(['linked.csv', 'linked.error.txt']));
    expect(await readlink(join(folder, 'failed', 'linked.csv'))).toBe(join(folder, 'elsewhere.csv'));
    expect(await readFile(join(folder, 'failed', 'linked.error.txt'), 'utf8')).toContain(
      'linked.csv was not checked: it is a symbolic link',
    );
    expect(await list('outbox')).not.toContain('linked.reconciled.csv');
    expect(watcher.output().stderr).toContain('refused: it is a symbolic link');
  });

  it('never shows the account number in a file name in full in a log line', () => {
    expect(watcher.output().stderr).not.toMatch(/5270 1234 56|5270123456/);
    expect(watcher.output().stderr).toContain('payroll ******3456.csv');
  });
});
