// GPT-2's byte-level alphabet: every byte maps to a printable character, so a token's text is
// a plain string and merges read like "Ġ t" (Ġ is the space byte). llama.cpp's "gpt2" tokenizer
// model expects vocabularies written this way.

const byteToChar: string[] = [];
const charToByte = new Map<string, number>();
{
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const code = printable.includes(b) ? b : 256 + extra++;
    byteToChar[b] = String.fromCodePoint(code);
    charToByte.set(String.fromCodePoint(code), b);
  }
}

export const BYTE_CHARS: readonly string[] = byteToChar;

export function bytesToTokenText(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += byteToChar[b];
  return s;
}

export function tokenTextToBytes(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const b = charToByte.get(ch);
    if (b === undefined) throw new Error(`not a byte-level token character: ${JSON.stringify(ch)}`);
    out.push(b);
  }
  return Uint8Array.from(out);
}

// GPT-2's pre-tokenizer: contractions, words with an optional leading space, numbers,
// punctuation runs, and whitespace. llama.cpp applies the same split for pre-type "gpt-2".
export const GPT2_SPLIT = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export function preTokenize(text: string): string[] {
  return text.match(GPT2_SPLIT) ?? [];
}
