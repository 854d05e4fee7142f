import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createHttpServer } from '../../api/httpServer.js';

/** An app on a free port of 127.0.0.1. */
export async function listenApp(app: Express): Promise<{ base: string; server: http.Server }> {
  const server = await new Promise<http.Server>((resolve) => {
    const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * One request with node:http: the status, the headers as they came (without Date and Last-Modified, which differ
 * between two servers) and the body's bytes undecoded (fetch would decompress them), to compare answers exactly.
 */
export function rawRequest(
  base: string,
  path: string,
  method: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const { date: _date, 'last-modified': _modified, ...rest } = res.headers;
        resolve({ status: res.statusCode!, headers: rest, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
