// A zip reader (docx, epub) that inflates at most what its limits allow. Every entry's declared
// size is checked when the archive is opened, and inflation itself stops at the limit, so an entry
// that lies about its size cannot grow past it either. Entries are inflated once and kept.
import { inflateRawSync } from 'node:zlib';
import { ExtractionLimitError, MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES, MAX_ZIP_TOTAL_BYTES } from './limits.js';

export class ZipFormatError extends Error {}

/** An entry as the central directory describes it (PKWARE's APPNOTE, 4.3.12). */
export interface ZipEntry {
  /** 0 stored, 8 deflated. */
  method: number;
  /** General purpose flags; bit 0 is encryption. */
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

export interface ZipLimits {
  entryBytes: number;
  totalBytes: number;
  entries: number;
}

const DEFAULT_LIMITS: ZipLimits = {
  entryBytes: MAX_ZIP_ENTRY_BYTES,
  totalBytes: MAX_ZIP_TOTAL_BYTES,
  entries: MAX_ZIP_ENTRIES,
};

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end-of-central-directory record's fixed part; a comment of at most 65,535 bytes follows. */
export const EOCD_BYTES = 22;
export const MAX_EOCD_SEARCH = EOCD_BYTES + 0xffff;
/** A local file header's fixed part. */
export const LOCAL_HEADER_BYTES = 30;

export class BoundedZip {
  private readonly entries: Map<string, ZipEntry>;
  private readonly cache = new Map<string, Buffer>();
  private inflated = 0;

  constructor(
    private readonly data: Buffer,
    private readonly limits: ZipLimits = DEFAULT_LIMITS,
  ) {
    const { count, dirOffset } = endOfCentralDirectory(data, 0, limits);
    this.entries = centralDirectory(data.subarray(dirOffset), count, limits);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes; throws ExtractionLimitError past the limits, ZipFormatError when damaged or missing. */
  read(name: string): Buffer {
    const cached = this.cache.get(name);
    if (cached) return cached;
    const entry = this.entries.get(name);
    if (!entry) throw new ZipFormatError(`${name} is missing`);
    const data = this.data;
    const h = entry.localHeader;
    if (h + LOCAL_HEADER_BYTES > data.length) throw new ZipFormatError(`${name} is damaged`);
    const start = entryDataStart(data.subarray(h, h + LOCAL_HEADER_BYTES), name) + h;
    const raw = data.subarray(start, start + entry.compressedSize);
    if (raw.length !== entry.compressedSize) throw new ZipFormatError(`${name} is truncated`);
    const allowed = Math.min(this.limits.entryBytes, this.limits.totalBytes - this.inflated);
    let bytes: Buffer;
    if (entry.method === 0) {
      bytes = raw;
    } else if (entry.method === 8) {
      try {
        // One byte over what is allowed is enough to know the entry is too large.
        bytes = inflateRawSync(raw, { maxOutputLength: allowed + 1 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new ExtractionLimitError(`${name} inflates past the limit`);
        }
        throw new ZipFormatError(`${name} is damaged`);
      }
    } else {
      throw new ZipFormatError(`${name} uses an unsupported compression method`);
    }
    if (bytes.length > allowed) throw new ExtractionLimitError(`${name} inflates past the limit`);
    this.inflated += bytes.length;
    this.cache.set(name, bytes);
    return bytes;
  }

  readText(name: string): string {
    return this.read(name).toString('utf8');
  }
}

/**
 * Where the central directory is and how many entries it holds, from the end record in `tail`
 * (the archive's last bytes, `tailOffset` being where they start in it). The count is checked
 * before the directory is read: a few bytes must not make the reader walk millions of entries.
 */
export function endOfCentralDirectory(
  tail: Buffer,
  tailOffset: number,
  limits: Pick<ZipLimits, 'entries'>,
): { count: number; dirOffset: number; dirBytes: number } {
  let end = -1;
  for (let p = tail.length - EOCD_BYTES; p >= Math.max(0, tail.length - MAX_EOCD_SEARCH); p--) {
    if (tail.readUInt32LE(p) === EOCD) {
      end = p;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError('not a zip archive');
  const count = tail.readUInt16LE(end + 10);
  const dirBytes = tail.readUInt32LE(end + 12);
  const dirOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw new ExtractionLimitError('zip64 archives are not read');
  if (count > limits.entries) throw new ExtractionLimitError(`the archive has more than ${limits.entries} entries`);
  if (dirOffset + dirBytes > tailOffset + end) throw new ZipFormatError('damaged zip directory');
  return { count, dirOffset, dirBytes };
}

/** The entries of a central directory (`dir` starts at it), by name, checked against the limits. */
export function centralDirectory(dir: Buffer, count: number, limits: ZipLimits): Map<string, ZipEntry> {
  const entries = new Map<string, ZipEntry>();
  let declared = 0;
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) throw new ZipFormatError('damaged zip directory');
    const entry: ZipEntry = {
      method: dir.readUInt16LE(p + 10),
      flags: dir.readUInt16LE(p + 8),
      crc32: dir.readUInt32LE(p + 16),
      compressedSize: dir.readUInt32LE(p + 20),
      size: dir.readUInt32LE(p + 24),
      localHeader: dir.readUInt32LE(p + 42),
    };
    const nameLength = dir.readUInt16LE(p + 28);
    const name = dir.toString('utf8', p + 46, p + 46 + nameLength);
    if (entry.size > limits.entryBytes) throw new ExtractionLimitError(`${name} would inflate past the limit`);
    declared += entry.size;
    if (declared > limits.totalBytes) throw new ExtractionLimitError('the archive would inflate past the limit');
    if (!entries.has(name)) entries.set(name, entry);
    p += 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
  }
  return entries;
}

/** Where an entry's data starts, counted from its local header (given as its first 30 bytes). */
export function entryDataStart(localHeader: Buffer, name: string): number {
  if (localHeader.length < LOCAL_HEADER_BYTES || localHeader.readUInt32LE(0) !== LOCAL) {
    throw new ZipFormatError(`${name} is damaged`);
  }
  return LOCAL_HEADER_BYTES + localHeader.readUInt16LE(26) + localHeader.readUInt16LE(28);
}
