/** The engine's thread (see engine-host.ts): owns one engine, answers render/audition/close. */

import { parentPort } from 'node:worker_threads';
import { isAppError } from '../../shared/errors';
import type { Engine } from '../engine/engine';
import { createEngine } from '../engine/index';
import type { HostReply, HostRequest } from './engine-host-protocol';

const port = parentPort!;
const post = (reply: HostReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
const aborts = new Map<number, AbortController>();
let engine: Engine | undefined;

function describe(error: unknown): { code: string; message: string } {
  if (isAppError(error)) return { code: error.code, message: error.message };
  return { code: 'ENGINE_FAILED', message: error instanceof Error ? error.message : String(error) };
}

port.on('message', (message: HostRequest) => {
  void handle(message);
});

async function handle(message: HostRequest): Promise<void> {
  switch (message.type) {
    case 'init':
      try {
        engine = await createEngine(message.poolSize ? { poolSize: message.poolSize } : {});
        post({ type: 'ready', poolSize: engine.poolSize });
      } catch (error) {
        post({ type: 'startFailed', ...describe(error) });
      }
      return;
    case 'render': {
      const controller = new AbortController();
      aborts.set(message.seq, controller);
      try {
        const result = await engine!.render({
          ...message.request,
          signal: controller.signal,
          onProgress: (fraction) => post({ type: 'progress', seq: message.seq, fraction }),
        });
        post({ type: 'done', seq: message.seq, value: result });
      } catch (error) {
        post({ type: 'failed', seq: message.seq, ...describe(error) });
      } finally {
        aborts.delete(message.seq);
      }
      return;
    }
    case 'abort':
      aborts.get(message.seq)?.abort();
      return;
    case 'audition':
      try {
        const bytes = await engine!.audition(message.options);
        post({ type: 'done', seq: message.seq, value: bytes }, [bytes.buffer as ArrayBuffer]);
      } catch (error) {
        post({ type: 'failed', seq: message.seq, ...describe(error) });
      }
      return;
    case 'close':
      try {
        await engine?.close();
        post({ type: 'done', seq: message.seq, value: undefined });
      } catch (error) {
        post({ type: 'failed', seq: message.seq, ...describe(error) });
      }
      return;
  }
}
