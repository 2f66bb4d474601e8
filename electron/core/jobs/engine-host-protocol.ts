/** Messages between `engine-host.ts` (main thread) and `engine-host-worker.ts`. */

import type { Engine, RenderRequest, RenderResult } from '../engine/engine';

export type HostRequest =
  | { type: 'init'; seq: 0; poolSize?: number }
  | { type: 'render'; seq: number; request: Omit<RenderRequest, 'onProgress' | 'signal'> }
  | { type: 'abort'; seq: number }
  | { type: 'audition'; seq: number; options: Parameters<Engine['audition']>[0] }
  | { type: 'close'; seq: number };

export type HostReply =
  | { type: 'ready'; poolSize: number }
  | { type: 'startFailed'; code: string; message: string }
  | { type: 'progress'; seq: number; fraction: number }
  | { type: 'done'; seq: number; value: RenderResult | Uint8Array | undefined }
  | { type: 'failed'; seq: number; code: string; message: string };
