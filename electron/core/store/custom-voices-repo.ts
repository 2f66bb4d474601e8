import type { SqlExecutor } from './sql';

/**
 * Custom voices' rows (table of migration 12): a code, a name, and the definition as JSON
 * (shared/custom-voices.ts; read and checked by voices/custom-voice.ts), and the key that made
 * it (migration 15; null: the studio's). Written once for both databases over sql.ts. Times are
 * ISO 8601 UTC with milliseconds.
 */
export interface CustomVoiceRow {
  code: string;
  name: string;
  /** JSON of the definition (base, voice_code, prosody, lexicon, note). */
  definition: string;
  /** The key that made it; null: the studio's (the house's voices, and those made before owners). */
  owner_key_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface CustomVoicesRepo {
  /**
   * By code: every one, or with `visibleTo` the studio's (owner null) and that key's (null: the
   * studio's only).
   */
  list(visibleTo?: string | null): Promise<CustomVoiceRow[]>;
  /**
   * A page by code: at most `limit` of those `list(visibleTo)` gives, after the code `after`
   * when given.
   */
  page(
    visibleTo: string | null | undefined,
    page: { after?: string | undefined; limit: number },
  ): Promise<CustomVoiceRow[]>;
  /** How many `list(visibleTo)` gives. */
  countVisible(visibleTo: string | null | undefined): Promise<number>;
  /** How many `ownerKeyId` holds (null: the studio's). */
  count(ownerKeyId: string | null): Promise<number>;
  get(code: string): Promise<CustomVoiceRow | undefined>;
  /** False when the code is taken (nothing written). */
  insert(row: CustomVoiceRow): Promise<boolean>;
  /** Replaces name, definition and updated_at (the owner stays); false when there is no such code. */
  replace(row: Omit<CustomVoiceRow, 'created_at' | 'owner_key_id'>): Promise<boolean>;
  /** False when there is no such code. */
  delete(code: string): Promise<boolean>;
}

export function createCustomVoicesRepo(db: SqlExecutor): CustomVoicesRepo {
  return {
    async list(visibleTo) {
      if (visibleTo === undefined)
        return await db.all<CustomVoiceRow>('SELECT * FROM custom_voices ORDER BY code');
      if (visibleTo === null)
        return await db.all<CustomVoiceRow>(
          'SELECT * FROM custom_voices WHERE owner_key_id IS NULL ORDER BY code',
        );
      return await db.all<CustomVoiceRow>(
        'SELECT * FROM custom_voices WHERE owner_key_id IS NULL OR owner_key_id = ? ORDER BY code',
        [visibleTo],
      );
    },
    async page(visibleTo, { after, limit }) {
      const { where, params } = visibleWhere(visibleTo, after);
      return await db.all<CustomVoiceRow>(`SELECT * FROM custom_voices ${where} ORDER BY code LIMIT ?`, [
        ...params,
        limit,
      ]);
    },
    async countVisible(visibleTo) {
      const { where, params } = visibleWhere(visibleTo);
      const row = await db.get<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM custom_voices ${where}`,
        params,
      );
      return Number(row?.n ?? 0);
    },
    async count(ownerKeyId) {
      const row =
        ownerKeyId === null
          ? await db.get<{ n: number | string }>(
              'SELECT COUNT(*) AS n FROM custom_voices WHERE owner_key_id IS NULL',
            )
          : await db.get<{ n: number | string }>(
              'SELECT COUNT(*) AS n FROM custom_voices WHERE owner_key_id = ?',
              [ownerKeyId],
            );
      return Number(row?.n ?? 0);
    },
    async get(code) {
      return await db.get<CustomVoiceRow>('SELECT * FROM custom_voices WHERE code = ?', [code]);
    },
    async insert(row) {
      const { changes } = await db.run(
        `INSERT INTO custom_voices (code, name, definition, owner_key_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING`,
        [row.code, row.name, row.definition, row.owner_key_id, row.created_at, row.updated_at],
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

/** The WHERE clause of the voices `visibleTo` sees (as `list`), after the code `after` when given. */
function visibleWhere(
  visibleTo: string | null | undefined,
  after?: string,
): { where: string; params: Array<string> } {
  const terms: string[] = [];
  const params: string[] = [];
  if (visibleTo === null) terms.push('owner_key_id IS NULL');
  else if (visibleTo !== undefined) {
    terms.push('(owner_key_id IS NULL OR owner_key_id = ?)');
    params.push(visibleTo);
  }
  if (after !== undefined) {
    terms.push('code > ?');
    params.push(after);
  }
  return { where: terms.length > 0 ? `WHERE ${terms.join(' AND ')}` : '', params };
}
