import { fileTypeFromBuffer } from 'file-type';
import { DomainError } from '@fundi/domain';

export type FileKind = 'document' | 'image' | 'video' | 'archive';

const MB = 1024 * 1024;
/** The size limit of each kind of stored upload (docs/api.md, "Files in requests and answers"). */
export const KIND_LIMITS: Record<FileKind, number> = {
  document: 25 * MB,
  image: 10 * MB,
  video: 100 * MB,
  archive: 100 * MB,
};

/** Media types allowed, by the kind whose limit applies. Anything else is refused (415). */
const KINDS: Record<string, FileKind> = {
  'application/pdf': 'document',
  'application/msword': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
  'application/vnd.ms-excel': 'document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'document',
  'application/vnd.ms-powerpoint': 'document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'document',
  'application/vnd.oasis.opendocument.text': 'document',
  'application/vnd.oasis.opendocument.spreadsheet': 'document',
  'application/vnd.oasis.opendocument.presentation': 'document',
  'application/rtf': 'document',
  'application/x-cfb': 'document',
  'text/plain': 'document',
  'text/csv': 'document',
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'image/heic': 'image',
  'image/heif': 'image',
  'image/tiff': 'image',
  'image/bmp': 'image',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'video/webm': 'video',
  'video/x-msvideo': 'video',
  'video/x-matroska': 'video',
  'video/3gpp': 'video',
  'video/mpeg': 'video',
  'application/zip': 'archive',
  'application/x-7z-compressed': 'archive',
  'application/x-rar-compressed': 'archive',
  'application/vnd.rar': 'archive',
  'application/gzip': 'archive',
  'application/x-tar': 'archive',
};

export interface Sniffed {
  contentType: string;
  kind: FileKind;
}

/** Bytes enough for every signature file-type knows. */
export const SNIFF_BYTES = 4100;

function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  // A multi-byte character cut at the end of the head is fine; anything else must be valid UTF-8.
  let end = head.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = head[end - i]!;
    if ((b & 0xc0) === 0xc0) {
      end -= i;
      break;
    }
    if ((b & 0x80) === 0) break;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
  } catch {
    return false;
  }
  // Other control characters than tab, line breaks and form feed mark binary data.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what marks binary data.
  return !/[\u0001-\u0008\u000e-\u001f]/.test(head.toString('utf8', 0, end));
}

function looksLikeCsv(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.length > 0)
    .slice(0, 5);
  if (lines.length < 2) return false;
  const count = (l: string, c: string) => l.split(c).length - 1;
  for (const sep of [',', ';', '\t']) {
    const n = count(lines[0]!, sep);
    if (n > 0 && lines.every((l, i) => i === lines.length - 1 || count(l, sep) === n)) return true;
  }
  return false;
}

/**
 * The type of a file from its first bytes, never from its name or a client's header: binary formats by their
 * signatures (file-type), text by content rules (valid UTF-8 without control characters; CSV when the first lines
 * share a separator count). Executables and unknown binaries are refused with 415.
 */
export async function sniff(head: Buffer): Promise<Sniffed> {
  if (head.length === 0) throw DomainError.invalid('file', 'is empty');
  const found = await fileTypeFromBuffer(head);
  if (found) {
    const kind = KINDS[found.mime];
    if (!kind) throw unsupported(found.mime);
    return { contentType: found.mime, kind };
  }
  if (looksLikeText(head)) {
    const text = head.toString('utf8');
    return { contentType: looksLikeCsv(text) ? 'text/csv' : 'text/plain', kind: 'document' };
  }
  throw unsupported('unknown binary data');
}

function unsupported(what: string): DomainError {
  return new DomainError(
    'invalid',
    'unsupported_media_type',
    `This kind of file is not accepted (${what}): documents, images, video and archives are (docs/api.md, "Files in requests and answers")`,
  );
}
