/**
 * Times on Alertmanager's wire (go-openapi `strfmt.DateTime`): RFC 3339 with any fraction
 * (kept to the millisecond here); answers carry `toISOString()` (UTC, milliseconds).
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))?$/;

/** Raised for an unparseable time; the message is Go's. */
export class DateTimeError extends Error {
  constructor(value: string) {
    super(
      `parsing time ${JSON.stringify(value)} as "2006-01-02 15:04:05": cannot parse ${JSON.stringify(value)} as "2006"`,
    );
    this.name = 'DateTimeError';
  }
}

/** Epoch milliseconds of an RFC 3339 time (fraction truncated to ms; no zone means UTC). */
export function parseDateTime(value: string): number {
  const m = DATE_TIME.exec(value);
  if (!m) throw new DateTimeError(value);
  const [, y, mo, d, h, mi, s, frac, , sign, zh, zm] = m;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (sign !== undefined) {
    const offset = (Number(zh) * 60 + Number(zm)) * 60_000;
    t -= sign === '+' ? offset : -offset;
  }
  if (Number.isNaN(t)) throw new DateTimeError(value);
  return t;
}
