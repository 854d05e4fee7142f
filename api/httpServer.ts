import http from 'node:http';
import type { Express } from 'express';
import { initRequestSlots } from './requestSlots.js';

type Construct<T> = new (...args: never[]) => T;

/**
 * The HTTP server of `app`, whose requests and responses are born with the app's own prototypes (`app.request`,
 * `app.response`: Express's methods over Node's IncomingMessage and ServerResponse).
 *
 * `app.listen` makes Node's plain objects, and Express then swaps their prototype on every request
 * (`Object.setPrototypeOf(req, app.request)` in `app.handle`). An object whose prototype changes gets a new hidden
 * class, so every property read of Node's, Express's and the app's code on it meets two shapes where it expected one.
 * Side by side with the server before (bench/README.md, "Server CPU per request"), this alone took a signed-in
 * `GET /users/{id}` from 530 to 360 µs of server CPU and a leads list page from 1,513 to 957 µs. With the prototype
 * already right, Express's swap changes nothing (V8 returns early on the same prototype), so the app runs exactly as
 * under `app.listen`.
 *
 * The constructors call Node's as functions (`IncomingMessage.call(this, …)`), as Node's own subclasses did before
 * classes: `Reflect.construct(IncomingMessage, args, AppRequest)` makes the same object but measured as slow as the swap.
 * Should a Node release make them classes (not callable), the server falls back to Node's own objects.
 */
export function createHttpServer(app: Express): http.Server {
  if (!callable(http.IncomingMessage) || !callable(http.ServerResponse)) return http.createServer(app);
  const IncomingMessage = http.IncomingMessage as unknown as (this: unknown, ...args: unknown[]) => void;
  const ServerResponse = http.ServerResponse as unknown as (this: unknown, ...args: unknown[]) => void;
  function AppRequest(this: object, socket: unknown) {
    IncomingMessage.call(this, socket);
    initRequestSlots(this);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: unknown, req: unknown, options: unknown) {
    ServerResponse.call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return http.createServer(
    {
      IncomingMessage: AppRequest as unknown as Construct<http.IncomingMessage> as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as Construct<http.ServerResponse> as typeof http.ServerResponse,
    },
    app,
  );
}

/** A constructor that can be called as a function on an object made elsewhere: not a class. */
export function callable(constructor: unknown): boolean {
  return typeof constructor === 'function' && !/^class\b/.test(Function.prototype.toString.call(constructor));
}
