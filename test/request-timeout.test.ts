import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/platform/config.ts';
import { startTestApp, type TestApp } from './support/app.ts';

/**
 * A client that never finishes sending its request is answered 408 (a problem document) and cut
 * off (REQUEST_TIMEOUT_MS).
 */
let ctx: TestApp;
beforeAll(async () => {
  ctx = await startTestApp({ REQUEST_TIMEOUT_MS: '400' });
});
afterAll(() => ctx.close());

describe('request timeout', () => {
  it('defaults: 30 s to send a request, 15 s per database statement', () => {
    const config = parseConfig({});
    expect(config.requestTimeoutMs).toBe(30_000);
    expect(config.dbStatementTimeoutMs).toBe(15_000);
    expect(parseConfig({ DB_STATEMENT_TIMEOUT_MS: '0' }).dbStatementTimeoutMs).toBe(0);
    expect(() => parseConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('headers that never end are answered 408 and the connection is closed', async () => {
    const port = Number(new URL(ctx.baseUrl).port);
    const answer = await new Promise<string>((resolve) => {
      let received = '';
      let drip: NodeJS.Timeout | undefined;
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        // Keeps trickling header lines: only the request timeout ends this. Started once
        // connected: a line written before would be queued ahead of the request line (a loaded
        // machine connecting in over 50 ms was answered 400, HPE_INVALID_METHOD).
        drip = setInterval(() => socket.write('X-Slow: a\r\n'), 50);
      });
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(received);
      });
    });
    const [head, body] = answer.split('\r\n\r\n');
    // The whole answer in the message: any other status names the parser's error code.
    expect(head!.split('\r\n')[0], answer).toBe('HTTP/1.1 408 Request Timeout');
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(body!)).toMatchObject({ status: 408, code: 'request_timeout' });
  });
});
