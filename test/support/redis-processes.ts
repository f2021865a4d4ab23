import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import { freePort } from './own-redis.js';

/**
 * redis-server processes of a test's own, beyond the shared Redis: a 3-master cluster, a TLS server. Every
 * process and its directory is removed by `stop()`; a missing binary fails the test with what to install.
 */
export interface RedisProcesses {
  /** The directory that holds the servers' files (removed by stop). */
  directory: string;
  stop(): Promise<void>;
}

/** Fails with what to install when redis-server or redis-cli is missing (CI installs them: .ci/run). */
export function requireRedisTools(): void {
  for (const tool of ['redis-server', 'redis-cli']) {
    const probe = spawnSync(tool, ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined || probe.status !== 0) {
      throw new Error(
        `${tool} is not installed: this test starts its own Redis servers. Install Debian's redis-server (it brings redis-tools with redis-cli): apt-get install redis-server`,
      );
    }
  }
}

/** A redis-server of a test's, with the end of what it logged (why it exited, when it did). */
interface TestServer {
  process: ChildProcess;
  output(): string;
}

/** Nothing kept on disk: the servers of these tests are throw-away. */
const NO_PERSISTENCE = ['--save', '', '--appendonly', 'no'];

async function startServers(
  prefix: string,
): Promise<{ directory: string; spawnServer(args: string[], persistence?: string[]): TestServer; stop(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  const servers: ChildProcess[] = [];
  return {
    directory,
    spawnServer(args, persistence = NO_PERSISTENCE) {
      const server = spawn('redis-server', [...args, '--bind', '127.0.0.1', '--dir', directory, ...persistence, '--daemonize', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      servers.push(server);
      let output = '';
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000));
      server.stdout!.on('data', keep);
      server.stderr!.on('data', keep);
      return { process: server, output: () => output.trim() };
    },
    async stop() {
      await Promise.all(
        servers.map(async (server) => {
          if (server.exitCode !== null || server.signalCode !== null) return;
          const exited = new Promise((resolve) => server.once('exit', resolve));
          server.kill('SIGKILL');
          await exited;
        }),
      );
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The server ended before it answered (its port taken meanwhile, no TLS in this build): `output` says why. */
class ServerExitedError extends Error {}

/** Waits until `server` answers PING with these options (a fresh client each try, none left behind). */
async function waitForPing(server: TestServer, options: RedisOptions, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis({ ...options, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch (error) {
      if (server.process.exitCode !== null || server.process.signalCode !== null)
        throw new ServerExitedError(`${what} exited before it answered: ${server.output()}`);
      if (Date.now() > deadline) throw new Error(`${what} did not start: ${(error as Error).message}; it logged: ${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
}

export interface LocalCluster extends RedisProcesses {
  /** host:port of every master, comma-separated (REDIS_CLUSTER_NODES without a scheme). */
  nodes: string;
  /** With `tls`: the CA that signed the nodes' certificate. */
  caFile: string | undefined;
}

/**
 * Three masters, no replicas, on free ports (the cluster bus on free ports too: port + 10000 may not exist),
 * joined with `redis-cli --cluster create`; ready when every node says cluster_state:ok.
 */
export async function startLocalCluster(options: { tls?: boolean; password?: string } = {}): Promise<LocalCluster> {
  requireRedisTools();
  const servers = await startServers('bc-cluster-');
  try {
    const ca = options.tls ? await makeCertificates(servers.directory) : undefined;
    const security = [
      ...(ca !== undefined ? ['--tls-cluster', 'yes', ...tlsServerArgs(servers.directory)] : []),
      ...(options.password !== undefined ? ['--requirepass', options.password, '--masterauth', options.password] : []),
    ];
    const clientOptions: RedisOptions = {
      ...(ca !== undefined && { tls: { ca } }),
      ...(options.password !== undefined && { password: options.password }),
    };
    const ports: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      // A free port is free when asked, not when the server binds it: a test running beside this one may take
      // it in between, and the node exits at once. Then the node starts again on other ports.
      for (let attempt = 1; ; attempt += 1) {
        const port = await freePort();
        const busPort = await freePort();
        const listen = ca !== undefined ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)];
        const node = servers.spawnServer([
          ...listen,
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          join(servers.directory, `nodes-${port}.conf`),
          ...security,
        ]);
        try {
          await waitForPing(node, { host: '127.0.0.1', port, ...clientOptions }, `cluster node ${port}`);
          ports.push(port);
          break;
        } catch (error) {
          if (!(error instanceof ServerExitedError) || attempt === 3) throw error;
        }
      }
    }
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    const cliSecurity = [
      ...(ca !== undefined ? ['--tls', '--cacert', join(servers.directory, 'ca.crt')] : []),
      ...(options.password !== undefined ? ['--no-auth-warning', '-a', options.password] : []),
    ];
    const create = spawnSync('redis-cli', [...cliSecurity, '--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stderr || create.stdout}`);
    const deadline = Date.now() + 20_000;
    for (const port of ports) {
      const node = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, ...clientOptions });
      try {
        while (!/cluster_state:ok/.test(await node.cluster('INFO'))) {
          if (Date.now() > deadline) throw new Error(`cluster node ${port} never reached cluster_state:ok`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        node.disconnect();
      }
    }
    return {
      directory: servers.directory,
      nodes: nodes.join(','),
      caFile: ca === undefined ? undefined : join(servers.directory, 'ca.crt'),
      stop: servers.stop,
    };
  } catch (error) {
    await servers.stop();
    throw error;
  }
}

export interface DurableRedis extends RedisProcesses {
  url: string;
  /** Stops the server (SIGTERM: Redis's own shutdown, the append-only file flushed) and starts it again on its directory and port. */
  restart(): Promise<void>;
}

/**
 * A redis-server kept on disk as the compose file keeps its Redis: the append-only file on, fsync every
 * second, no snapshots. `restart` stops it and starts it again from its files.
 */
export async function startDurableRedis(): Promise<DurableRedis> {
  requireRedisTools();
  const servers = await startServers('bc-durable-redis-');
  const port = await freePort();
  const persistence = ['--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'];
  const start = async (): Promise<TestServer> => {
    const server = servers.spawnServer(['--port', String(port)], persistence);
    await waitForPing(server, { host: '127.0.0.1', port }, 'durable redis-server');
    return server;
  };
  let server: TestServer;
  try {
    server = await start();
  } catch (error) {
    await servers.stop();
    throw error;
  }
  return {
    directory: servers.directory,
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      const exited = new Promise((resolve) => server.process.once('exit', resolve));
      const stopper = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0, retryStrategy: () => null });
      stopper.on('error', () => undefined);
      await stopper.call('SHUTDOWN').catch(() => undefined); // the connection closes as the server exits
      stopper.disconnect();
      await exited;
      server = await start();
    },
    stop: servers.stop,
  };
}

export interface TlsRedis extends RedisProcesses {
  port: number;
  /** The throw-away CA that signed the server certificate (for REDIS_TLS_CA_FILE). */
  caFile: string;
}

/**
 * A redis-server that speaks TLS only, with a certificate for 127.0.0.1 signed by a throw-away CA made
 * here with openssl. Undefined when this redis-server was built without TLS (the caller says so and skips).
 */
export async function startTlsRedis(): Promise<TlsRedis | undefined> {
  requireRedisTools();
  const servers = await startServers('bc-tls-redis-');
  try {
    const ca = await makeCertificates(servers.directory);
    const port = await freePort();
    const server = servers.spawnServer(['--port', '0', '--tls-port', String(port), ...tlsServerArgs(servers.directory)]);
    try {
      await waitForPing(server, { host: '127.0.0.1', port, tls: { ca } }, 'TLS redis-server');
    } catch (error) {
      if (!(error instanceof ServerExitedError)) throw error;
      await servers.stop();
      return undefined;
    }
    return { directory: servers.directory, port, caFile: join(servers.directory, 'ca.crt'), stop: servers.stop };
  } catch (error) {
    await servers.stop();
    throw error;
  }
}

/** A throw-away CA and a server certificate for 127.0.0.1 signed by it (openssl); returns the CA's PEM. */
async function makeCertificates(directory: string): Promise<string> {
  const openssl = (args: string[]) => {
    const result = spawnSync('openssl', args, { encoding: 'utf8', cwd: directory });
    if (result.error !== undefined || result.status !== 0)
      throw new Error(`openssl ${args[0]} failed: ${result.error?.message ?? result.stderr}`);
  };
  openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=beneficiary-check test CA',
  ]);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  await writeFile(join(directory, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'san.ext',
  ]);
  return readFile(join(directory, 'ca.crt'), 'utf8');
}

/** The server side of TLS with that certificate; clients need no certificate of their own. */
const tlsServerArgs = (directory: string): string[] => [
  '--tls-cert-file',
  join(directory, 'server.crt'),
  '--tls-key-file',
  join(directory, 'server.key'),
  '--tls-ca-cert-file',
  join(directory, 'ca.crt'),
  '--tls-auth-clients',
  'no',
];
