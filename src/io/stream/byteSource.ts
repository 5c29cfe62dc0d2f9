/**
 * What the loaders read bytes from: a named, sized source that can be streamed from the start and
 * sliced. A browser `File` (and the CLI's file-backed Blob) is one as it is; `httpByteSource` is
 * one over HTTP range requests (the `rollout-studio view` server's `GET /api/files/:id`), so a file
 * on a remote GPU box goes through the same indexer as a local File and is never copied whole
 * (issue 14, point 4).
 */

export interface ByteSource {
  readonly name: string;
  /** The bytes the source holds: reads never go past it (a growing file is read up to here). */
  readonly size: number;
  /** The bytes in order, from the start to `size`. */
  stream(): ReadableStream<Uint8Array>;
  /** The bytes in [start, end), clipped to `size`. */
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

export interface HttpSourceInit {
  readonly url: string;
  readonly name: string;
  /** The size the listing gave: the source reads bytes [0, size) even if the file has grown. */
  readonly size: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** For tests and the CLI: the fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** A failed range read: the status and what the server said. */
export class HttpSourceError extends Error {
  override name = "HttpSourceError";
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

async function rangeResponse(init: HttpSourceInit, start: number, end: number): Promise<Response> {
  const doFetch = init.fetch ?? fetch;
  const response = await doFetch(init.url, {
    headers: { ...init.headers, Range: `bytes=${start}-${end - 1}` },
    cache: "no-store",
  });
  if (response.status !== 206 && !(response.status === 200 && start === 0)) {
    let detail = "";
    try {
      const body = (await response.json()) as { error?: unknown };
      if (typeof body.error === "string") detail = `: ${body.error}`;
    } catch {
      // no JSON body
    }
    throw new HttpSourceError(
      `${init.name}: reading bytes ${start}-${end - 1} failed (HTTP ${response.status}${detail})`,
      response.status,
    );
  }
  return response;
}

/**
 * At most the first `limit` bytes of a stream (a 200 reply may hold more than was asked; a source
 * cut to a followed file's complete lines, completeLines.ts).
 */
export function capped(
  body: ReadableStream<Uint8Array>,
  limit: number,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let left = limit;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (left <= 0) {
        await reader.cancel();
        controller.close();
        return;
      }
      const { value, done } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      const chunk = value.byteLength > left ? value.subarray(0, left) : value;
      left -= chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A source over HTTP range requests. */
export function httpByteSource(init: HttpSourceInit): ByteSource {
  const { size } = init;
  return {
    name: init.name,
    size,
    stream() {
      if (size === 0) return new ReadableStream({ start: (c) => c.close() });
      let inner: ReadableStreamDefaultReader<Uint8Array> | null = null;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (inner === null) {
            const response = await rangeResponse(init, 0, size);
            if (response.body === null) {
              controller.close();
              return;
            }
            inner = capped(response.body, size).getReader();
          }
          const { value, done } = await inner.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: async (reason) => {
          await inner?.cancel(reason);
        },
      });
    },
    slice(start, end) {
      const from = Math.max(0, Math.min(start, size));
      const to = Math.max(from, Math.min(end, size));
      return {
        async arrayBuffer() {
          if (to === from) return new ArrayBuffer(0);
          const response = await rangeResponse(init, from, to);
          const buffer = await response.arrayBuffer();
          return buffer.byteLength > to - from ? buffer.slice(0, to - from) : buffer;
        },
      };
    },
  };
}
