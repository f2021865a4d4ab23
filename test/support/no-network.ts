import net from 'node:net';

/**
 * Setup of the unit project: a unit test needs no Redis, no emulator and no network. Any attempt to open a
 * connection fails the test at once, naming the address, instead of passing on a developer's machine with
 * a Redis running and failing in CI.
 */
net.Socket.prototype.connect = function refuse(...args: unknown[]): never {
  throw new Error(`unit tests open no connection (tried ${JSON.stringify(args[0])}): this test belongs in the integration project`);
};
