import type { SqlExecutor } from './sql';

/**
 * Custom voices' rows (table of migration 12): a code, a name, and the definition as JSON
 * (shared/custom-voices.ts; read and checked by voices/custom-voice.ts). Written once for both
 * databases over sql.ts. Times are ISO 8601 UTC with milliseconds.
 */
export interface CustomVoiceRow {
  code: string;
  name: string;
  /** JSON of the definition (base, voice_code, prosody, lexicon, note). */
  definition: string;
  created_at: string;
  updated_at: string;
}

export interface CustomVoicesRepo {
  /** By code. */
  list(): Promise<CustomVoiceRow[]>;
  count(): Promise<number>;
  get(code: string): Promise<CustomVoiceRow | undefined>;
  /** False when the code is taken (nothing written). */
  insert(row: CustomVoiceRow): Promise<boolean>;
  /** Replaces name, definition and updated_at; false when there is no such code. */
  replace(row: Omit<CustomVoiceRow, 'created_at'>): Promise<boolean>;
  /** False when there is no such code. */
  delete(code: string): Promise<boolean>;
}

export function createCustomVoicesRepo(db: SqlExecutor): CustomVoicesRepo {
  return {
    async list() {
      return await db.all<CustomVoiceRow>('SELECT * FROM custom_voices ORDER BY code');
    },
    async count() {
      return Number(
        (await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM custom_voices'))?.n ?? 0,
      );
    },
    async get(code) {
      return await db.get<CustomVoiceRow>('SELECT * FROM custom_voices WHERE code = ?', [code]);
    },
    async insert(row) {
      const { changes } = await db.run(
        `INSERT INTO custom_voices (code, name, definition, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (code) DO NOTHING`,
        [row.code, row.name, row.definition, row.created_at, row.updated_at],
      );
      return changes === 1;
    },
    async replace(row) {
      const { changes } = await db.run(
        'UPDATE custom_voices SET name = ?, definition = ?, updated_at = ? WHERE code = ?',
        [row.name, row.definition, row.updated_at, row.code],
      );
      return changes === 1;
    },
    async delete(code) {
      return (await db.run('DELETE FROM custom_voices WHERE code = ?', [code])).changes === 1;
    },
  };
}
