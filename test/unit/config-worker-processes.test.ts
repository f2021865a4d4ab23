import { describe, expect, it } from 'vitest';
import { loadConfig, parseRate, rateSetting } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';

describe('RUN_WORKER_PROCESSES', () => {
  it('is auto unless set; a whole number is that many, 0 none', () => {
    expect(loadConfig({}, {}).runWorkerProcesses).toEqual({ kind: 'auto' });
    expect(loadConfig({}, { RUN_WORKER_PROCESSES: ' AUTO ' }).runWorkerProcesses).toEqual({ kind: 'auto' });
    expect(loadConfig({}, { RUN_WORKER_PROCESSES: '0' }).runWorkerProcesses).toEqual({ kind: 'fixed', count: 0 });
    expect(loadConfig({}, { RUN_WORKER_PROCESSES: '3' }).runWorkerProcesses).toEqual({ kind: 'fixed', count: 3 });
  });

  it('refuses anything else', () => {
    for (const value of ['-1', '1.5', 'many', 'on']) expect(() => loadConfig({}, { RUN_WORKER_PROCESSES: value })).toThrow(ConfigError);
  });
});

describe('the settings a worker process of run is given', () => {
  it('the rate, exactly as parsed', () => {
    for (const text of ['20/s', '600/min', '0.5/s', '1/min', '1000000/s'])
      expect(parseRate(rateSetting(parseRate(text)))).toEqual(parseRate(text));
  });

  it('whether a concurrency cap was chosen, by flag or environment', () => {
    expect(loadConfig({}, {}).inquiry.concurrencyGiven).toBe(false);
    expect(loadConfig({ concurrency: '8' }, {}).inquiry.concurrencyGiven).toBe(true);
    expect(loadConfig({}, { INQUIRY_CONCURRENCY: '64' }).inquiry.concurrencyGiven).toBe(true);
  });
});
