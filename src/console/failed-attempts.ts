import { isIP } from 'node:net';

/** Wrong tokens an address may present at once (typos, a browser's remembered old token). */
export const FREE_FAILURES = 10;
/** Then one more every this long: 10 a minute, so 4,500 guesses take 7.5 hours instead of seconds. */
export const FAILURE_REFILL_MS = 6_000;
/** Addresses remembered at most; the longest-remembered goes first (memory stays bounded under a spread attack). */
const MOST_CLIENTS = 10_000;

interface Allowance {
  /** Wrong tokens this address may still present now (fractions refill with time). */
  left: number;
  at: number;
}

/**
 * Wrong CONSOLE_TOKENs per client address, as a token bucket: FREE_FAILURES at once, then one every
 * FAILURE_REFILL_MS. An address past its allowance is refused before its token is even compared (a right
 * token too: otherwise the refusal would tell a guesser which guess was right). A request without any token
 * (a browser's first visit, before it asks for one) costs nothing. IPv6 addresses count by their /64, the
 * block one machine usually holds. Kept in this process: several consoles each count their own.
 */
export class FailedAttempts {
  private readonly clients = new Map<string, Allowance>();

  constructor(private readonly now: () => number = Date.now) {}

  /** How long (ms) this address must wait before presenting a token again; 0 when it may now. */
  waitFor(address: string): number {
    const allowance = this.current(clientOf(address));
    return allowance.left >= 1 ? 0 : Math.ceil((1 - allowance.left) * FAILURE_REFILL_MS);
  }

  /** A wrong token from this address; true when that used up its allowance (its next try must wait). */
  failed(address: string): boolean {
    const client = clientOf(address);
    const allowance = this.current(client);
    this.clients.delete(client);
    this.clients.set(client, { left: allowance.left - 1, at: allowance.at });
    while (this.clients.size > MOST_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
    return allowance.left - 1 < 1;
  }

  private current(client: string): Allowance {
    const now = this.now();
    const known = this.clients.get(client);
    if (known === undefined) return { left: FREE_FAILURES, at: now };
    const left = Math.min(FREE_FAILURES, known.left + (now - known.at) / FAILURE_REFILL_MS);
    if (left >= FREE_FAILURES) this.clients.delete(client);
    return { left, at: now };
  }
}

/** The key an address counts under: IPv4 as is (also when written as IPv6-mapped), IPv6 by its first 64 bits. */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded. */
function expandIpv6(address: string): string[] {
  const [head, tail] = address.toLowerCase().split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}
