// A stand-in for a forge's REST API (GitHub, GitLab) that records each request and answers 201
// with a small JSON object, as their comment endpoints do.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the stand-in received; `body` is its JSON (an empty object for none). */
export interface RecordedApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: { body: string };
}

/** A running stand-in: its base URL, the requests it received, and close(). */
export interface RecordingApi {
  readonly url: string;
  readonly requests: RecordedApiRequest[];
  close(): Promise<void>;
}

export function startRecordingApi(): Promise<RecordingApi> {
  const requests: RecordedApiRequest[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(text || '{}') });
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: requests.length }));
    });
  });
  return new Promise((ready) =>
    server.listen(0, '127.0.0.1', () =>
      ready({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}
