import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/cli.js';
import { cleanContext, parseDockerfile, replayStage, type ReplayedStage, type Stage } from './docker-build.js';

/**
 * The image builds from a clean checkout: the Dockerfile's own COPY and RUN lines, replayed in a temporary
 * folder from the tracked files less .dockerignore (see docker-build.ts for what a replay can and cannot do).
 * npm ci runs for real (both stages), offline-friendly through the machine's npm cache; tsc runs for real.
 */
const REPLAY_TIMEOUT_MS = 600_000;
/** The runtime stage's folders for mounted volumes, made as root outside the WORKDIR: only a container can. */
const containerOnly = (command: string) => /^mkdir -p( \/data\/\w+)+ && chown -R node:node \/data$/.test(command);

const exec = promisify(execFile);
const { version } = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
let work: string;
let stages: Stage[];
const replayed = new Map<string, ReplayedStage>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bc-docker-replay-'));
  stages = parseDockerfile(await readFile(join(PROJECT_ROOT, 'Dockerfile'), 'utf8'));
  await cleanContext(PROJECT_ROOT, join(work, 'context'));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function replay(stage: Stage): Promise<ReplayedStage> {
  const result = await replayStage(stage, {
    context: join(work, 'context'),
    root: join(work, `stage-${stage.name}`),
    earlier: replayed,
    containerOnly,
  });
  replayed.set(stage.name, result);
  return result;
}

/** Runs `command` in the stage's WORKDIR with the stage's ENV, as `docker run` would. */
const inStage = (stage: ReplayedStage, [file, ...args]: string[]) =>
  exec(file!, args, { cwd: join(stage.root, stage.workdir), env: { PATH: process.env.PATH, ...stage.env } });

describe('the Dockerfile, replayed without a container engine', () => {
  it('builds every stage on the current Node LTS image', () => {
    expect(stages.length).toBeGreaterThan(1);
    for (const stage of stages) expect(stage.image, stage.name).toBe('node:24-bookworm-slim');
  });

  it('the build stage, from a clean checkout, compiles only what the image runs, and its CLI answers --version', {
    timeout: REPLAY_TIMEOUT_MS,
  }, async () => {
    let build: ReplayedStage | undefined;
    for (const stage of stages.slice(0, -1)) build = await replay(stage);
    expect(build!.skipped).toEqual([]);
    const app = join(build!.root, build!.workdir);
    expect((await readdir(join(app, 'dist'))).sort()).toEqual(['jobs', 'src']);
    const { stdout } = await exec(process.execPath, ['dist/src/cli/main.js', '--version'], { cwd: app });
    expect(stdout.trim()).toBe(version);
  });

  it('the runtime stage installs the production dependencies only, and its ENTRYPOINT answers --version', {
    timeout: REPLAY_TIMEOUT_MS,
  }, async () => {
    expect(replayed.size, 'the build stage replayed first').toBe(stages.length - 1);
    const image = await replay(stages.at(-1)!);
    expect(image.skipped).toHaveLength(1);
    expect(image.env.NODE_ENV).toBe('production');
    // Nothing the lock file marks as needed by development only (the compiler, the test runner, their own).
    const lock = JSON.parse(await readFile(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.dev)
      .map(([path]) => path);
    expect(devOnly).toEqual(expect.arrayContaining(['node_modules/typescript', 'node_modules/vitest']));
    for (const path of devOnly) expect(existsSync(join(image.root, image.workdir, path)), path).toBe(false);

    const { stdout } = await inStage(image, [...image.entrypoint, '--version']);
    expect(stdout.trim()).toBe(version);

    // --version loads only what the CLI loads up front: every package any compiled module imports must resolve too.
    const packages = new Set<string>();
    for (const file of await readdir(join(image.root, image.workdir, 'dist'), { recursive: true })) {
      if (!file.endsWith('.js')) continue;
      const code = await readFile(join(image.root, image.workdir, 'dist', file), 'utf8');
      for (const [, , specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"./][^'"]*)\1/g)) packages.add(specifier!);
    }
    expect(packages.size).toBeGreaterThan(10);
    const resolve = `for (const specifier of ${JSON.stringify([...packages])}) import.meta.resolve(specifier);`;
    await expect(inStage(image, [process.execPath, '--input-type=module', '-e', resolve])).resolves.toBeTruthy();
  });
});
