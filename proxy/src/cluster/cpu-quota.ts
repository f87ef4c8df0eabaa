import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How many CPUs the container's quota allows, for `PROXY_WORKERS=auto`. Read from the cgroup the process runs
 * in, never from the host's CPU count: a pod limited to 2 CPUs on a 64-core node must not start 64 workers, each
 * loading the person-name model. Read once at start-up (synchronous, before anything listens).
 */

/** cgroup v2 `cpu.max`: "<quota> <period>" or "max <period>". CPUs allowed, or undefined when unlimited. */
export function cpusFromCpuMax(text: string): number | undefined {
  const [quota, period] = text.trim().split(/\s+/);
  if (quota === undefined || quota === 'max') return undefined;
  return cpusFrom(Number(quota), Number(period ?? 100_000));
}

/** cgroup v1 `cpu.cfs_quota_us` (-1: unlimited) and `cpu.cfs_period_us`. */
export function cpusFromCfs(quotaText: string, periodText: string): number | undefined {
  return cpusFrom(Number(quotaText.trim()), Number(periodText.trim()));
}

function cpusFrom(quota: number, period: number): number | undefined {
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return undefined;
  return quota / period;
}

/** The cgroup v2 path of this process from /proc/self/cgroup ("0::/path"), or undefined on v1 or outside Linux. */
export function cgroupV2Path(procSelfCgroup: string): string | undefined {
  const line = procSelfCgroup.split('\n').find((l) => l.startsWith('0::'));
  return line === undefined ? undefined : line.slice(3).trim();
}

export interface QuotaSources {
  /** where the cgroup file systems are mounted (/sys/fs/cgroup) */
  cgroupRoot: string;
  /** /proc/self/cgroup */
  procSelfCgroup: string;
}

const LINUX: QuotaSources = { cgroupRoot: '/sys/fs/cgroup', procSelfCgroup: '/proc/self/cgroup' };

/**
 * The CPUs the quota allows (fractional: 1.5 for "150000 100000"), or undefined when there is none. cgroup v2
 * first: the tightest `cpu.max` from the process's own cgroup up to the root (a container in its own cgroup
 * namespace sees its cgroup as the root; without one, a pod's limit may sit on an ancestor). Then v1's CFS files.
 */
export function cpuQuota(sources: QuotaSources = LINUX): number | undefined {
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  const own = cgroupV2Path(read(sources.procSelfCgroup) ?? '') ?? '/';
  const parts = own.split('/').filter((p) => p !== '');
  let v2Found = false;
  let tightest: number | undefined;
  for (let depth = parts.length; depth >= 0; depth -= 1) {
    const text = read(join(sources.cgroupRoot, ...parts.slice(0, depth), 'cpu.max'));
    if (text === undefined) continue;
    v2Found = true;
    const cpus = cpusFromCpuMax(text);
    if (cpus !== undefined && (tightest === undefined || cpus < tightest)) tightest = cpus;
  }
  if (v2Found) return tightest;
  for (const dir of ['cpu', 'cpu,cpuacct', 'cpuacct,cpu']) {
    const quota = read(join(sources.cgroupRoot, dir, 'cpu.cfs_quota_us'));
    const period = read(join(sources.cgroupRoot, dir, 'cpu.cfs_period_us'));
    if (quota !== undefined && period !== undefined) return cpusFromCfs(quota, period);
  }
  return undefined;
}

/**
 * Workers for a PROXY_WORKERS setting: a number as given; `auto` the whole CPUs of the quota (rounded down, at
 * least 1: a worker on half a CPU would be throttled, not faster), capped by the CPUs this process may run on
 * (`os.availableParallelism()`, which follows the cpuset) and used alone only when there is no quota.
 */
export function workerCount(setting: number | 'auto', parallelism: number, quota: () => number | undefined = cpuQuota): number {
  if (setting !== 'auto') return setting;
  const allowed = quota();
  const cpus = allowed === undefined ? parallelism : Math.min(parallelism, Math.floor(allowed));
  return Math.max(1, cpus);
}
