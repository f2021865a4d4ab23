import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportTrail } from '../../src/review/trail-export.js';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

describe('exportTrail', () => {
  it('masks the digit runs of free text (a note quoting an account number), as the console shows a note', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bc-trail-'));
    folders.push(folder);
    const entry = {
      id: '1796000000000-0',
      recordedAt: 1_796_000_000_000,
      fields: {
        event: 'RECORDED',
        decision: 'REJECTED',
        decided_by: 'ratna 0012345678',
        note: 'wrong account, see ticket 0060009876543',
        account: '*********6543',
        expected_name: 'Ratna Sari',
        holder_name: 'RATNA SARI DEWI',
      },
    };
    const path = join(folder, 'decisions.csv');
    expect(
      await exportTrail(
        {
          trail: async function* () {
            yield [entry];
          },
        },
        path,
        'Asia/Jakarta',
      ),
    ).toBe(1);
    const text = await readFile(path, 'utf8');
    expect(text).toContain('wrong account, see ticket *********6543');
    expect(text).toContain('ratna ******5678');
    expect(text).not.toContain('0060009876543');
    expect(text).toContain('2026-');
  });
});
