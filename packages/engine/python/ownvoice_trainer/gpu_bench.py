"""gpu-bench: the trainer's speed on whatever device is here, measured with nothing but Python and
PyTorch (a GPU machine often has no Node.js and no network):

    PYTHONPATH=packages/engine/python python3 -m ownvoice_trainer gpu-bench [--tiny] [--runs N]

It writes random-weight models of the default model's shapes (random_model.py) and prints, for
each, the trainer's tokens/s against the plain PyTorch loop's on the same batches (bench.py, one
process per sample, trainer and plain alternating), as medians of N runs with their range, the
ratio of each interleaved pair, and peak memory; then checks that the fused attention agrees with
the hand-written one on this device (attention.py). `--tiny` runs a tiny shape briefly, on the CPU
too, so CI proves the bench itself works; its figures mean nothing.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

from .attention import run_attention_check
from .model import pick_device
from .random_model import write_random_llama

# The bench-train shape of the table: 20 steps of 4 x 1024 tokens.
FULL = {"shapes": ["135m", "360m"], "steps": 20, "batch_size": 4, "seq_len": 1024}
TINY = {"shapes": ["tiny"], "steps": 3, "batch_size": 2, "seq_len": 32}


def _sample(request, workdir):
    """One bench-train process -> its done event."""
    path = os.path.join(workdir, f"request-{request['loop']}.json")
    with open(path, "w") as f:
        json.dump(request, f)
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    out = subprocess.run([sys.executable, "-m", "ownvoice_trainer", "bench-train", path],
                         capture_output=True, text=True, env=env, check=False)
    events = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    last = events[-1] if events else {"event": "error", "message": out.stderr.strip()[-500:]}
    if last.get("event") != "done":
        raise RuntimeError(f"bench-train ({request['loop']}) failed: {last.get('message')}")
    return last


def _spread(values):
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}–{max(values):,.0f})"


def bench_train(model, settings, runs, workdir, device):
    """Trainer and plain loop, alternating, `runs` each -> the figures of one shape."""
    samples = {"trainer": [], "plain": []}
    for _ in range(runs):
        for loop in ("trainer", "plain"):
            request = {"model": model, "loop": loop, "steps": settings["steps"], "seq_len": settings["seq_len"],
                       "batch_size": settings["batch_size"], "rank": 16, "device": device}
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


def run_gpu_bench(args, emit=print):
    tiny = "--tiny" in args
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 3
    settings = TINY if tiny else FULL
    device = str(pick_device(None))
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for shape in settings["shapes"]:
            model = os.path.join(workdir, f"random-{shape}.gguf")
            write_random_llama(model, shape)
            rows.append((shape, bench_train(model, settings, runs, workdir, device)))
            os.remove(model)
    tokens = f"{settings['steps']} steps of {settings['batch_size']} x {settings['seq_len']} tokens"
    emit(f"gpu-bench on {device}: bench-train, {tokens}, trainer vs plain PyTorch loop, median (min–max) of {runs}")
    emit("| shape | trainer tok/s | plain tok/s | trainer / plain | peak MiB (trainer, plain) |")
    emit("|---|---|---|---|---|")
    for shape, r in rows:
        ratio = f"{statistics.median(r['ratio']):.2f}× ({min(r['ratio']):.2f}–{max(r['ratio']):.2f})"
        emit(f"| {shape} | {_spread(r['trainer_tps'])} | {_spread(r['plain_tps'])} | {ratio} | "
             f"{r['trainer_peak_mib']:,.0f}, {r['plain_peak_mib']:,.0f} |")
    emit("Target on one H100/H200: trainer / plain >= 0.9.")
    # The fused attention must give what the hand-written one gives, on this device and torch.
    checks = []
    run_attention_check({"device": device, "dtype": "float32"}, lambda _event, **fields: checks.append(fields))
    c = checks[0]
    emit(f"Attention on packed sequences, {c['fused']} SDPA vs one softmax per sequence ({c['device']}, float32): "
         f"max difference {c['max_diff']:.1e}")
    return rows
