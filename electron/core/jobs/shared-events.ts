/**
 * What instances on one shared database tell each other, over the database's notifications
 * (PostgreSQL LISTEN/NOTIFY): request, delivery and export events, so any instance's event
 * stream and direct answers see every request and export; "work is waiting", so an idle instance
 * claims a request within milliseconds instead of at its next poll; and cancels of a request
 * another instance renders. On SQLite (one process) there is no one to tell and this does nothing.
 */

import type { Store } from '../store';
import type { Log } from '../platform/log';
import type { JobEventMap, JobEvents } from './events';
import { errorText } from './store-retry';

/** The channel every instance listens on. */
export const EVENTS_CHANNEL = 'narration_studio_events';

/** The events relayed between instances. */
const RELAYED = ['request', 'delivery', 'finished', 'export'] as const;
type Relayed = (typeof RELAYED)[number];
type RequestEvent = JobEventMap['request'][0];

/** A render's progress report (status processing), of which only the latest counts. */
function isProgress(event: JobEventMap[Relayed][0]): boolean {
  return (event as RequestEvent).status === 'processing';
}

/** One relayed event. */
interface RelayedEvent {
  name: Relayed;
  event: JobEventMap[Relayed][0];
}

type Message =
  | { from: string; kind: 'events'; events: RelayedEvent[] }
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

/**
 * Wakes and events are sent at most this often, ms: a burst of submits becomes one wake and a
 * few notifications of many events each, instead of one round trip to the database per event
 * (which capped a shared database's submits at ~100/s).
 */
const SEND_EVERY_MS = 10;

/** A notification's payload must stay below PostgreSQL's 8,000 bytes. */
const MAX_PAYLOAD_BYTES = 7_500;

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

  /** Events waiting for the next send, in order. */
  let queued: RelayedEvent[] = [];
  let sendTimer: NodeJS.Timeout | undefined;
  /**
   * The notifications of events, one after the other: sent at once, they would leave on several
   * pooled connections and could arrive out of order.
   */
  let sending: Promise<void> = Promise.resolve();
  const flushEvents = () => {
    sendTimer = undefined;
    const pending = queued;
    queued = [];
    const parts: RelayedEvent[][] = [[]];
    let bytes = 0;
    for (const item of pending) {
      const size = Buffer.byteLength(JSON.stringify(item)) + 1;
      if (parts.at(-1)!.length > 0 && bytes + size > MAX_PAYLOAD_BYTES) {
        parts.push([]);
        bytes = 0;
      }
      parts.at(-1)!.push(item);
      bytes += size;
    }
    for (const events of parts) {
      if (events.length > 0) sending = sending.then(() => send({ from: instanceId, kind: 'events', events }));
    }
  };

  const forwarders = RELAYED.map((name) => {
    const forward = (event: JobEventMap[Relayed][0]) => {
      if (relaying || closed) return;
      const last = queued.at(-1);
      // Progress of one render: only the latest of a burst matters.
      if (name === 'request' && last?.name === 'request' && isProgress(last.event) && isProgress(event)) {
        if ((last.event as RequestEvent).request_id === (event as RequestEvent).request_id) {
          queued[queued.length - 1] = { name, event };
          return;
        }
      }
      queued.push({ name, event });
      sendTimer ??= setTimeout(flushEvents, SEND_EVERY_MS);
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
    if (message.kind !== 'events' || !Array.isArray(message.events)) return;
    for (const { name, event } of message.events) {
      if (!(RELAYED as readonly string[]).includes(name)) continue;
      if (name === 'request') {
        const request = event as RequestEvent;
        remoteProgress.delete(request.request_id);
        if (request.status === 'processing') {
          remoteProgress.set(request.request_id, request.progress);
          if (remoteProgress.size > MAX_PROGRESS) remoteProgress.delete(remoteProgress.keys().next().value!);
        }
      }
      relaying = true;
      try {
        (events.emit as (name: string, event: unknown) => boolean)(name, event);
      } finally {
        relaying = false;
      }
    }
  };

  return {
    async start() {
      unlisten = await store.listen(EVENTS_CHANNEL, receive);
      for (const { name, forward } of forwarders)
        (events.on as (n: string, f: unknown) => void)(name, forward);
    },
    wake() {
      if (wakeTimer || closed) return;
      wakeTimer = setTimeout(() => {
        wakeTimer = undefined;
        void send({ from: instanceId, kind: 'wake' });
      }, SEND_EVERY_MS);
    },
    async cancel(requestId) {
      await send({ from: instanceId, kind: 'cancel', requestId });
    },
    progress: (requestId) => remoteProgress.get(requestId),
    async close() {
      closed = true;
      clearTimeout(wakeTimer);
      // What is queued still goes out: another instance's event stream may wait for it.
      if (sendTimer) {
        clearTimeout(sendTimer);
        flushEvents();
      }
      await sending;
      for (const { name, forward } of forwarders)
        (events.off as (n: string, f: unknown) => void)(name, forward);
      unlisten?.();
    },
  };
}
