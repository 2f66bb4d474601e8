/** The throttle's waits (auth-throttle.ts `schedule`) held until the test releases them. */
export function manualTimers() {
  const parked: { ms: number; run: () => void }[] = [];
  return {
    parked,
    schedule(run: () => void, ms: number) {
      const entry = { ms, run };
      parked.push(entry);
      return () => {
        const at = parked.indexOf(entry);
        if (at >= 0) parked.splice(at, 1);
      };
    },
    releaseAll() {
      for (const entry of parked.splice(0)) entry.run();
    },
  };
}
