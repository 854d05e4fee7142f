// What a benchmark reads about a process from Linux's /proc: CPU time, resident memory, the machine's load.
import fs from 'node:fs';

/** The clock ticks of /proc/<pid>/stat (USER_HZ: 100 on Linux on every architecture the project runs on). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used, in ms, or NaN once it is gone: a per-request cost that a busy machine blurs less than req/s. */
export function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND; // utime, stime
  } catch {
    return NaN;
  }
}

/** Resident memory (VmRSS) of a process in MB, or NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The load averages over 1, 5 and 15 minutes, as /proc/loadavg says them ("2.10 1.53 0.98"). */
export const loadAverage = (): string => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
