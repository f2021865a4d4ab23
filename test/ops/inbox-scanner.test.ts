import { appendFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { InboxScanner } from '../../src/watch/inbox.js';
import { removeTempFolders, tempFolder } from './ops-helpers.js';

/** The completeness rule on a real folder, with the watcher's clock in the test's hands. */
describe('InboxScanner', () => {
  afterAll(removeTempFolders);
  const names = async (scanner: InboxScanner) => (await scanner.scan()).map((file) => `${file.name}:${file.reason}`);

  it('takes a file once two scans saw it unchanged for the stability time; any change starts the wait again', async () => {
    const inbox = await tempFolder('scan');
    let now = 1_000_000;
    const scanner = new InboxScanner(inbox, 10_000, () => now);
    await writeFile(join(inbox, 'a.csv'), 'bank_code,account_number\n');
    expect(await names(scanner)).toEqual([]); // first sight: never complete
    now += 9_000;
    expect(await names(scanner)).toEqual([]);
    await appendFile(join(inbox, 'a.csv'), '014,0012345678\n'); // the writer resumes after a pause
    now += 5_000;
    expect(await names(scanner)).toEqual([]); // changed: measured again from here
    now += 9_999;
    expect(await names(scanner)).toEqual([]);
    now += 1;
    expect(await names(scanner)).toEqual(['a.csv:stable']);
  });

  it('takes a file renamed from .part/.tmp at once; ignores hidden, staging and names other than CSV/XLSX', async () => {
    const inbox = await tempFolder('scan');
    const now = 1_000_000;
    const scanner = new InboxScanner(inbox, 10_000, () => now);
    await writeFile(join(inbox, 'b.csv.part'), 'x\n');
    await writeFile(join(inbox, 'c.tmp'), 'x\n');
    await writeFile(join(inbox, '.d.csv'), 'x\n');
    await writeFile(join(inbox, 'e.txt'), 'x\n');
    await writeFile(join(inbox, 'f.xls'), 'x\n');
    expect(await names(scanner)).toEqual([]);
    await rename(join(inbox, 'b.csv.part'), join(inbox, 'b.csv'));
    await rename(join(inbox, 'c.tmp'), join(inbox, 'C.CSV'));
    expect((await names(scanner)).sort()).toEqual(['C.CSV:renamed', 'b.csv:renamed']);
    // A new file next to a staging name still being written is not "renamed".
    await writeFile(join(inbox, 'g.csv.part'), 'x\n');
    expect((await names(scanner)).sort()).toEqual(['C.CSV:renamed', 'b.csv:renamed']);
    await writeFile(join(inbox, 'g.csv'), 'x\n');
    expect((await names(scanner)).sort()).toEqual(['C.CSV:renamed', 'b.csv:renamed']);
  });

  it('measures the stability time on the monotonic clock: a step of the wall clock does not make a new file look old', async () => {
    const inbox = await tempFolder('scan');
    const wall = Date.now;
    let step = 0;
    const stepped = vi.spyOn(Date, 'now').mockImplementation(() => wall() + step);
    try {
      const scanner = new InboxScanner(inbox, 10_000);
      await writeFile(join(inbox, 'a.csv'), 'bank_code,account_number\n');
      expect(await names(scanner)).toEqual([]);
      // The wall clock steps 2 h ahead (NTP, a VM resume), as the file may still be growing.
      step = 2 * 3600_000;
      expect(await names(scanner)).toEqual([]);
    } finally {
      stepped.mockRestore();
    }
  });

  it('returns a symbolic link with a file name at once, as a link (the watcher refuses it), never as a file', async () => {
    const inbox = await tempFolder('scan');
    const elsewhere = await tempFolder('elsewhere');
    await writeFile(join(elsewhere, 'target.csv'), 'x\n');
    await symlink(join(elsewhere, 'target.csv'), join(inbox, 'linked.csv'));
    await symlink(join(elsewhere, 'target.csv'), join(inbox, 'linked.txt'));
    expect(await names(new InboxScanner(inbox, 10_000))).toEqual(['linked.csv:link']);
  });
});
