// `npm run mock-upstream`: the Messages fake as a standalone upstream for local demos.
import { readMockUpstreamConfig, runMockUpstream } from './mock-upstream.js';

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

try {
  const fake = await runMockUpstream(readMockUpstreamConfig(process.env), out);
  const stop = (): void => {
    void fake.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err: unknown) {
  process.stderr.write(`mock upstream: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
