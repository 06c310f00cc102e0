// Export: what the room offers to download, as text built by pure
// functions, and the one DOM helper that saves a file.

import { formatOffset } from '../dom';
import type { StepInfo } from '../types';

/** The timeline as text, one step per line, as `rolloutlab run` heads its steps: "+3.000s step 12 sync deployment-controller default/web". */
export function timelineText(steps: readonly StepInfo[], scenario: string): string {
  const lines = [`# rolloutlab timeline: ${scenario}, ${steps.length} steps`];
  for (const s of steps) lines.push(`${formatOffset(s.atNs)} step ${s.step} ${s.kind} ${s.component}${s.key ? ` ${s.key}` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** A file name from a scenario name: "max surge/1" → "max-surge-1". */
export function baseName(name: string): string {
  return name.replace(/\.ya?ml$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'scenario';
}

/** Offers blob as a download named name. */
export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Renders an SVG document to a PNG blob at twice its size. */
export async function svgToPNG(svg: string, width: number, height: number): Promise<Blob> {
  const img = new Image();
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('cannot draw the chart'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = width * 2;
    canvas.height = height * 2;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('cannot encode PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
