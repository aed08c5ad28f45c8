// Where an image object's derived previews live, as paths only (no I/O), so that services can
// name them without the preview cache's file-system adapter: `derived/previews/<ab>/<sha256>.<size>[.blurred].webp`.
import { join } from 'node:path';

export interface PreviewPaths {
  plain: string;
  blurred: string;
}

/** The folder holding one object's previews of every size. */
export function previewDir(archiveDir: string, sha256: string): string {
  return join(archiveDir, 'derived', 'previews', sha256.slice(0, 2));
}

/** Where an object's derived previews of one size live. */
export function previewPaths(archiveDir: string, sha256: string, size: number): PreviewPaths {
  const dir = previewDir(archiveDir, sha256);
  return {
    plain: join(dir, `${sha256}.${size}.webp`),
    blurred: join(dir, `${sha256}.${size}.blurred.webp`),
  };
}
