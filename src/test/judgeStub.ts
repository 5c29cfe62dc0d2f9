/**
 * A local OpenAI-compatible judge server for tests: node:http on 127.0.0.1, a random port, serving
 * POST /v1/chat/completions and /chat/completions. Each request gets the next scripted reply (a
 * queue) or the reply a function computes from the request: a chat completion with content and
 * usage, an HTTP status with headers (429 with retry-after, 500, 401), a raw body, optionally after
 * a delay (to trigger client timeouts).
 *
 * Replies allow any origin (CORS), so the studio in a browser can call it too.
 *
 * Requests are recorded with the Authorization header removed: `requests` says only whether one was
 * sent, and `sawKey(key)` checks it, so a recorded request can be printed without leaking the key.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type StubReply =
  | {
      readonly kind: "completion";
      /** choices[0].message.content; null sends a null content. */
      readonly content: string | null;
      /** Omit to send no usage object. */
      readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
      readonly delayMs?: number;
    }
  | {
      readonly kind: "status";
      readonly status: number;
      /** JSON error body; defaults to an OpenAI-style `{"error": {"message": …}}`. */
      readonly body?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  | {
      readonly kind: "raw";
      readonly status: number;
      readonly body: string;
      readonly delayMs?: number;
    };

export interface StubRequest {
  readonly path: string;
  /** Every header but Authorization, lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly hadAuthorization: boolean;
  readonly body: unknown;
}

export type StubScript = readonly StubReply[] | ((request: StubRequest, n: number) => StubReply);

export interface JudgeStub {
  /** e.g. http://127.0.0.1:41234/v1 */
  readonly baseURL: string;
  readonly requests: readonly StubRequest[];
  /** True when every request so far carried `Bearer <key>`. */
  sawKey(key: string): boolean;
  close(): Promise<void>;
}

/** A chat completion reply with the given content and token usage. */
export function stubCompletion(
  content: string | null,
  usage: { prompt_tokens: number; completion_tokens: number } | undefined = {
    prompt_tokens: 10,
    completion_tokens: 5,
  },
  delayMs = 0,
): StubReply {
  return usage === undefined
    ? { kind: "completion", content, delayMs }
    : { kind: "completion", content, usage, delayMs };
}

/**
 * The studio calls the judge from the page, a cross-origin request: every reply allows any origin,
 * and a preflight (OPTIONS) is answered without being recorded or taking a scripted reply.
 */
const CORS = { "access-control-allow-origin": "*" } as const;

function preflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    ...CORS,
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
    "access-control-max-age": "600",
  });
  res.end();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "content-type": "application/json", ...CORS, ...headers });
  res.end(body);
}

export async function startJudgeStub(script: StubScript): Promise<JudgeStub> {
  const requests: StubRequest[] = [];
  const auth: (string | undefined)[] = [];
  let served = 0;
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    {
      const path = (req.url ?? "").split("?")[0]!;
      const text = await readBody(req);
      if (req.method === "OPTIONS") {
        preflight(req, res);
        return;
      }
      if (
        req.method !== "POST" ||
        (path !== "/v1/chat/completions" && path !== "/chat/completions")
      ) {
        send(
          res,
          404,
          JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }),
          {},
        );
        return;
      }
      let body: unknown = null;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = text;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (k !== "authorization" && typeof v === "string") headers[k] = v;
      const request: StubRequest = {
        path,
        headers,
        hadAuthorization: req.headers.authorization !== undefined,
        body,
      };
      requests.push(request);
      auth.push(req.headers.authorization);
      const n = served++;
      const reply: StubReply =
        typeof script === "function"
          ? script(request, n)
          : (script[n] ?? {
              kind: "status",
              status: 500,
              body: { error: { message: `the stub's script has no reply ${n}` } },
            });
      const respond = (): void => {
        if (reply.kind === "completion") {
          send(
            res,
            200,
            JSON.stringify({
              id: `chatcmpl-stub-${n}`,
              object: "chat.completion",
              created: 0,
              model:
                typeof body === "object" && body !== null && "model" in body ? body.model : "stub",
              choices: [
                {
                  index: 0,
                  message: { role: "assistant", content: reply.content },
                  finish_reason: "stop",
                },
              ],
              ...(reply.usage
                ? {
                    usage: {
                      ...reply.usage,
                      total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens,
                    },
                  }
                : {}),
            }),
            {},
          );
        } else if (reply.kind === "status") {
          send(
            res,
            reply.status,
            JSON.stringify(reply.body ?? { error: { message: `stub status ${reply.status}` } }),
            { "x-should-retry": "false", ...(reply.headers ?? {}) },
          );
        } else send(res, reply.status, reply.body, {});
      };
      const delay = reply.delayMs ?? 0;
      if (delay <= 0) respond();
      else {
        const timer = setTimeout(() => {
          timers.delete(timer);
          respond();
        }, delay);
        timers.add(timer);
      }
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) =>
      send(res, 500, JSON.stringify({ error: { message: `stub failure: ${String(e)}` } }), {}),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    sawKey: (key) => auth.length > 0 && auth.every((a) => a === `Bearer ${key}`),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((err) => (err ? reject(err) : resolve())),
      );
    },
  };
}
