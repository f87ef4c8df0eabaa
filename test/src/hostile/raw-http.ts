import { connect } from 'node:net';

export interface RawReply {
  /** 0 when no status line arrived */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** the connection was reset (ECONNRESET/EPIPE) */
  reset: boolean;
  /** every byte received, for diagnostics */
  raw: string;
}

/**
 * Sends raw bytes to host:port (pieces written `gapMs` apart) and reads until the server closes or `timeoutMs`.
 * `keepWriting` keeps sending filler after the pieces (a client still uploading) up to maxBytes; like curl or
 * Python's requests, such a client reads the answer only once it has sent everything, so a server that closes
 * while it is still sending makes it see a reset instead of the answer.
 */
export function rawExchange(
  port: number,
  pieces: Array<string | Buffer>,
  opts: { gapMs?: number; timeoutMs?: number; keepWriting?: { chunk: Buffer; maxBytes: number }; host?: string; replies?: number } = {},
): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: opts.host ?? '127.0.0.1' });
    const received: Buffer[] = [];
    let reset = false;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseReply(Buffer.concat(received).toString('latin1'), reset));
    };
    const timer = setTimeout(finish, opts.timeoutMs ?? 5_000);
    socket.on('data', (d: Buffer) => {
      received.push(d);
      if (completeReplies(Buffer.concat(received).toString('latin1')) >= (opts.replies ?? 1)) finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
      finish();
    });
    socket.on('close', finish);
    if (opts.keepWriting !== undefined) socket.pause();
    socket.on('connect', async () => {
      for (const p of pieces) {
        if (socket.destroyed) return;
        socket.write(p);
        if (opts.gapMs !== undefined) await new Promise((r) => setTimeout(r, opts.gapMs));
      }
      const k = opts.keepWriting;
      if (k === undefined) return;
      let sent = 0;
      const pump = (): void => {
        while (!socket.destroyed && sent < k.maxBytes) {
          sent += k.chunk.length;
          const last = sent >= k.maxBytes;
          const flushed = socket.write(k.chunk, last ? () => socket.resume() : undefined);
          if (!flushed && !last) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

/** How many complete responses (headers, then a content-length or chunked body) the bytes hold. */
function completeReplies(raw: string): number {
  let n = 0;
  let at = 0;
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.slice(at)) && raw.indexOf('\r\n\r\n', at) !== -1) at = raw.indexOf('\r\n\r\n', at) + 4;
  for (;;) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end === -1) return n;
    const head = raw.slice(at, end);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
    if (Number.isFinite(length)) {
      if (Buffer.byteLength(raw.slice(end + 4), 'latin1') < length) return n;
      at = end + 4 + length;
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = raw.indexOf('\r\n0\r\n\r\n', end);
      if (last === -1) return n;
      at = last + 7;
    } else {
      return n; // read to the close
    }
    n += 1;
  }
}

export function parseReply(raw: string, reset: boolean): RawReply {
  // Interim 1xx answers (100 Continue) come before the real one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw) && raw.includes('\r\n\r\n')) raw = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: '', reset, raw };
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
  let body = raw.slice(end + 4);
  const length = Number(headers['content-length']);
  if (Number.isFinite(length)) body = Buffer.from(body, 'latin1').subarray(0, length).toString('utf8');
  else if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status, headers, body, reset, raw };
}

function dechunk(s: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const nl = s.indexOf('\r\n', i);
    if (nl === -1) break;
    const size = parseInt(s.slice(i, nl), 16);
    if (!(size > 0)) break;
    out += s.slice(nl + 2, nl + 2 + size);
    i = nl + 2 + size + 2;
  }
  return Buffer.from(out, 'latin1').toString('utf8');
}

/** A vendor error body parsed from a raw reply, or null when it is not one. */
export function vendorBody(r: RawReply): { type?: string; error?: { type?: string; message?: string }; request_id?: string } | null {
  try {
    return JSON.parse(r.body) as { type?: string; error?: { type?: string; message?: string }; request_id?: string };
  } catch {
    return null;
  }
}
