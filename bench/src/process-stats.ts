import fs from "node:fs";

/** Resident memory of one process, in MiB, from /proc/<pid>/status. */
export interface ProcessMemory {
  rssMb: number;
  /** VmHWM: the peak resident set since the process started. */
  peakRssMb: number;
}

/** Null once the process is gone (or on a system without /proc). */
export function readProcessMemory(pid: number): ProcessMemory | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 };
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat; null once
 * it is gone. Clock ticks are 100 a second on every Linux the bench runs on (USER_HZ).
 */
export function readProcessCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name may contain spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The command line of a process, to check that it is the node process and not a wrapper. */
export function readCommandLine(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Samples a process's memory every `intervalMs` and keeps the highest VmHWM/VmRSS seen: VmHWM
 * alone would do on Linux, the samples guard against a kernel that does not report it.
 */
export function startMemorySampler(pid: number, intervalMs = 200) {
  let peak = 0;
  const sample = () => {
    const memory = readProcessMemory(pid);
    if (memory) peak = Math.max(peak, Number.isFinite(memory.peakRssMb) ? memory.peakRssMb : 0, memory.rssMb);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    /** Peak resident memory seen so far, MiB. */
    peakMb: () => {
      sample();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
