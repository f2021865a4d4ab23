/**
 * Loaded into every process a benchmark starts (`node --import`, through NODE_OPTIONS, so that the
 * processes those start are counted too): at exit, appends the process's CPU time (user + system, µs)
 * as one line to the file named by BENCH_CPU_FILE.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.BENCH_CPU_FILE;
if (file !== undefined && file !== '') {
  process.once('exit', () => {
    const { user, system } = process.cpuUsage();
    appendFileSync(file, `${user + system}\n`);
  });
}
