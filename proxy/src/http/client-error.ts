import { GatewayError, InvalidRequestError, MethodNotAllowedError, newRequestId, type Logger } from '@gateway/shared';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { rawErrorResponse, sendError } from './error-responder.js';

/** After the answer, how much more the client may send (discarded) and for how long, before the socket goes. */
const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 2_000;

/**
 * What Node's parser refuses (bad or duplicate Content-Length, Transfer-Encoding with Content-Length, bad chunk
 * sizes, control characters in headers, headers over 16 KiB, a request not received in time), as the vendor's
 * error with a request id instead of Node's empty 400. Nothing of the request is logged: its raw bytes
 * (err.rawPacket) may hold a key.
 */
export function answerParserErrors(server: Server, log: Logger): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Node may report one broken socket more than once; a peer that reset has no one left to read an answer.
    if (answered.has(socket)) return;
    answered.add(socket);
    if (err.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const error = parserError(err.code);
    const requestId = newRequestId();
    log.info({ request_id: requestId, code: err.code, status: error.status }, 'malformed HTTP refused');
    lingerThenClose(socket);
    socket.end(rawErrorResponse(error, requestId));
  });

  // The two other answers Node would give on its own, empty: `Expect` other than 100-continue (417) and CONNECT
  // (the socket dropped without a word).
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const expectation = new GatewayError('expectation_failed', 417, 'invalid_request_error', 'Expect: only 100-continue is supported.', true);
    sendError(res, expectation, newRequestId(), log);
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const requestId = newRequestId();
    log.info({ request_id: requestId, status: 405 }, 'CONNECT refused');
    lingerThenClose(socket);
    socket.end(rawErrorResponse(new MethodNotAllowedError('CONNECT', req.url ?? '/'), requestId));
  });
}

function parserError(code: string | undefined): GatewayError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new GatewayError('header_too_large', 431, 'invalid_request_error', 'Request header fields are too large (16 KiB at most).', true);
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new GatewayError('request_timeout', 408, 'timeout_error', 'The request was not received in time.', true);
  }
  return new InvalidRequestError(`The request is not valid HTTP/1.1 (${describe(code)}).`);
}

/** A short, fixed description per parser error: never the parser's own text, which may quote the request. */
function describe(code: string | undefined): string {
  switch (code) {
    case 'HPE_INVALID_CONTENT_LENGTH':
      return 'invalid Content-Length';
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return 'Content-Length duplicated or sent with Transfer-Encoding';
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_EOF_STATE':
      return 'malformed chunked body';
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return 'invalid Transfer-Encoding';
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_CR_EXPECTED':
    case 'HPE_LF_EXPECTED':
      return 'malformed header';
    case 'HPE_INVALID_METHOD':
      return 'invalid method';
    case 'HPE_INVALID_URL':
      return 'invalid request target';
    case 'HPE_INVALID_VERSION':
      return 'invalid HTTP version';
    default:
      return 'malformed request';
  }
}

/** Whether a response already put bytes on this socket (then a second answer would corrupt it). */
function responseStarted(socket: Duplex): boolean {
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return current?.headersSent === true;
}

/**
 * Closing a socket while the client is still sending makes the kernel answer with a reset, which can destroy the
 * answer before the client reads it. So the rest is read and discarded, bounded in bytes and time.
 */
function lingerThenClose(socket: Duplex): void {
  let seen = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.removeAllListeners('data'); // Node's parser: nothing more is parsed
  socket.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LINGER_BYTES) socket.destroy();
  });
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
}
