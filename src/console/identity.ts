const MAX_NAME_CHARACTERS = 100;

/**
 * The person behind a request: the name an authenticating proxy put in CONSOLE_USER_HEADER (oauth2-proxy's
 * X-Forwarded-User, say). Trusted only when that setting names the header, so that a client cannot name
 * itself on a console nobody put a proxy in front of. Undefined when the console knows no person:
 * CONSOLE_TOKEN alone says that a caller may look, not who it is. `headers`: each header's values apart
 * (IncomingMessage.headersDistinct), so that one given twice is seen.
 */
export function personOf(headers: NodeJS.Dict<string | string[]>, userHeader: string | undefined): string | undefined {
  if (userHeader === undefined) return undefined;
  const value = headers[userHeader];
  // Given twice (a client's own beside the proxy's), the header names nobody: Node would join them, `alice, mallory`.
  if (Array.isArray(value) && value.length > 1) return undefined;
  const name = (Array.isArray(value) ? value[0] : value)?.trim();
  // Control characters would end up in the audit trail and in reports: a proxy never sends them.
  // A comma: two values a proxy folded into one (`eko, budi`), which name nobody either.
  if (name === undefined || name === '' || name.length > MAX_NAME_CHARACTERS || /[\p{Cc},]/u.test(name)) return undefined;
  return name;
}

/** Why a decision was refused for want of a person, saying what to set up. */
export function noPersonReason(userHeader: string | undefined): string {
  return userHeader === undefined
    ? 'a decision needs the name of the person who makes it, and this console knows none: put an authenticating proxy in front of it and set CONSOLE_USER_HEADER to the header it names the user in (e.g. X-Forwarded-User), or record decisions with `beneficiary-check review <report> --by NAME`'
    : `a decision needs the name of the person who makes it: the request has no ${userHeader} header naming one person (set once, by the authenticating proxy in front of this console; not empty, not two names)`;
}
