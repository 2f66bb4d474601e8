import type { ProjectRenderStatus, SegmentState } from '../../shared/projects';
import type { Lease } from './requests-repo';
import type { SqlExecutor } from './sql';

/**
 * Renders of book projects (table `project_renders` of migration 10): a queue claimed under a
 * lease as `exports` is, and the audio columns of `project_segments` a render writes (state,
 * audio_key, duration_ms, error, checks, rendered_at). Written once for both databases.
 */

/** One segment a render covers, as `segment_ids` keeps them (JSON array, in render order). */
export interface RenderItem {
  id: string;
  chapter_id: string;
  /** Billable characters at submit. */
  characters: number;
  cost_milli: number;
  /** True once rendered by this render (its cost is spent, not refunded). */
  done: boolean;
}

export interface ProjectRenderRow {
  seq: number;
  id: string;
  project_id: string;
  key_id: string;
  /** JSON string[]. */
  chapter_ids: string;
  /** JSON RenderItem[]. */
  segment_ids: string | null;
  status: ProjectRenderStatus;
  segments_total: number;
  segments_done: number;
  characters_total: number;
  characters_done: number;
  cost_milli: number;
  /** 1 once pausing was asked while it runs (its owner pauses at the next segment). */
  pause_requested: number;
  cancel_requested: number;
  error_code: string | null;
  error_message: string | null;
  /** A failure's particulars, JSON (platform/error-details.ts; null: none or not failed). */
  error_details?: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  run_attempts: number;
  lease_owner: string | null;
  lease_until: number | null;
}

export type NewProjectRenderRow = Pick<
  ProjectRenderRow,
  | 'id'
  | 'project_id'
  | 'key_id'
  | 'chapter_ids'
  | 'segment_ids'
  | 'segments_total'
  | 'characters_total'
  | 'cost_milli'
  | 'created_at'
>;

/** What a render writes into a segment once it is rendered (or failed). */
export interface SegmentAudio {
  state: SegmentState;
  audio_key?: string | null;
  duration_ms?: number | null;
  error: string | null;
  /** The failure's code and particulars (JSON), beside `error`; cleared with it. */
  error_code?: string | null;
  error_details?: string | null;
  /** JSON SegmentCheck[] (null: none). */
  checks?: string | null;
  rendered_at?: string | null;
}

/** How a render ended: done, failed or cancelled; `refundMilli` is what it gives back. */
export interface RenderFinish {
  status: 'done' | 'failed' | 'cancelled';
  finishedAt: string;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** JSON of the failure's particulars (platform/error-details.ts storedErrorDetails). */
  errorDetails?: string | null;
}

export interface ProjectRendersRepo {
  insert(row: NewProjectRenderRow): Promise<void>;
  get(id: string): Promise<ProjectRenderRow | undefined>;
  /** A project's renders, newest first. */
  list(projectId: string, limit: number): Promise<ProjectRenderRow[]>;
  /** The queued renders (id, key, seq), oldest first, read through the index of open renders. */
  queued(): Promise<{ id: string; key_id: string; seq: number }[]>;
  /** Queued or rendering or paused renders of a project. */
  open(projectId: string): Promise<ProjectRenderRow[]>;
  /** queued → rendering under `lease`; undefined when it was not queued. */
  claim(id: string, startedAt: string, lease: Lease): Promise<ProjectRenderRow | undefined>;
  /** Extends the lease; the row as it stands, or undefined when it is no longer this owner's. */
  renewLease(id: string, lease: Lease): Promise<ProjectRenderRow | undefined>;
  /** Records a rendered segment's progress (items with its `done`), while `owner` holds it. */
  progress(
    id: string,
    owner: string,
    p: { items: string; segmentsDone: number; charactersDone: number },
  ): Promise<boolean>;
  /** rendering → done/failed/cancelled while `owner` holds it; false otherwise. */
  finish(id: string, owner: string, f: RenderFinish): Promise<boolean>;
  /** queued/paused → cancelled (or failed); false when it was neither. */
  finishWaiting(id: string, f: RenderFinish): Promise<boolean>;
  /** rendering → paused for `owner` (lease released). */
  pause(id: string, owner: string): Promise<boolean>;
  /** queued → paused. */
  pauseQueued(id: string): Promise<boolean>;
  /** paused → queued. */
  resume(id: string): Promise<boolean>;
  /** Asks the owner of a rendering row to pause or cancel at its next segment. */
  request(id: string, what: 'pause' | 'cancel'): Promise<boolean>;
  /** rendering → queued for every row (SQLite after a crash). */
  requeueRendering(): Promise<number>;
  /** rendering → queued whose lease ran out before `now`. */
  requeueExpired(now: number): Promise<number>;
  /** rendering → queued for one row of `owner` (a shutdown: the start is not counted). */
  requeue(id: string, owner: string): Promise<void>;
  /** Sets the state of these segments (and clears their error). */
  setSegmentStates(ids: readonly string[], state: SegmentState): Promise<void>;
  /** Segments back from queued/rendering after a cancel: `changed` where audio is kept, else `not_rendered`. */
  releaseSegments(ids: readonly string[]): Promise<void>;
  /** A segment's audio columns. */
  setSegmentAudio(id: string, audio: SegmentAudio): Promise<void>;
}

const IN_CHUNK = 500;

export function createProjectRendersRepo(db: SqlExecutor): ProjectRendersRepo {
  return { ...createRenderRowsRepo(db), ...createRenderRunsRepo(db), ...createRenderSegmentsRepo(db) };
}

/** The renders' rows: inserting them and reading them. */
function createRenderRowsRepo(
  db: SqlExecutor,
): Pick<ProjectRendersRepo, 'insert' | 'get' | 'list' | 'queued' | 'open'> {
  return {
    async insert(row) {
      await db.run(
        `INSERT INTO project_renders (id, project_id, key_id, chapter_ids, segment_ids, status, segments_total,
           characters_total, cost_milli, created_at)
         VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
        [
          row.id,
          row.project_id,
          row.key_id,
          row.chapter_ids,
          row.segment_ids,
          row.segments_total,
          row.characters_total,
          row.cost_milli,
          row.created_at,
        ],
      );
    },
    async get(id) {
      return await db.get<ProjectRenderRow>('SELECT * FROM project_renders WHERE id = ?', [id]);
    },
    async list(projectId, limit) {
      return await db.all<ProjectRenderRow>(
        'SELECT * FROM project_renders WHERE project_id = ? ORDER BY seq DESC LIMIT ?',
        [projectId, limit],
      );
    },
    async queued() {
      return await db.all<{ id: string; key_id: string; seq: number }>(
        `SELECT id, key_id, seq FROM project_renders
         WHERE status IN ('queued', 'rendering') AND status = 'queued' ORDER BY seq`,
      );
    },
    async open(projectId) {
      return await db.all<ProjectRenderRow>(
        `SELECT * FROM project_renders WHERE project_id = ? AND status IN ('queued', 'rendering', 'paused') ORDER BY seq`,
        [projectId],
      );
    },
  };
}

/** A render's run: its claim under a lease, progress, pause, cancel, finish and return to the queue. */
function createRenderRunsRepo(
  db: SqlExecutor,
): Pick<
  ProjectRendersRepo,
  | 'claim'
  | 'renewLease'
  | 'progress'
  | 'finish'
  | 'finishWaiting'
  | 'pause'
  | 'pauseQueued'
  | 'resume'
  | 'request'
  | 'requeueRendering'
  | 'requeueExpired'
  | 'requeue'
> {
  const greatest = db.dialect === 'postgres' ? 'GREATEST' : 'MAX';
  return {
    async claim(id, startedAt, lease) {
      return await db.get<ProjectRenderRow>(
        `UPDATE project_renders SET status = 'rendering', started_at = ?, run_attempts = run_attempts + 1,
           pause_requested = 0, lease_owner = ?, lease_until = ?
         WHERE id = ? AND status = 'queued' RETURNING *`,
        [startedAt, lease.owner, lease.until, id],
      );
    },
    async renewLease(id, lease) {
      return await db.get<ProjectRenderRow>(
        `UPDATE project_renders SET lease_until = ?
         WHERE id = ? AND status = 'rendering' AND lease_owner = ? RETURNING *`,
        [lease.until, id, lease.owner],
      );
    },
    async progress(id, owner, p) {
      const { changes } = await db.run(
        `UPDATE project_renders SET segment_ids = ?, segments_done = ?, characters_done = ?
         WHERE id = ? AND status = 'rendering' AND lease_owner = ?`,
        [p.items, p.segmentsDone, p.charactersDone, id, owner],
      );
      return changes > 0;
    },
    async finish(id, owner, f) {
      const { changes } = await db.run(
        `UPDATE project_renders SET status = ?, finished_at = ?, error_code = ?, error_message = ?, error_details = ?,
           lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND status = 'rendering' AND lease_owner = ?`,
        [
          f.status,
          f.finishedAt,
          f.errorCode ?? null,
          f.errorMessage ?? null,
          f.errorDetails ?? null,
          id,
          owner,
        ],
      );
      return changes > 0;
    },
    async finishWaiting(id, f) {
      const { changes } = await db.run(
        `UPDATE project_renders SET status = ?, finished_at = ?, error_code = ?, error_message = ?
         WHERE id = ? AND status IN ('queued', 'paused')`,
        [f.status, f.finishedAt, f.errorCode ?? null, f.errorMessage ?? null, id],
      );
      return changes > 0;
    },
    async pause(id, owner) {
      const { changes } = await db.run(
        `UPDATE project_renders SET status = 'paused', pause_requested = 0, lease_owner = NULL, lease_until = NULL,
           run_attempts = ${greatest}(0, run_attempts - 1)
         WHERE id = ? AND status = 'rendering' AND lease_owner = ?`,
        [id, owner],
      );
      return changes > 0;
    },
    async pauseQueued(id) {
      const { changes } = await db.run(
        `UPDATE project_renders SET status = 'paused' WHERE id = ? AND status = 'queued'`,
        [id],
      );
      return changes > 0;
    },
    async resume(id) {
      const { changes } = await db.run(
        `UPDATE project_renders SET status = 'queued', pause_requested = 0 WHERE id = ? AND status = 'paused'`,
        [id],
      );
      return changes > 0;
    },
    async request(id, what) {
      const column = what === 'pause' ? 'pause_requested' : 'cancel_requested';
      const { changes } = await db.run(
        `UPDATE project_renders SET ${column} = 1 WHERE id = ? AND status = 'rendering'`,
        [id],
      );
      return changes > 0;
    },
    async requeueRendering() {
      return (
        await db.run(
          `UPDATE project_renders SET status = 'queued', lease_owner = NULL, lease_until = NULL
           WHERE status IN ('queued', 'rendering') AND status = 'rendering'`,
        )
      ).changes;
    },
    async requeueExpired(now) {
      return (
        await db.run(
          `UPDATE project_renders SET status = 'queued', lease_owner = NULL, lease_until = NULL
           WHERE status IN ('queued', 'rendering') AND status = 'rendering' AND lease_until < ?`,
          [now],
        )
      ).changes;
    },
    async requeue(id, owner) {
      await db.run(
        `UPDATE project_renders SET status = 'queued', run_attempts = ${greatest}(0, run_attempts - 1),
           lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND status = 'rendering' AND lease_owner = ?`,
        [id, owner],
      );
    },
  };
}

/** The segments' render columns (state, audio, error) that renders write. */
function createRenderSegmentsRepo(
  db: SqlExecutor,
): Pick<ProjectRendersRepo, 'setSegmentStates' | 'releaseSegments' | 'setSegmentAudio'> {
  /** Runs `fn` over `ids` in parts of at most IN_CHUNK, with the part's `?, ?, …` marks. */
  const inChunks = async (
    ids: readonly string[],
    fn: (part: readonly string[], marks: string) => Promise<void>,
  ) => {
    for (let at = 0; at < ids.length; at += IN_CHUNK) {
      const part = ids.slice(at, at + IN_CHUNK);
      await fn(part, part.map(() => '?').join(', '));
    }
  };
  return {
    async setSegmentStates(ids, state) {
      await inChunks(ids, async (part, marks) => {
        await db.run(`UPDATE project_segments SET state = ?, error = NULL WHERE id IN (${marks})`, [
          state,
          ...part,
        ]);
      });
    },
    async releaseSegments(ids) {
      await inChunks(ids, async (part, marks) => {
        await db.run(
          `UPDATE project_segments SET state = CASE WHEN audio_key IS NULL THEN 'not_rendered' ELSE 'changed' END
           WHERE id IN (${marks}) AND state IN ('queued', 'rendering')`,
          [...part],
        );
      });
    },
    async setSegmentAudio(id, a) {
      if (a.audio_key === undefined) {
        await db.run(
          'UPDATE project_segments SET state = ?, error = ?, error_code = ?, error_details = ? WHERE id = ?',
          [a.state, a.error, a.error_code ?? null, a.error_details ?? null, id],
        );
        return;
      }
      await db.run(
        `UPDATE project_segments SET state = ?, audio_key = ?, duration_ms = ?, error = ?, error_code = ?, error_details = ?,
           checks = ?, rendered_at = ?
         WHERE id = ?`,
        [
          a.state,
          a.audio_key,
          a.duration_ms ?? null,
          a.error,
          a.error_code ?? null,
          a.error_details ?? null,
          a.checks ?? null,
          a.rendered_at ?? null,
          id,
        ],
      );
    },
  };
}
