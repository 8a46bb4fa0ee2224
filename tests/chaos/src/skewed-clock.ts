// Preloaded into a worker process (NODE_OPTIONS=--import, see skewedClockEnvironment) to move its
// Node clock by HERALD_CHAOS_CLOCK_SKEW_MS: Date.now() and new Date() both. Timers and
// performance.now() keep real time, as they do on a machine whose wall clock is off.
const skewMs = Number(process.env.HERALD_CHAOS_CLOCK_SKEW_MS ?? "0");
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

class SkewedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(realNow() + skewMs);
    else super(...(args as [string | number | Date]));
  }

  static override now(): number {
    return realNow() + skewMs;
  }
}

globalThis.Date = SkewedDate as DateConstructor;
