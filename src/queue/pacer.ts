import { sleep } from '../clock/clock.js';
import { ratePerSecond, type Rate } from '../config/index.js';
import { runCommand, type RedisClient } from '../redis/commands/define.js';
import { RedisClockBound } from './redis-clock.js';
import { BATCH_CALL_NEEDED } from '../redis/commands/batch.js';
import {
  PACER_CONFIRM_SLOT,
  PACER_MOVE_RECORD,
  PACER_PRE_CALL,
  PACER_READ_RATE,
  PACER_RESERVE_SLOT,
  PACER_SLOW_DOWN,
} from '../redis/commands/pacer.js';
import {
  allowedRate,
  FLOOR,
  rateAt,
  sendsUnpaced,
  slotInterval,
  slowedRate,
  UNPACED_FROM,
  WINDOW_MARGIN_MS,
  type RateState,
} from './rate-control.js';

/**
 * The window guard records a send for the time its slot is booked (or, confirmed, at Redis's now), but the
 * call leaves when the HTTP client has written it to a connection: later by its timer's lateness, the time
 * this process took to get to it (a busy event loop) and, on a new connection, by connecting (and a TLS
 * handshake). A send that leaves more than this after the time recorded moves its record to the moment it
 * left (PACER_MOVE_RECORD, sent as it leaves, not waited for). This
 * bounds the part of the record-to-arrival jitter that is ours; the guard's margin (WINDOW_MARGIN_MS)
 * covers it and the provider's side. Without it, the first calls of a run (each on a new connection, up to
 * 20 ms late on a busy loop) met calls a window later that were not late, closer than the window: a 429.
 * 3 ms, not the 8 of records made at admission: a booked record counts the timer's lateness too, and at
 * 8 ms a 10/s run against a provider allowing 10/s met a 429 in 3 of 8 runs on a loaded machine.
 */
const STALE_RECORD_MS = 3;

/**
 * A call sends on its booked slot without asking Redis again when this process read the pacer's state
 * (any reservation's reply, its epoch in it) less than this before, and no hold had begun by then: a
 * process sending at the rate reads it every few milliseconds. Otherwise (a slow rate, a call that waited
 * long, a 429 met here) it confirms the slot first (PACER_CONFIRM_SLOT): a hold may have begun meanwhile.
 */
const LATE_REPLY_MS = 100;

/**
 * No slot further ahead than this is booked (a call further back asks again when its turn is nearer): a
 * rate that changed reaches the waiting calls within it, and the window guard judges a booking against
 * the send a window before it at most this long before that send was due, so a send that left late (and
 * moved its record) up to a window minus this is seen. With a second (the reservation horizon before
 * slots were booked), a send 15 ms late was missed by the booking a window after it.
 */
const RESERVE_HORIZON_MS = 250;
const LATER_SPREAD_MS = 50;
/** How stale the rate may be when calls go out unpaced: a 429's slow-down reaches every process within it. */
const UNPACED_READ_MS = 1_000;

/** The reason a reply of BATCH_CALL_NEEDED or PACER_PRE_CALL gives for not calling; undefined: call. */
const skipReason = (reply: string): PreCall['skip'] => (reply === 'answered' || reply === 'superseded' ? reply : undefined);

/** The send record a reply names: its ring position ('' when the guard recorded nothing) and the time recorded (Redis's clock). */
const sendRecord = (ring: string | undefined, at: string | undefined): SendRecord | undefined =>
  ring === undefined || ring === '' ? undefined : { ring, at: at! };

/** What a call was paced with: a 429 for it slows the pacer only if no decrease happened since. */
export interface SendTicket {
  rateInForce: number;
  slowedAt: string;
  /** Where the window guard recorded the send (its booking, or its admission when confirmed). */
  record?: SendRecord;
}

/**
 * The pre-call work of one inquiry: whether the job is to call at all (`skip` says why not) and, when it
 * is, its send slot. `nextSlot` waits for the slot reserved with the check (the first time) or for a fresh
 * one (a call asked again, after a 401).
 */
export interface PreCall {
  /**
   * 'answered': the account has an answer in the batch (a job that runs twice asks once); 'superseded':
   * the batch asks the account again in a later round than the job's (BATCH_CALL_NEEDED); undefined: call.
   */
  skip?: 'answered' | 'superseded';
  nextSlot(): Promise<SendTicket>;
}

/** Where a job's account stands: its batch's outcomes hash and batch hash (keys of one cluster slot), and the job's round. */
export interface JobStanding {
  outcomesKey: string;
  batchKey: string;
  round: number;
}

/**
 * A call told to come back later found, on asking again, that it is no longer to be made: its account was
 * answered meanwhile, or its batch moved on to a later round (PreCall.skip). Nothing was sent.
 */
export class CallNoLongerNeeded extends Error {
  override name = 'CallNoLongerNeeded';
  constructor(readonly reason: NonNullable<PreCall['skip']>) {
    super(`the call is no longer needed (${reason})`);
  }
}

/** The call-needed check (BATCH_CALL_NEEDED) of one job's account, made again with a reservation after a wait. */
interface CallCheck {
  keys: [outcomesKey: string, batchKey: string];
  accountKey: string;
  round: string;
}

/** Where the window guard recorded a call's send (its ring position) and the time it recorded. */
interface SendRecord {
  ring: string;
  at: string;
}

/** A reply of PACER_RESERVE_SLOT (or of PACER_PRE_CALL when it took a slot), and when (performance.now()) it was asked for and answered. */
interface Reservation {
  reply: string[];
  askedAt: number;
  repliedAt: number;
}

/** What a 429 did to the shared rate. */
export interface SlowDown {
  slowed: boolean;
  from: number;
  to: number;
}

/**
 * Spreads inquiries evenly across every worker of every process, at the configured rate or, after the
 * provider answered 429, at the slowed rate climbing back (src/queue/rate-control.ts). Three guards keep
 * a call from reaching the provider when it must not:
 * - a slot is taken on Redis's clock, 1/rate apart, never inside a 429's hold;
 * - a call whose process may not know of a hold begun since its booking confirms it right before sending:
 *   a hold sends it back for a fresh slot (the calls queued at the old rate do not all fire after a 429);
 * - the last `max` sends are kept (booked for their slot's time): no send makes more than `max` in any
 *   window of the rate + a margin.
 * BullMQ's global limiter stays as the outer ceiling and as the hold of the workers after a 429.
 */
export class SendPacer {
  private readonly ceiling: number;
  private readonly windowSize: number;
  private readonly windowMs: number;
  private readonly windowSpan: number;
  /**
   * The window guard holds exactly the configured rate, a second at a time: its `max` is a whole number of
   * calls (`2.5/s` is guarded at 2 a window, `0.5/s` at 1) and its window at most a second (the guard of
   * `1200/min` holds the minute; only a spacing wider than the rate keeps each of its seconds near 20).
   */
  private readonly guardHoldsCeiling: boolean;
  /** The rate fields as last seen in Redis (one reservation old at most). */
  private state: RateState = {};
  private slowedAt = '';
  private lastNow = 0;
  private holdUntil = 0;
  /**
   * The calls of this process told to come back later (no slot within the horizon) ask again one at a
   * time, the others waiting here in turn: 16 workers at 20/s asked Redis 7.7 times a call, each asking
   * until one of them found the slot free. The line's first asks until it has a slot, then the next asks.
   */
  private readonly laterLine = new Line();
  /** Where Redis's clock stands against this process's, from the reservations' replies (when a send left, on Redis's clock). */
  private readonly redisClock = new RedisClockBound();
  /** When (performance.now(), and Redis's now) the state was last read for unpaced sending, and the read under way. */
  private stateReadAt = -Infinity;
  private stateNow = 0;
  private stateRead: Promise<number> | undefined;
  /** The newest epoch a reply showed, and when (performance.now()) the freshest reply read was asked. */
  private seenEpoch = 0;
  private seenAt = -Infinity;
  /** When (performance.now()) this process last met a 429: every slot booked before it is confirmed first. */
  private slowedHereAt = -Infinity;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    rate: Rate,
  ) {
    this.ceiling = ratePerSecond(rate);
    // Above UNPACED_FROM nothing is paced, so the ring never needs more sends than that rate puts in a window.
    this.windowSize = Math.max(1, Math.floor(Math.min(rate.max, (UNPACED_FROM * rate.perMs) / 1000)));
    this.windowMs = rate.perMs;
    this.windowSpan = rate.perMs + WINDOW_MARGIN_MS;
    this.guardHoldsCeiling = this.windowSize === rate.max && rate.perMs <= 1000;
  }

  /**
   * Checks whether the job is to call (BATCH_CALL_NEEDED: not when its account has an answer in the batch,
   * nor when the batch asks it again in a later round) and, when it is, reserves a send slot: one EVALSHA
   * on a standalone Redis, and no slot for a job that is not to call.
   * - Unpaced (the rate in force is too fast to space): the check alone; no slot to take.
   * - Redis Cluster: the batch's keys live in its slot (`{batchId}`, shared with the batch's own multi-key
   *   scripts) and the pacer in its own, so one script over both would be refused (CROSSSLOT); moving the
   *   pacer into every batch's slot would split the one shared pacer of a queue. The check and the
   *   reservation run one after the other there, in that order, so a job not to call takes no slot either.
   */
  async preCall(standing: JobStanding, accountKey: string): Promise<PreCall> {
    const check: CallCheck = { keys: [standing.outcomesKey, standing.batchKey], accountKey, round: String(standing.round) };
    if (this.redis.isCluster || sendsUnpaced(this.ceiling)) {
      const skip = await runCommand<string>(this.redis, BATCH_CALL_NEEDED, check.keys, [accountKey, check.round]);
      return { skip: skipReason(skip), nextSlot: () => this.waitForSlot(undefined, check) };
    }
    const first = await this.reserve(check);
    const skip = skipReason(first.reply[0]!);
    if (skip !== undefined) return { skip, nextSlot: () => this.waitForSlot(undefined, check) };
    let reserved: Reservation | undefined = first;
    return {
      nextSlot: () => {
        const made = reserved;
        reserved = undefined;
        return this.waitForSlot(made, check);
      },
    };
  }

  /**
   * Waits for a slot of its own (starting from `reserved`, a reservation already made) and returns what it
   * was paced with. A call told to come back later (a 429's hold, a slow rate) may wait for minutes: each
   * reservation after such a wait checks again that the call is still needed (`check`) and throws
   * CallNoLongerNeeded when it is not. A run that gave up meanwhile wrote the account FAILED, and a rerun
   * may have queued it again in a new round: both calls went out, and the account was paid for twice.
   */
  async waitForSlot(reserved?: Reservation, check?: CallCheck): Promise<SendTicket> {
    if (reserved === undefined && sendsUnpaced(this.ceiling)) {
      const unpaced = await this.unpacedTicket();
      if (unpaced !== undefined) return unpaced;
    }
    // Held while this call asks again for a slot past the horizon (see laterLine), left once it has one.
    let leaveLine: (() => void) | undefined;
    let waited = false;
    try {
      for (let reservation = reserved; ; reservation = undefined) {
        reservation ??= await this.reserve(waited ? check : undefined);
        const skip = skipReason(reservation.reply[0]!);
        if (skip !== undefined) throw new CallNoLongerNeeded(skip);
        const [status, wait, epoch, now, slowedTo, climbsFrom, refused, slowedAt, ring, bookedAt] = reservation.reply;
        this.lastNow = Number(now);
        this.redisClock.observe(reservation.askedAt, reservation.repliedAt, this.lastNow);
        this.readRate([slowedTo, climbsFrom, refused, slowedAt]);
        this.sawEpoch(epoch ?? '0', reservation.askedAt);
        if (status === 'later') {
          const toldAt = performance.now();
          leaveLine ??= await this.laterLine.enter();
          // A wait in the line counts towards the wait told; spread out so that the calls of several
          // processes told to come back together do not all ask in the same millisecond.
          await sleep(Math.max(0, Number(wait) - (performance.now() - toldAt)) + Math.random() * LATER_SPREAD_MS);
          waited = true;
          continue;
        }
        leaveLine?.();
        leaveLine = undefined;
        const ticket: SendTicket = { rateInForce: rateAt(this.state, this.ceiling, this.lastNow), slowedAt: this.slowedAt };
        const confirmed = await this.waitAndConfirm(Number(wait), epoch ?? '0', reservation.askedAt, sendRecord(ring, bookedAt));
        if (confirmed !== false) return confirmed === undefined ? ticket : { ...ticket, record: confirmed };
      }
    } finally {
      leaveLine?.();
    }
  }

  /**
   * A reservation (PACER_RESERVE_SLOT) at the rate in force; with `check`, only if the call is still needed
   * (its reply is then the skip reason alone): one script on a standalone Redis (PACER_PRE_CALL), the check
   * and then the reservation on a cluster (their keys are in different slots, see preCall).
   */
  private async reserve(check: CallCheck | undefined): Promise<Reservation> {
    const askedAt = performance.now();
    const slot = this.reserveArguments(rateAt(this.state, this.ceiling, this.lastNow));
    let reply: string[];
    if (check === undefined) reply = await runCommand<string[]>(this.redis, PACER_RESERVE_SLOT, [this.key], slot);
    else if (!this.redis.isCluster)
      reply = await runCommand<string[]>(this.redis, PACER_PRE_CALL, [this.key, ...check.keys], [...slot, check.accountKey, check.round]);
    else {
      const skip = await runCommand<string>(this.redis, BATCH_CALL_NEEDED, check.keys, [check.accountKey, check.round]);
      reply = skip !== '' ? [skip] : await runCommand<string[]>(this.redis, PACER_RESERVE_SLOT, [this.key], slot);
    }
    return { reply, askedAt, repliedAt: performance.now() };
  }

  /**
   * The call paced with `ticket` is leaving now (written to a connection): a send recorded more than
   * STALE_RECORD_MS ago moves its record here. Not waited for before sending; the promise (undefined when
   * there is nothing to move) is for the caller to see a failure of Redis.
   */
  sent(ticket: SendTicket): Promise<void> | undefined {
    const record = ticket.record;
    if (record === undefined) return undefined;
    // Late on Redis's clock (an estimate never earlier than the truth; every record came in a reply that
    // showed it). On the local time the record stood for (the reservation's ask plus its wait), the round
    // trip counted as lateness too: under load that moved nearly every record, a script more per call.
    const late = (this.redisClock.latest(performance.now()) ?? Number.POSITIVE_INFINITY) - Number(record.at);
    if (late <= STALE_RECORD_MS) return undefined;
    return runCommand<number>(this.redis, PACER_MOVE_RECORD, [this.key], [record.ring, record.at, this.windowSize]).then(() => undefined);
  }

  /** A 429 for a call paced with `ticket`: holds every process for `retryAfterMs` and slows the rate once per hold. */
  async slowDown(retryAfterMs: number, paced: SendTicket | undefined): Promise<SlowDown> {
    this.slowedHereAt = performance.now();
    const ticket = paced ?? { rateInForce: rateAt(this.state, this.ceiling, this.lastNow), slowedAt: this.slowedAt };
    const [slowed, to] = await runCommand<[number, string]>(
      this.redis,
      PACER_SLOW_DOWN,
      [this.key],
      [retryAfterMs, ticket.slowedAt, slowedRate(ticket.rateInForce), ticket.rateInForce, this.windowSize, this.windowMs, FLOOR],
    );
    // This process's unpaced calls see the hold and the slowed rate at once (the others within UNPACED_READ_MS).
    this.stateReadAt = -Infinity;
    return { slowed: slowed === 1, from: ticket.rateInForce, to: Number(to) };
  }

  /** The rate the provider allowed since `since` (ms, epoch): the configured rate unless it answered 429 (see allowedRate). */
  async allowedRateSince(since: number): Promise<number | undefined> {
    const now = await this.readState();
    return allowedRate(this.state, this.ceiling, since, now);
  }

  /**
   * A ticket without a slot while the rate in force is too fast to space (rate-control.ts, UNPACED_FROM);
   * undefined when the call must be paced (a 429 slowed the rate) or wait for a hold. The state is read
   * from Redis at most every UNPACED_READ_MS, once for all the calls of the process.
   */
  private async unpacedTicket(): Promise<SendTicket | undefined> {
    if (performance.now() - this.stateReadAt > UNPACED_READ_MS) {
      this.stateRead ??= this.readState().finally(() => (this.stateRead = undefined));
      await this.stateRead;
    }
    const now = this.stateNow + (performance.now() - this.stateReadAt);
    const rateInForce = rateAt(this.state, this.ceiling, now);
    if (now < this.holdUntil || !sendsUnpaced(rateInForce)) return undefined;
    return { rateInForce, slowedAt: this.slowedAt };
  }

  /** Reads the hold and the rate fields; returns Redis's now. */
  private async readState(): Promise<number> {
    const [now, hold, ...rateFields] = await runCommand<string[]>(this.redis, PACER_READ_RATE, [this.key]);
    this.stateReadAt = performance.now();
    this.stateNow = this.lastNow = Number(now);
    this.holdUntil = Number(hold);
    this.readRate(rateFields);
    return this.lastNow;
  }

  /**
   * The slot's send record once it may be used (false: lost, reserve again): waited for, and sent without
   * asking Redis again when this process knows no hold began since it was booked (LATE_REPLY_MS);
   * otherwise confirmed (PACER_CONFIRM_SLOT), which keeps the booking or, when the guard had to admit the
   * send anew and turned it back, waits and confirms again. A timer that fires late still sends: the
   * guard, not the spacing, keeps the window, and a send that leaves late moves its record (sent()).
   */
  private async waitAndConfirm(
    waitMs: number,
    epoch: string,
    bookedAt: number,
    booked: SendTicket['record'],
  ): Promise<SendTicket['record'] | false> {
    let record = booked;
    let turnedBack = false;
    for (let wait = waitMs; ; ) {
      if (wait > 0) await sleep(wait);
      // Confirmed unless this process knows no hold began since: no 429 met here since the booking (the
      // hold's epoch may not be in any reply yet), no newer epoch seen, and the pacer's state read lately.
      if (
        !turnedBack &&
        bookedAt > this.slowedHereAt &&
        Number(epoch) >= this.seenEpoch &&
        performance.now() - this.seenAt <= LATE_REPLY_MS
      )
        return record;
      const asked = performance.now();
      const [next, at, ring] = await runCommand<string[]>(
        this.redis,
        PACER_CONFIRM_SLOT,
        [this.key],
        [epoch, this.windowSize, this.windowSpan, record?.ring ?? '', record?.at ?? ''],
      );
      wait = Number(next);
      if (wait < 0) return false;
      this.sawEpoch(epoch, asked);
      record = sendRecord(ring, at);
      if (wait === 0) return record;
      turnedBack = true;
    }
  }

  /** A reply asked at `askedAt` showed the pacer at `epoch`: what this process knows of the holds, and since when. */
  private sawEpoch(epoch: string, askedAt: number): void {
    this.seenEpoch = Math.max(this.seenEpoch, Number(epoch));
    this.seenAt = Math.max(this.seenAt, askedAt);
  }

  private reserveArguments(rateInForce: number): number[] {
    return [
      slotInterval(rateInForce, rateInForce >= this.ceiling && this.guardHoldsCeiling),
      this.windowSize,
      this.windowSpan,
      RESERVE_HORIZON_MS,
    ];
  }

  private readRate([slowedTo, climbsFrom, refused, slowedAt]: Array<string | undefined>): void {
    const number = (text: string | undefined) => (text === undefined || text === '' ? undefined : Number(text));
    this.state = { slowedTo: number(slowedTo), climbsFrom: number(climbsFrom), refused: number(refused), slowedAt: number(slowedAt) };
    this.slowedAt = slowedAt ?? '';
  }
}

/** A first-come, first-served turn: `enter` resolves, with the way out, once everyone ahead has left. */
class Line {
  private last: Promise<void> = Promise.resolve();

  enter(): Promise<() => void> {
    let leave!: () => void;
    const left = new Promise<void>((resolve) => (leave = resolve));
    const ahead = this.last;
    this.last = ahead.then(() => left);
    return ahead.then(() => leave);
  }
}
