// The authorship classifier against scikit-learn, the reference implementation of the same
// model: StandardScaler, then LogisticRegression (multinomial, lbfgs, C = 1), fitted on the same
// feature vectors of the same passages. Both must reach the same optimum of the same convex
// objective, so the coefficients and every held-out passage's probabilities must agree. Runs
// where a Python can import sklearn (OWNVOICE_SKLEARN_PYTHON names one: `npm test` makes it once
// per machine with scripts/reference-python.sh, a pinned scikit-learn from PyPI, so in CI it runs;
// the trainer never needs it), and says it is skipped elsewhere.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { authorWriting } from '../corpus/authors.js';
import { neutralParagraphs } from '../corpus/neutral.js';
import { splitPassages } from '../text/passages.js';
import { AuthorshipClassifier } from './authorship-classifier.js';
import { FeatureSpace } from './authorship-features.js';
import { fitLogistic } from './logistic-regression.js';

const SKLEARN_PYTHON = [process.env.OWNVOICE_SKLEARN_PYTHON, 'python3', '/usr/bin/python3'].find(
  (python) => python && spawnSync(python, ['-c', 'import sklearn'], { stdio: 'ignore' }).status === 0,
);

const passages = (text: string) => splitPassages(text, { maxChars: 700, minChars: 233 });
const [KJV, JARGON, NEUTRAL] = [passages(authorWriting('kjv')), passages(authorWriting('jargon')), neutralParagraphs()];
const TRAIN = { kjv: KJV.slice(0, 20), jargon: JARGON.slice(0, 20), neutral: NEUTRAL.slice(0, 20) };
const TEST = [...KJV.slice(30, 36), ...JARGON.slice(30, 36), ...NEUTRAL.slice(20)];

/** scikit-learn's fit on the raw feature vectors: its coefficients, intercepts and test probabilities. */
const SKLEARN = `
import json, sys
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
data = json.load(sys.stdin)
scaler = StandardScaler().fit(np.array(data["train"]))
model = LogisticRegression(C=1.0, tol=1e-10, max_iter=100000)
model.fit(scaler.transform(np.array(data["train"])), np.array(data["labels"]))
print(json.dumps({
    "coef": model.coef_.tolist(),
    "intercept": model.intercept_.tolist(),
    "proba": model.predict_proba(scaler.transform(np.array(data["test"]))).tolist(),
}))
`;

describe.skipIf(!SKLEARN_PYTHON)('the authorship classifier against scikit-learn', () => {
  it('reaches the same coefficients and the same probabilities on held-out passages', () => {
    const texts = [...TRAIN.kjv, ...TRAIN.jargon, ...TRAIN.neutral];
    const labels = texts.map((_, i) => Math.floor(i / 20));
    const space = FeatureSpace.fit(texts);
    const raw = texts.map((t) => space.vector(t));
    const reference = JSON.parse(
      execFileSync(SKLEARN_PYTHON as string, ['-c', SKLEARN], {
        input: JSON.stringify({ train: raw.map((v) => [...v]), labels, test: TEST.map((t) => [...space.vector(t)]) }),
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      }),
    ) as { coef: number[][]; intercept: number[]; proba: number[][] };

    // The regression alone, on the features standardised as StandardScaler does.
    const d = space.names.length;
    const mean = Array.from({ length: d }, (_, j) => raw.reduce((s, v) => s + (v[j] as number), 0) / raw.length);
    const sd = mean.map((m, j) => Math.sqrt(raw.reduce((s, v) => s + ((v[j] as number) - m) ** 2, 0) / raw.length));
    const scaled = raw.map((v) =>
      v.map((x, j) => ((sd[j] as number) > 0 ? (x - (mean[j] as number)) / (sd[j] as number) : 0)),
    );
    const fit = fitLogistic(scaled, labels, 3, { C: 1 });
    const coefDiff = Math.max(
      ...reference.coef.flatMap((row, c) => row.map((w, j) => Math.abs(w - (fit.weights[c * d + j] as number)))),
    );
    const coefMax = Math.max(...reference.coef.flat().map(Math.abs));
    // Intercepts are defined up to a shared constant (softmax ignores it): compare them centred.
    const centred = (b: ArrayLike<number>) =>
      Array.from(b, (v) => v - Array.from(b).reduce((s, x) => s + x, 0) / b.length);
    const [ours, theirs] = [centred(fit.intercepts), centred(reference.intercept)];
    expect(coefDiff / coefMax).toBeLessThan(1e-4);
    ours.forEach((b, c) => {
      expect(b).toBeCloseTo(theirs[c] as number, 4);
    });

    // The whole classifier: its probabilities on passages neither saw in training.
    const classifier = AuthorshipClassifier.train(TRAIN);
    const probabilityDiff = Math.max(
      ...TEST.map((t, i) => {
        const p = classifier.probabilities(t);
        return Math.max(
          ...['kjv', 'jargon', 'neutral'].map((c, k) =>
            Math.abs((p[c] as number) - (reference.proba[i]?.[k] as number)),
          ),
        );
      }),
    );
    expect(probabilityDiff).toBeLessThan(1e-4);
    console.log(
      `scikit-learn reference: largest coefficient difference ${(coefDiff / coefMax).toExponential(2)} of the largest coefficient; largest probability difference ${probabilityDiff.toExponential(2)} over ${TEST.length} held-out passages`,
    );
  });
});
