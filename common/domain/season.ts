// Dates in the shop's copy ('Fall 2026 Collection', '© 2026') come from one clock reading, so
// the season and the copyright year can never disagree.

export type SeasonName = 'Winter' | 'Spring' | 'Summer' | 'Fall';

export interface Season {
  name: SeasonName;
  year: number;
}

const BY_MONTH: readonly SeasonName[] = [
  'Winter',
  'Winter',
  'Spring',
  'Spring',
  'Spring',
  'Summer',
  'Summer',
  'Summer',
  'Fall',
  'Fall',
  'Fall',
  'Winter',
];

/** Northern-hemisphere retail seasons by calendar month (UTC). */
export function seasonOf(date: Date): Season {
  return { name: BY_MONTH[date.getUTCMonth()]!, year: date.getUTCFullYear() };
}

/** { Fall, 2026 } → "Fall 2026". */
export function seasonLabel(season: { name: string; year: number }): string {
  return `${season.name} ${season.year}`;
}
