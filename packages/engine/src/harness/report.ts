// The harness's report as Markdown, for the command line and the bench: the classifier's
// cross-validated accuracy first (how far its verdicts go), then every model's figures with their
// 90% intervals, then each target against what was reached.
import { WRITER_NAMES } from '../corpus/writers.js';
import type { BootstrapSpread } from '../eval/bootstrap.js';
import type { Spread } from '../eval/quantiles.js';
import { NEUTRAL_CLASS } from '../voice/style-classifier.js';
import type { ModelFigures } from './figures.js';
import { HARNESS_TARGETS, type HarnessReport } from './harness.js';

const figure = (s: BootstrapSpread | undefined, digits = 2) =>
  s ? `${s.all.toFixed(digits)} (${s.low.toFixed(digits)}–${s.high.toFixed(digits)})` : '–';
const percent = (s: BootstrapSpread) =>
  `${(s.all * 100).toFixed(0)}% (${(s.low * 100).toFixed(0)}–${(s.high * 100).toFixed(0)}%)`;
/** The held-out drop with its interval over the held-out pairs, where the trainer gave one. */
const drop = (v: { perplexityDrop: number; perplexityDropSpread: Spread | undefined }) => {
  const s = v.perplexityDropSpread;
  const all = `${(v.perplexityDrop * 100).toFixed(0)}%`;
  return s ? `${all} (${(s.low * 100).toFixed(0)}–${(s.high * 100).toFixed(0)}%)` : all;
};
const geometricMean = (values: readonly number[]) =>
  Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);

/** One model's row of the figures table. */
function row(who: string, f: ModelFigures, classes: readonly string[], extra: { ratio?: string; drop?: string }) {
  const writers = classes.filter((c) => c !== NEUTRAL_CLASS);
  const attribution = classes
    .map((w) => `${((f.attribution[w]?.all ?? 0) * 100).toFixed(0)}% (p ${(f.probability[w]?.all ?? 0).toFixed(2)})`)
    .join(' / ');
  const deltas = writers.map((w) => f.delta[w]?.delta.toFixed(3) ?? '–').join(' / ');
  return `| ${who} | ${figure(f.recall)} | ${figure(f.similarity)} | ${attribution} | ${deltas} | ${geometricMean(f.perplexities).toFixed(1)} | ${extra.ratio ?? ''} | ${extra.drop ?? ''} |`;
}

/** Whether `value` meets a target that is a floor (at least) or a ceiling (at most). */
const verdict = (value: number, target: number, floor: boolean) =>
  (floor ? value >= target : value <= target) ? 'reached' : 'not reached';

export function formatHarness(report: HarnessReport): string[] {
  const t = HARNESS_TARGETS;
  const { writers } = report;
  const cv = report.classifier;
  const classes = [...writers, NEUTRAL_CLASS];
  const head = classes.join(' / ');
  const lines = [
    `Writers: ${writers.map((w) => `${w} (${WRITER_NAMES[w]})`).join(', ')}; ${report.inputs.length} neutral paragraphs rewritten by each model.`,
    `Authorship classifier: cross-validated accuracy ${(cv.accuracy * 100).toFixed(1)}% over ${cv.passages} passages in ${cv.folds} folds (${head}).`,
    'Figures on all paragraphs, with the 5th–95th percentile of 1,000 bootstrap resamples over them (the held-out drop: over the held-out pairs);',
    'attribution: the share of rewrites the classifier gives each class, and (p) its mean probability for it.',
    '',
    `| rewrites by | content-word recall | semantic similarity | attributed to ${head} | Delta to ${writers.join(' / ')} | base perplexity | ÷ base rewrites | held-out perplexity drop |`,
    '|---|---|---|---|---|---|---|---|',
    row('neutral input', report.asGiven, classes, {}),
    row('base model', report.base, classes, {}),
    ...report.voices.map((v) =>
      row(`${v.writer} Voice`, v.figures, classes, {
        ratio: figure(v.perplexityRatio),
        drop: drop(v),
      }),
    ),
    '',
    '| target | figure | reached? |',
    '|---|---|---|',
    `| base model's rewrites attributed to any writer ≤ ${t.baseAttribution * 100}% | ${percent(report.baseAttribution)} | ${verdict(report.baseAttribution.all, t.baseAttribution, false)} |`,
  ];
  for (const v of report.voices) {
    const f = v.figures;
    lines.push(
      `| ${v.writer} Voice's rewrites attributed to ${v.writer} ≥ ${t.ownAttribution * 100}% | ${percent(v.ownAttribution)} | ${verdict(v.ownAttribution.all, t.ownAttribution, true)} |`,
      `| ${v.writer} Voice content-word recall ≥ ${t.recall} | ${figure(f.recall)} | ${verdict(f.recall.all, t.recall, true)} |`,
      ...(f.similarity
        ? [
            `| ${v.writer} Voice semantic similarity ≥ ${t.similarity} | ${figure(f.similarity)} | ${verdict(f.similarity.all, t.similarity, true)} |`,
          ]
        : []),
      `| ${v.writer} Voice rewrite perplexity ≤ ${t.perplexityRatio}× the base's rewrites | ${figure(v.perplexityRatio)} | ${verdict(v.perplexityRatio.all, t.perplexityRatio, false)} |`,
      `| ${v.writer} Voice held-out perplexity ≥ ${t.perplexityDrop * 100}% below the base's | ${drop(v)} | ${verdict(v.perplexityDrop, t.perplexityDrop, true)} |`,
    );
  }
  return lines;
}
