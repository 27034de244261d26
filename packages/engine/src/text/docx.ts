// Word documents (.docx) to text with mammoth, which reads each paragraph's runs in order and
// ends each paragraph with a blank line. mammoth reads the archive through BoundedZip, so a
// compressed part cannot inflate past the limits, and each XML part it reads is refused when its
// elements nest too deep for it (nesting.ts).
import mammoth from 'mammoth';
import { checkXmlDepth } from './nesting.js';
import { BoundedZip } from './zip.js';

export async function docxToText(data: Buffer): Promise<string> {
  const zip = new BoundedZip(data);
  // mammoth takes an opened archive as `file`: an object that can tell whether a part exists
  // and read it (as bytes, or decoded text when given an encoding).
  const file = {
    exists: (name: string) => zip.has(name),
    read: async (name: string, encoding?: string) => {
      const bytes = zip.read(name);
      if (encoding === 'base64') return bytes.toString('base64');
      if (!encoding) return bytes;
      // Parts read as text are the XML mammoth parses.
      const text = new TextDecoder(encoding).decode(bytes);
      checkXmlDepth(text);
      return text;
    },
    write: () => {
      throw new Error('read only');
    },
    toArrayBuffer: () => {
      throw new Error('read only');
    },
  };
  const { value } = await mammoth.extractRawText({ file } as unknown as { buffer: Buffer });
  return value;
}
