// Calendar arithmetic on 'YYYY-MM-DD' dates, in UTC so no time zone can shift a day.
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function defaultTitle(region: string, duration: number): string {
  return duration === 1 ? `${region} day trip` : `${region} in ${duration} days`;
}
