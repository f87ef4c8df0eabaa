// A local OTLP/HTTP sink for the traced arms of the benches: reads each export and answers 200 at once (a
// collector that keeps up), counting exports. `close` is for the bench's own clean-up list.
import { createServer } from 'node:http';

export async function startTraceSink() {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    exports: () => exports,
    close: () => new Promise((r) => server.close(r)),
  };
}
