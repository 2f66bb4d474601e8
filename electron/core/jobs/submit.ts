/**
 * Accepting requests: charge and insert in one transaction, committed (fsynced) before the
 * caller hears back. Concurrent submits are grouped into one transaction per event-loop
 * turn (group commit), so durability does not cap throughput at one fsync per request.
 */

import { randomBytes } from 'node:crypto';
import { AppError } from '../../shared/errors';
import type { AudioFormat, Bitrate, ModelId } from '../../shared/options';
import { findVoice } from '../../shared/voices';
import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import { costMilli } from '../../shared/pricing';

/** A validated request, ready to be accepted. */
export interface SubmitInput {
  keyId: string;
  source: 'api' | 'openai';
  /** As the caller sent it; the engine cleans it. */
  text: string;
  /** Billable count of the cleaned text. */
  characters: number;
  voice_code: string;
  model_id: ModelId;
  audio_type: AudioFormat;
  bitrate: Bitrate;
  speed_rate: number;
  pitch_rate: number;
  volume: number;
  generate_srt: boolean;
  callback_url: string | null;
}

export interface Submitter {
  /**
   * Resolves with the stored row once committed. Rejects with AppError INSUFFICIENT_CREDITS,
   * TOO_MANY_REQUESTS, UNAUTHORIZED (key revoked meanwhile) or SHUTTING_DOWN.
   */
  submit(input: SubmitInput): Promise<RequestRow>;
  /** Commits what is pending; later submits reject with SHUTTING_DOWN. */
  close(): void;
}

export interface SubmitterOptions {
  store: Store;
  clock: Clock;
  /** Requests of one key in status new or processing, at most. */
  maxQueuedPerKey: number;
  /** Called after each commit with the accepted rows. */
  onAccepted(rows: RequestRow[]): void;
}

interface Pending {
  input: SubmitInput;
  resolve(row: RequestRow): void;
  reject(error: unknown): void;
}

/** 128 random bits as 32 lowercase hex digits. */
export function newRequestId(): string {
  return randomBytes(16).toString('hex');
}

export function createSubmitter({ store, clock, maxQueuedPerKey, onAccepted }: SubmitterOptions): Submitter {
  let batch: Pending[] = [];
  let scheduled = false;
  let closed = false;

  const flush = () => {
    scheduled = false;
    const items = batch;
    batch = [];
    if (items.length === 0) return;
    const outcomes: ({ row: RequestRow } | { error: unknown })[] = [];
    try {
      store.transaction(() => {
        for (const item of items) {
          try {
            outcomes.push({ row: accept(item.input) });
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            // Refusals are decided before any write of that item, so the batch stays consistent.
            outcomes.push({ error });
          }
        }
      });
    } catch (error) {
      for (const item of items) item.reject(error);
      return;
    }
    const accepted: RequestRow[] = [];
    items.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('row' in outcome) {
        accepted.push(outcome.row);
        item.resolve(outcome.row);
      } else item.reject(outcome.error);
    });
    if (accepted.length > 0) onAccepted(accepted);
  };

  const accept = (input: SubmitInput): RequestRow => {
    const key = store.keys.findById(input.keyId);
    if (!key || key.revoked_at !== null) throw new AppError('UNAUTHORIZED', 'The API key was revoked.');
    const voice = findVoice(input.voice_code);
    if (!voice) throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${input.voice_code}".`);
    if (key.queued >= maxQueuedPerKey) {
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `This key already has ${key.queued} requests waiting or running (limit ${maxQueuedPerKey}). Retry when some finish.`,
        // Sent as Retry-After: the queue drains by several requests a second.
        { retry_after_s: 1 },
      );
    }
    const cost = costMilli(input.characters, voice, input.model_id);
    if (key.balance_milli < cost) {
      throw new AppError(
        'INSUFFICIENT_CREDITS',
        `This request costs ${cost / 1000} credits; the balance is ${key.balance_milli / 1000}.`,
        { cost: cost / 1000, balance: key.balance_milli / 1000 },
      );
    }
    const now = isoTime(clock.now());
    const row = {
      id: newRequestId(),
      key_id: key.id,
      source: input.source,
      input_text: input.text,
      characters: input.characters,
      voice_code: input.voice_code,
      model_id: input.model_id,
      audio_type: input.audio_type,
      bitrate: input.bitrate,
      speed_rate: input.speed_rate,
      pitch_rate: input.pitch_rate,
      volume: input.volume,
      generate_srt: input.generate_srt ? 1 : 0,
      callback_url: input.callback_url,
      cost_milli: cost,
      download_token: randomBytes(24).toString('base64url'),
      created_at: now,
    };
    store.requests.insert(row);
    const balance = store.keys.addBalance(key.id, -cost);
    store.keys.addQueued(key.id, 1);
    store.ledger.insert({
      key_id: key.id,
      request_id: row.id,
      kind: 'charge',
      amount_milli: -cost,
      balance_after_milli: balance,
      created_at: now,
    });
    return store.requests.get(row.id)!;
  };

  return {
    submit(input) {
      if (closed) return Promise.reject(new AppError('SHUTTING_DOWN', 'The server is shutting down.'));
      return new Promise<RequestRow>((resolve, reject) => {
        batch.push({ input, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    close() {
      closed = true;
      flush();
    },
  };
}
