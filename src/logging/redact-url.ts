/** Query parameters whose value is a secret by its name (`?token=`, `?api_key=`, `?sig=`, `?code=` of a function app). */
const SECRET_PARAMETER = /pass|pwd|secret|token|key|sig|auth|code|credential|session/i;

const HIDDEN = '***';

/**
 * A URL as it may be shown in a message or a log line: the password of its userinfo (or a user name alone,
 * which is how a token is often written: `https://<token>@host`) and the values of secret-looking query
 * parameters replaced by `***` (`https://ops:***@hooks.example/in?token=***&batch=1`). A secret written in
 * the path itself cannot be told from the path: put it in the query or the userinfo. Text that is no URL
 * the parser reads is still cleaned of `//user:password@` and `//user@`.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/(\/\/[^\s/:@]*):[^\s/@]*@/g, `$1:${HIDDEN}@`).replace(/\/\/[^\s/:@]+@/g, `//${HIDDEN}@`);
  }
  const userinfo = parsed.username !== '' || parsed.password !== '';
  if (parsed.password !== '') parsed.password = HIDDEN;
  else if (parsed.username !== '') parsed.username = HIDDEN;
  const secretNames = [...parsed.searchParams.keys()].filter((name) => SECRET_PARAMETER.test(name));
  if (!userinfo && secretNames.length === 0) return url;
  for (const name of secretNames) parsed.searchParams.set(name, HIDDEN);
  // URLSearchParams writes `*` percent-encoded; shown as written.
  return parsed.href.replaceAll('%2A%2A%2A', HIDDEN);
}

/** Every URL in a free text (an error message that quotes the address it failed on) redacted as `redactUrl` does. */
export const redactUrls = (text: string): string => text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, (url) => redactUrl(url));
