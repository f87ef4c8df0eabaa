import * as grpc from '@grpc/grpc-js';

/**
 * grpc-js hands a stream's messages to HTTP/2 one at a time, the next only once the write before it has
 * completed, so every answer on a proxy's decision stream left in a writev of its own and woke the proxy once
 * each, even when a window's acks were ready together. Accepting each message as soon as HTTP/2 has it lets the
 * answers of one turn leave in one write. Order holds: the HTTP/2 stream's buffer is first in, first out, and
 * the status still follows the last message (it is sent once the stream's buffered data has ended). The session
 * never waited for write() anyway, so no backpressure is given up.
 */
class EagerSendCall extends grpc.ServerInterceptingCall {
  override sendMessage(message: unknown, callback: () => void): void {
    super.sendMessage(message, () => undefined);
    callback();
  }
}

/** Applies EagerSendCall to the streaming methods named (by full path, e.g. /gateway.policy.v1.Policy/Session). */
export function eagerSendInterceptor(paths: readonly string[]): grpc.ServerInterceptor {
  return (method, call) => (paths.includes(method.path) ? new EagerSendCall(call) : new grpc.ServerInterceptingCall(call));
}
