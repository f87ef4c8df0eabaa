import { expect } from 'chai';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: { type?: string; error?: { type: string; message: string }; request_id?: string } & Record<string, unknown>;
}

/** A POST with a raw body (string or bytes), answered as text and, when it parses, JSON. */
export async function post(url: string, key: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
    body,
  });
  const text = await res.text();
  let parsed: Reply['body'] = {};
  try {
    parsed = JSON.parse(text) as Reply['body'];
  } catch {
    // left empty: the assertions say what was expected
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** The vendor's error shape with a request id, in the body and the header alike. */
export function expectVendorError(r: { status: number; body: Reply['body']; requestId: string | null }, status: number, type: string): void {
  expect(r.status, JSON.stringify(r.body)).to.equal(status);
  expect(r.body.type).to.equal('error');
  expect(r.body.error?.type).to.equal(type);
  expect(r.body.error?.message).to.be.a('string');
  expect(r.body.request_id).to.match(/^req_[A-Za-z0-9]{24,}$/);
  expect(r.requestId).to.equal(r.body.request_id);
}

export function expectReply(r: Reply, status: number, type: string): void {
  expectVendorError({ status: r.status, body: r.body, requestId: r.headers.get('request-id') }, status, type);
}

/** Peak and current resident memory of a process, in bytes (Linux /proc). */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 'NaN') * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
