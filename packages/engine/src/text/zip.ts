// A zip reader (docx, epub) that inflates at most what its limits allow. Every entry's declared
// size is checked when the archive is opened, and inflation itself stops at the limit, so an entry
// that lies about its size cannot grow past it either. Entries are inflated once and kept.
import { inflateRawSync } from 'node:zlib';
import { ExtractionLimitError, MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES, MAX_ZIP_TOTAL_BYTES } from './limits.js';

export class ZipFormatError extends Error {}

interface Entry {
  method: number;
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

export class BoundedZip {
  private readonly entries = new Map<string, Entry>();
  private readonly cache = new Map<string, Buffer>();
  private inflated = 0;

  constructor(
    private readonly data: Buffer,
    private readonly limits: ZipLimits = DEFAULT_LIMITS,
  ) {
    const end = findEndOfCentralDirectory(data);
    const count = data.readUInt16LE(end + 10);
    const dirOffset = data.readUInt32LE(end + 16);
    if (count === 0xffff || dirOffset === 0xffffffff) throw new ExtractionLimitError('zip64 archives are not read');
    if (count > limits.entries) throw new ExtractionLimitError(`the archive has more than ${limits.entries} entries`);
    let declared = 0;
    let p = dirOffset;
    for (let i = 0; i < count; i++) {
      if (p + 46 > data.length || data.readUInt32LE(p) !== CENTRAL) throw new ZipFormatError('damaged zip directory');
      const entry: Entry = {
        method: data.readUInt16LE(p + 10),
        compressedSize: data.readUInt32LE(p + 20),
        size: data.readUInt32LE(p + 24),
        localHeader: data.readUInt32LE(p + 42),
      };
      const nameLength = data.readUInt16LE(p + 28);
      const name = data.toString('utf8', p + 46, p + 46 + nameLength);
      if (entry.size > limits.entryBytes) throw new ExtractionLimitError(`${name} would inflate past the limit`);
      declared += entry.size;
      if (declared > limits.totalBytes) throw new ExtractionLimitError('the archive would inflate past the limit');
      if (!this.entries.has(name)) this.entries.set(name, entry);
      p += 46 + nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    }
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
    if (h + 30 > data.length || data.readUInt32LE(h) !== LOCAL) throw new ZipFormatError(`${name} is damaged`);
    const start = h + 30 + data.readUInt16LE(h + 26) + data.readUInt16LE(h + 28);
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

function findEndOfCentralDirectory(data: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  for (let p = data.length - 22; p >= Math.max(0, data.length - 22 - 0xffff); p--) {
    if (data.readUInt32LE(p) === EOCD) return p;
  }
  throw new ZipFormatError('not a zip archive');
}
