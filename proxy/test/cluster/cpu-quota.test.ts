import { expect } from 'chai';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cgroupV2Path, cpuQuota, cpusFromCfs, cpusFromCpuMax, workerCount } from '../../src/cluster/cpu-quota.js';

/** The fixtures stay beside the test's source (dist/ holds only compiled code). */
const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/cluster/fixtures');
const machine = (name: string) => ({ cgroupRoot: join(FIXTURES, name, 'sys/fs/cgroup'), procSelfCgroup: join(FIXTURES, name, 'proc/self/cgroup') });

describe('cpu quota (PROXY_WORKERS=auto)', function () {
  it('reads cgroup v2 cpu.max and v1 CFS figures', function () {
    expect(cpusFromCpuMax('200000 100000\n')).to.equal(2);
    expect(cpusFromCpuMax('50000 100000')).to.equal(0.5);
    expect(cpusFromCpuMax('max 100000')).to.equal(undefined);
    expect(cpusFromCpuMax('garbage')).to.equal(undefined);
    expect(cpusFromCfs('-1\n', '100000\n')).to.equal(undefined);
    expect(cpusFromCfs('300000\n', '100000\n')).to.equal(3);
    expect(cgroupV2Path('12:cpu,cpuacct:/docker/x\n0::/kubepods/pod1/c1\n')).to.equal('/kubepods/pod1/c1');
    expect(cgroupV2Path('12:cpu,cpuacct:/docker/x\n')).to.equal(undefined);
  });

  it('finds the quota of the cgroup the process is in, on fixture file systems', function () {
    expect(cpuQuota(machine('v2-quota'))).to.equal(2.5);
    // the process's own cgroup is limited, the root is not: the tighter one counts
    expect(cpuQuota(machine('v2-nested'))).to.equal(1.5);
    expect(cpuQuota(machine('v2-unlimited'))).to.equal(undefined);
    expect(cpuQuota(machine('v1-quota'))).to.equal(4);
    expect(cpuQuota(machine('v1-unlimited'))).to.equal(undefined);
    expect(cpuQuota(machine('none'))).to.equal(undefined);
    expect(cpuQuota(machine('missing-entirely'))).to.equal(undefined);
  });

  it('turns a setting into a worker count: auto is the quota\'s whole CPUs, capped by the CPUs usable', function () {
    expect(workerCount(3, 64, () => 1)).to.equal(3); // a number is taken as given
    // a 2.5-CPU limit on a 64-core node: 2 workers, not 64
    expect(workerCount('auto', 64, () => cpuQuota(machine('v2-quota')))).to.equal(2);
    expect(workerCount('auto', 2, () => cpuQuota(machine('v1-quota')))).to.equal(2); // quota above the cpuset
    expect(workerCount('auto', 8, () => 0.5)).to.equal(1); // never fewer than one
    expect(workerCount('auto', 6, () => undefined)).to.equal(6); // no quota: the CPUs this process may run on
  });
});
