import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFollower, type FollowListener } from '../../renderer/src/lib/follow';

interface State {
  status: 'running' | 'done';
  step: number;
}

/** A thing on the "server": each read answers the next of `answers` (the last one repeats). */
function server(answers: Array<State | Error>) {
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    read: () => {
      const answer = answers[Math.min(reads++, answers.length - 1)]!;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

const isFinal = (s: State) => s.status === 'done';

describe('createFollower', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('re-reads every pollMs until the state is final, showing each one, then calls done once', async () => {
    const thing = server([
      { status: 'running', step: 1 },
      { status: 'running', step: 2 },
      { status: 'done', step: 3 },
    ]);
    const shown: number[] = [];
    const done = vi.fn();
    const follower = createFollower();
    const following = follower.follow({
      pollMs: 1000,
      read: thing.read,
      show: (s) => shown.push(s.step),
      isFinal,
      done,
      fail: () => expect.fail('no read fails'),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual([1]);
    await vi.advanceTimersByTimeAsync(999);
    expect(shown).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1000);
    await following;
    expect(shown).toEqual([1, 2, 3]);
    expect(done).toHaveBeenCalledExactlyOnceWith({ status: 'done', step: 3 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(thing.reads).toBe(3);
  });

  it('an event can wake the loop: it re-reads at once instead of after the interval', async () => {
    const thing = server([
      { status: 'running', step: 1 },
      { status: 'done', step: 2 },
    ]);
    let listener: FollowListener | undefined;
    const shown: number[] = [];
    const following = createFollower().follow({
      pollMs: 60_000,
      read: thing.read,
      show: (s) => shown.push(s.step),
      isFinal,
      fail: () => expect.fail('no read fails'),
      listen: async (l) => {
        listener = l;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual([1]);
    expect(listener!.current()).toBe(true);
    listener!.wake();
    await following;
    expect(shown).toEqual([1, 2]);
    // The stream of a follow that ended is closed.
    expect(listener!.signal.aborted).toBe(true);
  });

  it('a failed read ends the follow with fail; a stream that cannot open does not', async () => {
    const thing = server([{ status: 'running', step: 1 }, new Error('gone')]);
    const failed: unknown[] = [];
    const shown: number[] = [];
    const following = createFollower().follow({
      pollMs: 10,
      read: thing.read,
      show: (s) => shown.push(s.step),
      isFinal,
      fail: (e) => failed.push(e),
      listen: () => Promise.reject(new Error('no stream')),
    });
    await vi.advanceTimersByTimeAsync(10);
    await following;
    expect(shown).toEqual([1]);
    expect(failed).toEqual([new Error('gone')]);
    await vi.advanceTimersByTimeAsync(100);
    expect(thing.reads).toBe(2);
  });

  it('a newer follow, or stop, makes the older one drop what it reads and end', async () => {
    let answer: (s: State) => void = () => undefined;
    const slow = () =>
      new Promise<State>((resolve) => {
        answer = resolve;
      });
    const shown: string[] = [];
    const failed = vi.fn();
    const follower = createFollower();
    const listeners: FollowListener[] = [];
    const first = follower.follow({
      pollMs: 10,
      read: slow,
      show: (s) => shown.push(`first ${s.step}`),
      isFinal,
      fail: failed,
      listen: async (l) => void listeners.push(l),
    });
    const answerFirst = answer;
    const second = follower.follow({
      pollMs: 10,
      read: () => Promise.resolve<State>({ status: 'running', step: 1 }),
      show: (s) => shown.push(`second ${s.step}`),
      isFinal,
      fail: failed,
      listen: async (l) => void listeners.push(l),
    });
    // The older follow's stream closed when the newer one started.
    expect(listeners[0]!.current()).toBe(false);
    expect(listeners[0]!.signal.aborted).toBe(true);
    answerFirst({ status: 'running', step: 9 });
    await first;
    await vi.advanceTimersByTimeAsync(25);
    expect(shown).toEqual(['second 1', 'second 1', 'second 1']);
    follower.stop();
    expect(listeners[1]!.current()).toBe(false);
    expect(listeners[1]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    await second;
    expect(shown).toHaveLength(3);
    expect(failed).not.toHaveBeenCalled();
  });
});
