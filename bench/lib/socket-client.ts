/**
 * The API load's HTTP client, kept light so that the bench measures the server and not itself:
 * one raw keep-alive socket per client, a request written as one pre-built buffer, the reply's
 * head parsed once, and its body counted down from Content-Length as the chunks arrive (no
 * per-chunk parsing, no stream machinery). Node's http client spent ~5.3 ms of CPU receiving
 * one 0.77 MB topology reply, the server ~0.9 ms sending it: 50 such clients on the bench's one
 * thread measured the client. Each reply is still read to its last byte, its status must be 200
 * and its length what Content-Length says. Runs on the calling thread; socket-load.ts spreads
 * the clients over worker threads.
 */
import net from 'node:net';

export interface SocketLoadSpec {
  host: string;
  port: number;
  path: string;
  clients: number;
  /** Requests to make at least, shared by every thread (Atomics on `left[0]`). */
  left: Int32Array;
  /** Keep going until this wall-clock time (ms since the epoch), even after `left` ran out. */
  until: number;
}

export interface SocketLoadResult {
  /** Latency of each reply in ms: from writing the request to the reply's last byte. */
  lat: number[];
  /** Body bytes received, as the replies' Content-Length said. */
  bytes: number;
}

/** What a browser's fetch of the dashboard's API sends that matters to the server: gzip. */
export function requestBytes(host: string, port: number, path: string): Buffer {
  return Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nAccept: application/json, */*\r\n` +
      'Accept-Encoding: gzip, deflate, br\r\nConnection: keep-alive\r\n\r\n',
    'latin1',
  );
}

/** Status and Content-Length of a reply's head (the text before its blank line). */
export function parseHead(head: string): { status: number; length: number } {
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  if (!status) throw new Error(`not an HTTP reply: ${JSON.stringify(head.slice(0, 40))}`);
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  // Fastify sends every API reply (a Buffer or a string) with a Content-Length; a chunked one
  // would need the per-chunk parsing this client exists to avoid.
  if (!length) throw new Error(`reply without Content-Length (${status[0]})`);
  return { status: Number(status[1]), length: Number(length[1]) };
}

const wallNow = () => performance.timeOrigin + performance.now();

/** One client: requests `spec.path` over one socket, one at a time, until the spec says stop. */
function client(spec: SocketLoadSpec, req: Buffer, out: SocketLoadResult): Promise<void> {
  return new Promise((done, fail) => {
    const sock = net.connect({ host: spec.host, port: spec.port });
    sock.setNoDelay(true);
    let head: Buffer | null = null;
    let remaining = -1;
    let t0 = 0;
    let finished = false;
    const stop = (err?: Error) => {
      if (finished) return;
      finished = true;
      sock.destroy();
      if (err) fail(err);
      else done();
    };
    const next = () => {
      if (Atomics.sub(spec.left, 0, 1) <= 0 && wallNow() >= spec.until) return stop();
      head = null;
      remaining = -1;
      t0 = performance.now();
      sock.write(req);
    };
    const replied = (status: number) => {
      if (status !== 200) return stop(new Error(`${spec.path}: HTTP ${status}`));
      out.lat.push(performance.now() - t0);
      next();
    };
    sock.on('data', (chunk: Buffer) => {
      if (remaining > 0) {
        remaining -= chunk.length;
        if (remaining < 0) return stop(new Error(`${spec.path}: ${-remaining} bytes past Content-Length`));
        if (remaining === 0) replied(200);
        return;
      }
      head = head ? Buffer.concat([head, chunk]) : chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 64 * 1024) stop(new Error(`${spec.path}: reply head over 64 kB`));
        return;
      }
      let parsed: { status: number; length: number };
      try {
        parsed = parseHead(head.toString('latin1', 0, end));
      } catch (err) {
        return stop(err as Error);
      }
      out.bytes += parsed.length;
      remaining = parsed.length - (head.length - end - 4);
      if (remaining < 0) return stop(new Error(`${spec.path}: ${-remaining} bytes past Content-Length`));
      if (parsed.status !== 200) return stop(new Error(`${spec.path}: HTTP ${parsed.status}`));
      if (remaining === 0) replied(parsed.status);
    });
    sock.on('error', (err) => stop(err));
    sock.on('close', () => stop(finished ? undefined : new Error(`${spec.path}: connection closed mid-reply`)));
    sock.on('connect', next);
  });
}

/** `spec.clients` clients on this thread; resolves with every latency once all have stopped. */
export async function socketLoad(spec: SocketLoadSpec): Promise<SocketLoadResult> {
  const out: SocketLoadResult = { lat: [], bytes: 0 };
  const req = requestBytes(spec.host, spec.port, spec.path);
  await Promise.all(Array.from({ length: spec.clients }, () => client(spec, req, out)));
  return out;
}
