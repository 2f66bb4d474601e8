/**
 * What instances on one shared database tell each other, over the database's notifications
 * (PostgreSQL LISTEN/NOTIFY): request and delivery events, so any instance's event stream and
 * direct answers see every request; "work is waiting", so an idle instance claims a request
 * within milliseconds instead of at its next poll; and cancels of a request another instance
 * renders. On SQLite (one process) there is no one to tell and this does nothing.
 */

import type { Store } from '../store';
import type { Log } from '../platform/log';
import type { JobEventMap, JobEvents } from './events';
import { errorText } from './store-retry';

/** The channel every instance listens on. */
export const EVENTS_CHANNEL = 'narration_studio_events';

/** The events relayed between instances. */
const RELAYED = ['request', 'delivery', 'finished'] as const;
type Relayed = (typeof RELAYED)[number];

type Message =
  | { from: string; kind: 'event'; name: Relayed; event: JobEventMap[Relayed][0] }
  | { from: string; kind: 'wake' }
  | { from: string; kind: 'cancel'; requestId: string };

export interface SharedEvents {
  start(): Promise<void>;
  /** Tells the other instances that requests are waiting (coalesced). */
  wake(): void;
  /** Asks the instance rendering `requestId` to cancel it. */
  cancel(requestId: string): Promise<void>;
  /** 0–1 for a request another instance renders, as it last told; undefined otherwise. */
  progress(requestId: string): number | undefined;
  close(): Promise<void>;
}

export interface SharedEventsOptions {
  store: Store;
  events: JobEvents;
  instanceId: string;
  log: Log;
  /** Another instance accepted requests. */
  onWake(): void;
  /** Another instance asks to cancel a request (which may be rendering here). */
  onCancel(requestId: string): void;
}

/** Requests of other instances whose progress is kept, at most (the oldest are forgotten). */
const MAX_PROGRESS = 10_000;

/** Wakes are sent at most this often, ms: a burst of submits becomes one notification. */
const WAKE_EVERY_MS = 10;

export function shareEvents(options: SharedEventsOptions): SharedEvents {
  const { store, events, instanceId, log } = options;
  if (store.exclusive) {
    return {
      start: async () => {},
      wake() {},
      cancel: async () => {},
      progress: () => undefined,
      close: async () => {},
    };
  }
  const remoteProgress = new Map<string, number>();
  let unlisten: (() => void) | undefined;
  /** True while re-emitting another instance's event, which must not be sent back out. */
  let relaying = false;
  let wakeTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const send = (message: Message) =>
    store.notify(EVENTS_CHANNEL, JSON.stringify(message)).catch((error: unknown) => {
      log.warn(`could not notify the other instances (${message.kind}): ${errorText(error)}`);
    });

  const forwarders = RELAYED.map((name) => {
    const forward = (event: JobEventMap[Relayed][0]) => {
      if (relaying || closed) return;
      void send({ from: instanceId, kind: 'event', name, event });
    };
    return { name, forward };
  });

  const receive = (payload: string) => {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.from === instanceId || closed) return;
    if (message.kind === 'wake') return options.onWake();
    if (message.kind === 'cancel') return options.onCancel(message.requestId);
    if (message.kind === 'event' && (RELAYED as readonly string[]).includes(message.name)) {
      if (message.name === 'request') {
        const event = message.event as JobEventMap['request'][0];
        remoteProgress.delete(event.request_id);
        if (event.status === 'processing') {
          remoteProgress.set(event.request_id, event.progress);
          if (remoteProgress.size > MAX_PROGRESS) remoteProgress.delete(remoteProgress.keys().next().value!);
        }
      }
      relaying = true;
      try {
        (events.emit as (name: string, event: unknown) => boolean)(message.name, message.event);
      } finally {
        relaying = false;
      }
    }
  };

  return {
    async start() {
      unlisten = await store.listen(EVENTS_CHANNEL, receive);
      for (const { name, forward } of forwarders) (events.on as (n: string, f: unknown) => void)(name, forward);
    },
    wake() {
      if (wakeTimer || closed) return;
      wakeTimer = setTimeout(() => {
        wakeTimer = undefined;
        void send({ from: instanceId, kind: 'wake' });
      }, WAKE_EVERY_MS);
    },
    async cancel(requestId) {
      await send({ from: instanceId, kind: 'cancel', requestId });
    },
    progress: (requestId) => remoteProgress.get(requestId),
    async close() {
      closed = true;
      clearTimeout(wakeTimer);
      for (const { name, forward } of forwarders) (events.off as (n: string, f: unknown) => void)(name, forward);
      unlisten?.();
    },
  };
}
