/** The engine's thread (see engine-host.ts): owns one engine, answers render/exportBook/audition/streamAudition/close. */

import { parentPort } from 'node:worker_threads';
import { AppError, assertNever, toWireError } from '../../../shared/errors';
import type { Engine } from '../engine';
import { createEngine } from '../create-engine';
import { lowerThreadPriority } from '../threads/thread-priority';
import type { HostReply, HostRequest } from './protocol';

if (!parentPort) throw new Error('engine-host-worker must run in a worker thread');
// Joining, DSP and encoding yield the CPU to the thread that answers requests (see thread-priority.ts).
lowerThreadPriority();
const port = parentPort;
const post = (reply: HostReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
const aborts = new Map<number, AbortController>();
let engine: Engine | undefined;

/** The engine, once `init` has created it; a request before that is a protocol error. */
function started(): Engine {
  if (!engine) throw new Error('the engine host got a request before init');
  return engine;
}

port.on('message', (message: HostRequest) => {
  handle(message).catch((error: unknown) =>
    post({ type: 'failed', seq: message.seq, error: toWireError(error, 'ENGINE_FAILED') }),
  );
});

/** Posts audio of call `seq` back as `audio` replies. */
function audioSender(seq: number): (samples: Int16Array, sampleRate: number) => void {
  return (samples, sampleRate) => {
    // A copy: the caller may reuse its array; the copy is transferred, not cloned.
    const pcm = samples.slice().buffer;
    post({ type: 'audio', seq, pcm, sampleRate }, [pcm]);
  };
}

/** Runs call `seq` with a signal that its `abort` request fires. */
async function abortable<T>(seq: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  aborts.set(seq, controller);
  try {
    return await run(controller.signal);
  } finally {
    aborts.delete(seq);
  }
}

async function handle(message: HostRequest): Promise<void> {
  const { seq } = message;
  switch (message.type) {
    case 'init':
      engine = await createEngine({
        ...(message.poolSize ? { poolSize: message.poolSize } : {}),
        ...(message.idleReleaseMs !== undefined ? { idleReleaseMs: message.idleReleaseMs } : {}),
        ...(message.sentenceCache ? { sentenceCache: message.sentenceCache } : {}),
      });
      post({ type: 'ready', seq, poolSize: engine.poolSize });
      return;
    case 'render': {
      const result = await abortable(seq, (signal) =>
        started().render({
          ...message.request,
          signal,
          onProgress: (fraction) => post({ type: 'progress', seq, fraction }),
          ...(message.streamAudio ? { onAudio: audioSender(seq) } : {}),
        }),
      );
      post({ type: 'rendered', seq, result });
      return;
    }
    case 'exportBook': {
      const result = await abortable(seq, (signal) =>
        started().exportBook({
          ...message.request,
          signal,
          onProgress: (fraction) => post({ type: 'progress', seq, fraction }),
        }),
      );
      post({ type: 'exported', seq, result });
      return;
    }
    case 'exportChapters': {
      const result = await abortable(seq, (signal) =>
        started().exportChapters({
          ...message.request,
          signal,
          onProgress: (fraction) => post({ type: 'progress', seq, fraction }),
        }),
      );
      post({ type: 'chaptersExported', seq, result });
      return;
    }
    case 'streamAudition': {
      const result = await abortable(seq, (signal) =>
        started().streamAudition({
          ...message.options,
          signal,
          onAudio: audioSender(seq),
          onCache: (cache) => post({ type: 'auditionCache', seq, cache }),
        }),
      );
      post({ type: 'auditionStreamed', seq, result });
      return;
    }
    case 'abort':
      aborts.get(seq)?.abort(new AppError(message.reason.code, message.reason.message));
      return;
    case 'audition': {
      const bytes = await started().audition(message.options);
      const wav = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      post({ type: 'auditioned', seq, wav }, [wav]);
      return;
    }
    case 'read':
      post({
        type: 'read',
        seq,
        reading: await started().read(message.text, message.language, message.options),
      });
      return;
    case 'cacheStats':
      post({ type: 'cacheStats', seq, stats: await started().sentenceCacheStats() });
      return;
    case 'clearCache':
      post({ type: 'cacheStats', seq, stats: await started().clearSentenceCache() });
      return;
    case 'close':
      await engine?.close();
      post({ type: 'closed', seq });
      return;
    default:
      assertNever(message);
  }
}
