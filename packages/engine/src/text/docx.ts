// Word documents (.docx) to text with mammoth, which reads each paragraph's runs in order and
// ends each paragraph with a blank line.
import mammoth from 'mammoth';

export async function docxToText(data: Buffer): Promise<string> {
  const { value } = await mammoth.extractRawText({ buffer: data });
  return value;
}
