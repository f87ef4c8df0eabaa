// The upstream of `npm run bench`: the least a Messages API can do. Answers every POST …/v1/messages at once
// with a prebuilt Message (JSON) or a prebuilt event stream (SSE, the first content_block_delta in the first
// write), so that what the arms add is not hidden behind the mock. A request whose text contains "bench-slow"
// gets a stream that sends message_start and the first delta at once, then a ping a second, and ends after
// SLOW_SECONDS: the slow streams the memory figure holds open. Prints `{"port":N}` when listening.
import { createServer } from 'node:http';

const SLOW_SECONDS = Number(process.env.BENCH_SLOW_SECONDS ?? 30);
const model = 'bench-model';
const usage = { input_tokens: 12, output_tokens: 6, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
const message = JSON.stringify({
  id: 'msg_01bench', type: 'message', role: 'assistant', model,
  content: [{ type: 'text', text: 'Hello from the benchmark mock.' }], stop_reason: 'end_turn', stop_sequence: null, usage,
});
const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const head = event('message_start', { type: 'message_start', message: { id: 'msg_01bench', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } })
  + event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
  + event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } });
const tail = event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' from the benchmark mock.' } })
  + event('content_block_stop', { type: 'content_block_stop', index: 0 })
  + event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } })
  + event('message_stop', { type: 'message_stop' });
const sse = head + tail;
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': 'req_01bench', 'cache-control': 'no-cache' };
const JSON_HEADERS = { 'content-type': 'application/json', 'request-id': 'req_01bench', 'content-length': Buffer.byteLength(message) };

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || !req.url?.includes('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{"type":"error","error":{"type":"not_found_error","message":"bench mock"}}');
    }
    if (!body.includes('"stream":true')) {
      res.writeHead(200, JSON_HEADERS);
      return res.end(message);
    }
    res.writeHead(200, SSE_HEADERS);
    if (!body.includes('bench-slow')) return res.end(sse);
    res.write(head);
    let left = SLOW_SECONDS;
    const timer = setInterval(() => {
      left -= 1;
      if (left > 0) return void res.write(event('ping', { type: 'ping' }));
      clearInterval(timer);
      res.end(tail);
    }, 1000);
    res.on('close', () => clearInterval(timer));
  });
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
