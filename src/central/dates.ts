// Local calendar dates in a time zone, for usage by day and month and for lot validity.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of the instant `ms` in `timeZone`. */
export function localDate(ms: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f.format(new Date(ms));
}

/** Adds whole days to a local date. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The Monday of the ISO week of a local date. */
export function weekStart(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const iso = (d.getUTCDay() + 6) % 7;
  return addDays(day, -iso);
}

export function quarterOf(day: string): string {
  const month = Number(day.slice(5, 7));
  return `${day.slice(0, 4)}-Q${Math.ceil(month / 3)}`;
}
