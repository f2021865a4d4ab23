import { randomUUID } from 'node:crypto';
import { rateSetting, type Rate } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { thisPlace } from '../host/process.js';
import type { Logger } from '../logging/logger.js';
import { runCommand, type RedisClient } from '../redis/commands/define.js';
import { RATE_CEILING_JOIN } from '../redis/commands/rate-ceiling.js';

/** How long a worker process's rate stays registered without renewal: one that died frees the rate within this. */
const REGISTRATION_TTL_MS = 30_000;

/** A live worker process of the queue, as registered. */
interface Registration {
  rate: string;
  owner: string;
  host: string;
  pid: number;
}

/**
 * The configured rate is one ceiling for every worker of a queue (a provider endpoint): each process paces
 * with its own rate, so two processes started with different ones would send at the higher (a 5/s worker
 * beside a 100/s one made bursts of 6 calls in 60 ms). A process joins the queue only with the rate of the
 * worker processes already alive there; another rate is refused at start (exit 2, naming the rate in force).
 * Refused rather than adopted: a rate the user typed is never silently replaced, and the conflict shows at
 * start, where it is cheap to mend, not as 429s in the night. A process leaves when it stops; one that dies
 * leaves when its registration expires (REGISTRATION_TTL_MS).
 */
export class RateCeiling {
  private readonly setting: string;
  private readonly member: string;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    rate: Rate,
    private readonly logger: Logger,
  ) {
    this.setting = rateSetting(rate);
    const registration: Registration = { rate: this.setting, owner: randomUUID(), host: thisPlace.host, pid: process.pid };
    this.member = JSON.stringify(registration);
  }

  /** Registers this process's rate and keeps it registered; throws ConfigError when live workers run at another rate. */
  async join(): Promise<void> {
    const other = await this.register();
    if (other !== undefined) {
      throw new ConfigError(
        `the workers of this queue run at ${other.rate} (pid ${other.pid} on ${other.host}, among others maybe); this process was started with --rate ${this.setting} (or INQUIRY_RATE): ` +
          `the rate is one ceiling for every worker of a provider endpoint. Start it with --rate ${other.rate}, or stop the others first (a stopped worker withdraws its rate at once, one that died within ${REGISTRATION_TTL_MS / 1000} s)`,
      );
    }
    this.timer ??= setInterval(() => {
      this.register().then(
        (conflict) => {
          if (conflict !== undefined)
            this.logger.error(
              `another rate (${conflict.rate}, pid ${conflict.pid} on ${conflict.host}) registered on this queue while this process runs at ${this.setting}: the two send at the higher; stop one of them`,
            );
        },
        // Redis trouble is the connection's supervisor's to report; the registration is renewed when it is back.
        () => undefined,
      );
    }, REGISTRATION_TTL_MS / 3).unref();
  }

  /** Withdraws this process's rate (it stops). */
  async leave(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.redis.zrem(this.key, this.member);
  }

  private async register(): Promise<Registration | undefined> {
    const conflict = await runCommand<string | null>(
      this.redis,
      RATE_CEILING_JOIN,
      [this.key],
      [this.setting, this.member, REGISTRATION_TTL_MS],
    );
    if (conflict === null) return undefined;
    try {
      return JSON.parse(conflict) as Registration;
    } catch {
      return { rate: '?', owner: '?', host: '?', pid: 0 };
    }
  }
}
