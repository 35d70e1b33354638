import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildImageService, type ImageService } from '../../src/image-service/app.ts';
import { parseImageServiceConfig } from '../../src/image-service/config.ts';

/** A 1×1 PNG, what the fake images endpoint draws. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/**
 * A loopback OpenAI-compatible images server: POST /v1/images/generations answers one image as
 * b64_json (or as a URL it serves itself when the request asks response_format "url").
 */
export interface ImagesApiFake {
  baseUrl: string;
  requests: RecordedRequest[];
  /** 'ok' draws; 'fail' answers 500 like an overloaded provider. */
  mode: 'ok' | 'fail';
  close(): Promise<void>;
}

export async function startImagesApiFake(): Promise<ImagesApiFake> {
  const fake: ImagesApiFake = { baseUrl: '', requests: [], mode: 'ok', close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const body = text ? JSON.parse(text) : undefined;
    fake.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (req.method === 'GET' && req.url === '/files/tiny.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(TINY_PNG);
    }
    if (req.method !== 'POST' || req.url !== '/v1/images/generations') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'not found' } }));
    }
    if (fake.mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ error: { message: 'The server is overloaded.', type: 'server_error' } }),
      );
    }
    const image =
      body?.response_format === 'url'
        ? { url: `${fake.baseUrl}/files/tiny.png` }
        : { b64_json: TINY_PNG.toString('base64') };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ created: Math.floor(Date.now() / 1000), data: [image] }));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}

export interface RunningImageService extends ImageService {
  baseUrl: string;
  /** Headers and bodies of every request the microservice received. */
  received: RecordedRequest[];
  close(): Promise<void>;
}

/** The reference image microservice (src/image-service) on a loopback port, with a fresh data dir. */
export async function startImageService(env: Record<string, string>): Promise<RunningImageService> {
  const config = parseImageServiceConfig({
    IMAGE_SERVICE_DATA_DIR: `/tmp/mise-image-service-${randomBytes(4).toString('hex')}`,
    IMAGE_SERVICE_PORT: '0',
    ...env,
  });
  const service = buildImageService(config, { logger: false });
  const received: RecordedRequest[] = [];
  service.app.addHook('preHandler', async (request) => {
    received.push({
      method: request.method,
      path: request.url,
      headers: request.headers,
      body: request.body,
    });
  });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  service.setPublicUrl(baseUrl);
  return {
    ...service,
    baseUrl,
    received,
    close: async () => {
      await service.app.close();
      await service.worker.drained();
    },
  };
}
