import type { Clock } from '../clock/clock.js';
import { LoginUnavailableError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import type { SharedTokenSession } from './token.js';

const LOGIN_ATTEMPTS = 3;

/**
 * Logs in before anything is queued: a wrong password is one login call and a clear error, not one FAILED
 * row per account. A login that fails for a passing reason is tried a few times with backoff.
 */
export async function ensureLogin(session: Pick<SharedTokenSession, 'token'>, logger: Logger, clock: Clock): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await session.token();
      return;
    } catch (error) {
      if (!(error instanceof LoginUnavailableError) || attempt >= LOGIN_ATTEMPTS) throw error;
      logger.warn(`${error.message}; trying again`);
      await clock.sleep(1000 * 2 ** (attempt - 1));
    }
  }
}
