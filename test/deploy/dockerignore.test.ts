import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/cli.js';
import { isIgnored, parseDockerfile, parseDockerignore } from './docker-build.js';

const read = (name: string) => readFile(join(PROJECT_ROOT, name), 'utf8');
const patterns = async () => parseDockerignore(await read('.dockerignore'));

describe('.dockerignore', () => {
  it('keeps secrets, dependencies, build output, local data and test results out of the build context', async () => {
    const dockerignore = await patterns();
    const localState = [
      'node_modules/bullmq/package.json',
      '.git/HEAD',
      'dist/src/cli/main.js',
      '.env',
      '.env.example',
      '.env.production',
      '.env.local',
      '.env.staging.local',
      'redis.env.production',
      'src/.env',
      'examples/.env.production',
      'examples/redis.env',
      'src/node_modules/left-over.js',
      'jobs/dist/inquiry.js',
      'out/beneficiaries.reconciled.csv',
      'data/watch/inbox/payouts.csv',
      'reports/nightly.reconciled.csv',
      'test-results.json',
      'coverage/index.html',
      'tmp/scratch.csv',
      'npm-debug.log',
      'src/debug.log',
      '.vscode/settings.json',
      'bench/support.ts',
      'test/support/cli.ts',
    ];
    for (const path of localState) expect(isIgnored(dockerignore, path), path).toBe(true);
  });

  it('keeps out whatever git ignores in this checkout (node_modules, dist, an .env, reports...)', async () => {
    const dockerignore = await patterns();
    const { stdout } = await promisify(execFile)('git', ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], {
      cwd: PROJECT_ROOT,
    });
    const gitIgnored = stdout
      .split('\0')
      .filter((path) => path !== '')
      .map((path) => path.replace(/\/$/, ''));
    expect(gitIgnored).toContain('node_modules');
    for (const path of gitIgnored) expect(isIgnored(dockerignore, path), path).toBe(true);
  });

  it('lets in everything the Dockerfile copies from the build context', async () => {
    const dockerignore = await patterns();
    const copied = parseDockerfile(await read('Dockerfile'))
      .flatMap((stage) => stage.instructions)
      .filter((instruction) => instruction.keyword === 'COPY' && instruction.options.from === undefined)
      .flatMap((instruction) => instruction.args.split(/\s+/).slice(0, -1));
    expect(copied).toEqual(expect.arrayContaining(['package-lock.json', 'tsconfig.json', 'src', 'jobs', 'examples']));
    for (const path of [...copied, 'src/cli/main.ts', 'jobs/inquiry.ts', 'examples/beneficiaries.csv'])
      expect(isIgnored(dockerignore, path), path).toBe(false);
  });
});
