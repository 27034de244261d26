"""gpu-bench: the trainer's speed on whatever device is here, measured with nothing but Python and
PyTorch (a GPU machine often has no Node.js and no network):

    PYTHONPATH=packages/engine/python python3 -m ownvoice_trainer gpu-bench [--tiny] [--runs N] [--model FILE]

It writes random-weight models of the default model's shapes (random_model.py), or with `--model`
takes a real GGUF model file in their place (any type gguf_reader.py decodes, e.g. SmolLM2-135M in
Q4_1), and prints, for each, the trainer's tokens/s against the plain PyTorch loop's on the same
batches (bench.py, one process per sample, trainer and plain alternating), as medians of N runs
with their range, the ratio of each interleaved pair, and peak memory; then the Voice preset's
train stage (voice_presets.json, generated from the engine's VOICE_PRESETS) on 29 and 160 random
pairs, from the trainer's start to its held-out loss; then whole Voices from 40,000 and 200,000
characters, stage by stage (voice_bench.py). Before any of it, it checks on this device that the
fused attention agrees with the hand-written one (attention.py) and that a packed row scores each
example as the plain forward pass does alone (loss.py). `--tiny` runs a tiny shape briefly, on the
CPU too, so CI proves the bench itself works; its figures mean nothing. `--tiny --model FILE` runs
those brief settings on the real model: a check, in minutes on a CPU, that the file loads and trains.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import torch

from .attention import run_attention_check
from .gguf_reader import GgufFile
from .loss import token_losses, unpacked_loss
from .model import Config, load_model, pick_device
from .random_model import SHAPES, write_random_llama
from .voice_bench import NEUTRAL, whole_voice

# bench-train: 20 steps of 4 x 1024 tokens, float32, the whole batch a pass; and the Voice
# preset's own batches on the default model: 4 pairs of 775 tokens, bfloat16 products, the
# trainer's passes sized by the device ("auto"). The Voice's train stage: the standard preset on the
# default model's shape, with 29 pairs (a 40,000-character upload) and 160 (200,000 characters or
# more), each pair a ~775-token example (prompt and passage), a tenth more held out as a Voice does.
# The whole Voice: the same on 29 and 160 passages of 375 tokens (voice_bench.py).
FULL = {"shapes": ["135m", "360m"], "steps": 20, "batch_size": 4, "seq_len": 1024,
        "preset_batches": {"shape": "360m", "steps": 20, "batch_size": 4, "seq_len": 775, "bf16": True,
                           "micro_batch_tokens": "auto"},
        "voice": {"shape": "360m", "preset": "standard", "pairs": [29, 160], "input": 400, "target": 375}}
TINY = {"shapes": ["tiny"], "steps": 3, "batch_size": 2, "seq_len": 32,
        "preset_batches": {"shape": "tiny", "steps": 3, "batch_size": 2, "seq_len": 24, "bf16": True,
                           "micro_batch_tokens": "auto"},
        "voice": {"shape": "tiny", "preset": "standard", "pairs": [4, 8], "input": 12, "target": 12}}
WHOLE_CHARS = {29: "40,000", 160: "200,000"}


def _trainer(args, **popen):
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    return subprocess.Popen([sys.executable, "-m", "ownvoice_trainer", *args], stdout=subprocess.PIPE, text=True,
                            env=env, **popen)


def _events(lines, command, stderr):
    """A command's events from its output lines, each with the time it arrived (`at`), up to its
    "done"; raises with the trainer's message where it failed."""
    events = []
    for line in lines:
        if line.startswith("{"):
            events.append({**json.loads(line), "at": time.perf_counter()})
            if events[-1]["event"] in ("done", "error"):
                break
    last = events[-1] if events else {"event": "error", "message": stderr().strip()[-500:]}
    if last.get("event") != "done":
        raise RuntimeError(f"{command} failed: {last.get('message')}")
    return events


def _run(command, request, workdir):
    """One trainer process for one command -> its events (_events)."""
    path = os.path.join(workdir, f"request-{command}.json")
    with open(path, "w") as f:
        json.dump(request, f)
    proc = _trainer([command, path], stderr=subprocess.PIPE)
    events = _events(proc.stdout, command, proc.stderr.read)
    proc.communicate()
    return events


class Serving:
    """One serving trainer (`serve`) for a whole Voice's stages, as the engine runs a Voice's
    paraphrases and training: started by the first command, whose time so includes its start;
    called as _run is."""

    def __init__(self, workdir):
        self.proc = None
        self.stderr_path = os.path.join(workdir, "serve.stderr")

    def __call__(self, command, request, _workdir=None):
        if self.proc is None:
            self.stderr = open(self.stderr_path, "w")
            self.proc = _trainer(["serve"], stdin=subprocess.PIPE, stderr=self.stderr)
        self.proc.stdin.write(json.dumps({"command": command, "request": request}) + "\n")
        self.proc.stdin.flush()
        return _events(self.proc.stdout, command, self._stderr)

    def _stderr(self):
        with open(self.stderr_path) as f:
            return f.read()

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
            self.stderr.close()


def _sample(request, workdir):
    """One bench-train process -> its done event."""
    return _run("bench-train", request, workdir)[-1]


def _pairs(path, n, voice, vocab, rng):
    with open(path, "w") as f:
        for _ in range(n):
            f.write(json.dumps({"input": [rng.randrange(vocab) for _ in range(voice["input"])],
                                "target": [rng.randrange(vocab) for _ in range(voice["target"])]}) + "\n")


def _voice_preset(name):
    """The Voice preset (voice_presets.json) -> (its trainer settings, the neutral paragraphs its
    evaluation rewrites: all when unset)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "voice_presets.json")) as f:
        preset = json.load(f)[name]
    paragraphs = preset.get("evaluation_paragraphs", NEUTRAL["count"])
    not_trainer = ("passage_max_chars", "max_passages", "evaluation_paragraphs")
    return {k: v for k, v in preset.items() if k not in not_trainer}, paragraphs


def train_stage(model, voice, pairs, runs, workdir, device, vocab):
    """The Voice preset's train stage (train, then the held-out loss) on `pairs` random pairs,
    `runs` times -> seconds from the trainer's start (model loaded) to done, tokens/s, peak MiB."""
    rng = random.Random(pairs)
    train, held = os.path.join(workdir, "train.jsonl"), os.path.join(workdir, "eval.jsonl")
    _pairs(train, pairs, voice, vocab, rng)
    _pairs(held, max(1, round(pairs / 10)), voice, vocab, rng)
    settings, _ = _voice_preset(voice["preset"])
    seconds, tps, peak = [], [], 0.0
    for run in range(runs):
        out = os.path.join(workdir, f"voice-{pairs}-{run}")
        events = _run("train", {"mode": "lora", "model": model, "train": train, "eval": held, "out_dir": out,
                                **settings, "seed": 0, "stop_when_eval_stops_improving": True,
                                "checkpoint_every": 10**9, "checkpoint_seconds": 10**9, "device": device}, workdir)
        start = next(e for e in events if e["event"] == "start")
        progress = [e for e in events if e["event"] == "progress"]
        seconds.append(events[-1]["at"] - start["at"])
        tps.append(progress[-1]["tokens_per_second"])
        peak = max(peak, events[-1].get("peak_mib", 0.0))
    return {"pairs": pairs, "seconds": seconds, "tps": tps, "peak_mib": peak}


def _spread(values):
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}–{max(values):,.0f})"


def bench_train(model, settings, runs, workdir, device):
    """Trainer and plain loop, alternating, `runs` each -> the figures of one shape."""
    samples = {"trainer": [], "plain": []}
    for _ in range(runs):
        for loop in ("trainer", "plain"):
            request = {"model": model, "loop": loop, "rank": 16, "device": device,
                       **{k: settings[k] for k in ("steps", "seq_len", "batch_size", "bf16", "micro_batch_tokens")
                          if k in settings}}
            samples[loop].append(_sample(request, workdir))
    tps = {loop: [s["tokens_per_second"] for s in samples[loop]] for loop in samples}
    ratios = [t / p for t, p in zip(tps["trainer"], tps["plain"])]
    return {
        "trainer_tps": tps["trainer"],
        "plain_tps": tps["plain"],
        "ratio": ratios,
        "trainer_peak_mib": max(s["peak_mib"] for s in samples["trainer"]),
        "plain_peak_mib": max(s["peak_mib"] for s in samples["plain"]),
        "device": samples["trainer"][0]["device"],
    }


def packed_check(model, device, vocab):
    """The largest relative difference, on this device, between each example's loss from a packed
    row (the Voice's training path) and from the plain forward pass on its own, in float32."""
    net = load_model(model, torch.device(device))
    rng = random.Random(7)
    examples = [([rng.randrange(vocab) for _ in range(n)], n_in) for n, n_in in ((37, 5), (64, 0), (9, 3), (120, 40))]
    with torch.no_grad():
        losses, counts = token_losses(net, examples)
        packed = [float(part.mean()) for part in losses.split(counts)]
        alone = [float(unpacked_loss(net, ex)) for ex in examples]
    return max(abs(a - b) / abs(b) for a, b in zip(packed, alone))


class Models:
    """The models the bench runs on, by the shape its settings name: a random-weight model of that
    shape, written into `workdir` when first asked for; or, with `--model`, the one real file for
    every shape, its name in the tables in place of the shape's."""

    def __init__(self, workdir, real=None):
        self.workdir, self.real = workdir, real
        if real:
            g = GgufFile(real)  # parses the header only: a file that is not a model fails here, not later
            self.real_vocab = Config.from_gguf(g).n_vocab
            self.real_eos = int(g.kv.get("tokenizer.ggml.eos_token_id", 0))

    def label(self, shape):
        return os.path.basename(self.real) if self.real else shape

    def path(self, shape):
        if self.real:
            return self.real
        path = os.path.join(self.workdir, f"random-{shape}.gguf")
        if not os.path.exists(path):
            write_random_llama(path, shape)
        return path

    def vocab(self, shape):
        return self.real_vocab if self.real else SHAPES[shape]["n_vocab"]

    def eos(self):
        """The token a Voice's training targets end with: the real model's own end token."""
        return self.real_eos if self.real else 0


def run_gpu_bench(args, emit=print):
    """Prints each table as soon as it is measured, so a run cut short still reports what it got;
    `--json PATH` also writes every sample there."""
    tiny = "--tiny" in args
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 3
    json_path = args[args.index("--json") + 1] if "--json" in args else None
    real = os.path.abspath(args[args.index("--model") + 1]) if "--model" in args else None
    settings = TINY if tiny else FULL
    device = str(pick_device(None))
    voice = settings["voice"]
    results = {"device": device, "runs": runs, **({"model": real} if real else {})}

    def save():
        if json_path:
            with open(json_path, "w") as f:
                json.dump(results, f, indent=1)

    with tempfile.TemporaryDirectory() as workdir:
        models = Models(workdir, real)
        # First the checks: figures from a path that computes the wrong thing mean nothing.
        checks = []
        for dtype in ("float32", "bfloat16"):
            run_attention_check({"device": device, "dtype": dtype}, lambda _event, **fields: checks.append(fields))
        for c in checks:
            emit(f"Attention on packed sequences, {c['fused']} SDPA vs one softmax per sequence ({c['device']}, "
                 f"{c['dtype'].replace('torch.', '')}): max difference {c['max_diff']:.1e}")
        first = settings["shapes"][0]
        results["packed_vs_alone"] = packed_check(models.path(first), device, models.vocab(first))
        emit(f"Packed rows vs each example alone ({device}, float32): largest relative loss difference "
             f"{results['packed_vs_alone']:.1e}")
        emit("")
        save()

        tokens = f"{settings['steps']} steps of {settings['batch_size']} x {settings['seq_len']} tokens"
        emit(f"gpu-bench on {device}: bench-train, {tokens}, trainer vs plain PyTorch loop, median (min–max) of {runs}")
        emit("| batches | trainer tok/s | plain tok/s | trainer / plain | peak MiB (trainer, plain) |")
        emit("|---|---|---|---|---|")
        results["bench_train"] = {}
        preset = settings["preset_batches"]
        # One real model stands for every shape: one row of the settings' own batches, not one a shape.
        shapes = settings["shapes"][:1] if real else settings["shapes"]
        rows = [(models.label(name), name, settings) for name in shapes]
        voice_batches = f"the Voice's ({preset['batch_size']} x {preset['seq_len']}, bf16)"
        rows.append((f"{models.label(preset['shape'])}, {voice_batches}", preset["shape"], preset))
        for label, shape_name, row_settings in rows:
            r = bench_train(models.path(shape_name), row_settings, runs, workdir, device)
            results["bench_train"][label] = r
            ratio = f"{statistics.median(r['ratio']):.2f}× ({min(r['ratio']):.2f}–{max(r['ratio']):.2f})"
            emit(f"| {label} | {_spread(r['trainer_tps'])} | {_spread(r['plain_tps'])} | {ratio} | "
                 f"{r['trainer_peak_mib']:,.0f}, {r['plain_peak_mib']:,.0f} |")
            save()
        emit("Target on one H100/H200: trainer / plain >= 0.9 on both kinds of batch.")
        emit("")

        model, vocab = models.path(voice["shape"]), models.vocab(voice["shape"])
        what = models.label(voice["shape"]) if real else f"{voice['shape']} shape"
        emit(f"The Voice's train stage ({voice['preset']} preset, {what}, "
             f"{voice['input'] + voice['target']}-token pairs, a tenth more held out), median (min–max) of {runs}")
        emit("| pairs | seconds | tok/s | peak MiB |")
        emit("|---|---|---|---|")
        results["train_stage"] = []
        for pairs in voice["pairs"]:
            st = train_stage(model, voice, pairs, runs, workdir, device, vocab)
            results["train_stage"].append(st)
            secs = f"{statistics.median(st['seconds']):.1f} ({min(st['seconds']):.1f}–{max(st['seconds']):.1f})"
            emit(f"| {st['pairs']} | {secs} | {_spread(st['tps'])} | {st['peak_mib']:,.0f} |")
            save()
        emit("Target on one H100/H200: 160 pairs at 360M in <= 15 s.")
        emit("")

        # Whole Voices, interleaved by size so that a slow spell of the machine touches both.
        wholes = {pairs: [] for pairs in voice["pairs"]}
        results["whole_voice"] = wholes
        for _ in range(runs):
            for pairs in voice["pairs"]:
                settings, paragraphs = _voice_preset(voice["preset"])
                serving = Serving(workdir)
                try:
                    wholes[pairs].append(whole_voice(serving, model, settings, pairs, voice["target"], workdir,
                                                     device, vocab, eos=models.eos(), paragraphs=paragraphs))
                finally:
                    serving.close()
                save()
    emit(f"A whole Voice ({voice['preset']} preset, {what}; its stages in one trainer process, "
         f"whose start and model load the pairs pay; every answer to its budget), seconds, median (min–max) of {runs}")
    emit("| characters | passages | pairs | train | evaluate | total | peak MiB |")
    emit("|---|---|---|---|---|---|---|")
    for pairs, samples in wholes.items():
        cells = []
        for stage in ("pairs", "train", "evaluate", "total"):
            values = [w["seconds"][stage] for w in samples]
            cells.append(f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})")
        chars = WHOLE_CHARS.get(pairs, "-") if not tiny else "-"
        emit(f"| {chars} | {pairs} | {' | '.join(cells)} | {max(w['peak_mib'] for w in samples):,.0f} |")
    emit("Targets on one H100/H200 at 360M: 40,000 characters <= 60 s, 200,000 characters <= 180 s.")
    return results
