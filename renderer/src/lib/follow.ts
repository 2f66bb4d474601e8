/**
 * The studio's one way to follow something the server works on (a request, an audiobook export,
 * a project's export) until it ends: its events on the server's event stream move the view, a
 * re-read every `pollMs` backs them up (events sent before the stream opened, or a stream that
 * cannot open, cannot leave a bar stuck), and each follow gets a number so that a newer follow,
 * or `stop`, makes an older loop drop what it reads and end.
 */

/** What a follow's `listen` gets: the stream's signal, and how to ask for a re-read now. */
export interface FollowListener {
  /** Aborted when this follow ends, or a newer one starts. */
  signal: AbortSignal;
  /** False once a newer follow started or `stop` was called: drop the event. */
  current(): boolean;
  /** Re-reads now instead of after the poll interval (an event said it ended). */
  wake(): void;
}

export interface FollowOptions<T> {
  /** Reads the followed thing's state (the poll). */
  read(): Promise<T>;
  /** Shows a state read (only while this follow is the current one). */
  show(value: T): void;
  /** True when the state is final: the follow then ends after `show` and `done`. */
  isFinal(value: T): boolean;
  /** Called once with the final state. */
  done?(value: T): void;
  /** Called when a read fails (only while this follow is the current one); the follow ends. */
  fail(error: unknown): void;
  /**
   * Opens the event stream for this follow (optional: without it, the follow only polls). Its
   * failure is ignored: polling carries on without the stream.
   */
  listen?(listener: FollowListener): Promise<void>;
  /** The re-read interval, ms. */
  pollMs: number;
}

export interface Follower {
  /** Follows until the state is final, a read fails, a newer follow starts or `stop` is called. */
  follow<T>(options: FollowOptions<T>): Promise<void>;
  /** Ends the current follow (the thing itself keeps running on the server). */
  stop(): void;
}

/** A follower: one follow at a time; starting one ends the one before. */
export function createFollower(): Follower {
  let generation = 0;
  let stream: AbortController | undefined;

  return {
    async follow<T>({ read, show, isFinal, done, fail, listen, pollMs }: FollowOptions<T>) {
      const mine = ++generation;
      stream?.abort();
      const controller = new AbortController();
      stream = controller;
      const current = () => mine === generation;
      let wake: (() => void) | undefined;
      listen?.({ signal: controller.signal, current, wake: () => wake?.() }).catch(() => undefined);
      try {
        for (;;) {
          if (!current()) return;
          let value: T;
          try {
            value = await read();
          } catch (error) {
            if (current()) fail(error);
            return;
          }
          if (!current()) return;
          show(value);
          if (isFinal(value)) {
            done?.(value);
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, pollMs);
          });
        }
      } finally {
        controller.abort();
      }
    },
    stop() {
      generation++;
      stream?.abort();
    },
  };
}
