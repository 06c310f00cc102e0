// Download progress of the engine: how many bytes to expect and how to show them.

/** A snapshot of the engine download. */
export interface Progress {
  /** Bytes received so far (after any Content-Encoding was undone). */
  received: number;
  /** Bytes expected in total, or null when unknown. */
  total: number | null;
}

/**
 * How many body bytes a fetch of the wasm will deliver. Content-Length counts
 * the bytes on the wire, which only equal the bytes a reader sees when the
 * response is not compressed; otherwise the size recorded at build time is
 * used (0 means unknown).
 *
 *   expectedBytes(new Headers({'content-length': '100'}), 0)                            → 100
 *   expectedBytes(new Headers({'content-length': '40', 'content-encoding': 'br'}), 100) → 100
 *   expectedBytes(new Headers(), 0)                                                     → null
 */
export function expectedBytes(headers: Headers, buildBytes: number): number | null {
  const encoding = (headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') {
    const length = Number(headers.get('content-length') ?? '');
    if (headers.has('content-length') && Number.isSafeInteger(length) && length > 0) return length;
  }
  return buildBytes > 0 ? buildBytes : null;
}

/** The completed fraction in [0, 1], or null when the total is unknown. */
export function progressFraction(p: Progress): number | null {
  if (p.total === null || p.total <= 0) return null;
  return Math.min(1, Math.max(0, p.received / p.total));
}

/**
 * Formats a byte count for people, in decimal units.
 *
 *   formatBytes(999) → "999 B";  formatBytes(1500) → "1.5 kB";  formatBytes(9_800_000) → "9.8 MB"
 */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** One line describing progress, e.g. "3.1 MB / 9.8 MB (32%)". */
export function describeProgress(p: Progress): string {
  const fraction = progressFraction(p);
  if (fraction === null) return formatBytes(p.received);
  return `${formatBytes(p.received)} / ${formatBytes(p.total ?? 0)} (${Math.floor(fraction * 100)}%)`;
}
