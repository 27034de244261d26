"""bench-train: one sample of LoRA training throughput, from the trainer or from the plain loop.

request: model, loop ("trainer" or "plain"), steps, seq_len, batch_size, rank, bf16? (matrix
products in bfloat16 under autocast, in both loops: true, false, or "auto" as training's
mixed_precision takes it), micro_batch_tokens? (the trainer's). Both loops train
rank-r LoRA on every projection of the same GGUF model, on the same random token batches, in the
same order. The trainer runs through its real entry point (run_train, with its bookkeeping) in
one process, as the plain loop does (no data-parallel helper: a sample is one loop's pace); the
plain loop is plain_lora.py, the textbook loop on an independent torch.nn model. One loop per
process, so the caller can alternate them (trainer, plain, trainer, plain...) and each process's
peak memory is that loop's own.

Reports tokens/s over steps 2..N (the first step warms allocators and threads up; both loops are
timed from the end of step 1 to the end of step N, each step ending on reading its loss) and
peak memory: resident set of the process on the CPU, allocated memory on CUDA; and whether the
products ran in bfloat16.
"""
import os
import tempfile
import time

import torch

from . import plain_lora
from .gguf_reader import GgufFile
from .model import LORA_TARGETS, peak_mib, pick_device
from .precision import takes_bf16
from .train import run_train

SEED = 0


def _bf16(request):
    """The request's bf16 as training's mixed_precision: true, false or "auto"."""
    bf16 = request.get("bf16", False)
    return bf16 if bf16 == "auto" else bool(bf16)


def _trainer(request, tokens, batch, rank, step_ends):
    """Runs the trainer on the sequences; step_ends gets the time each step ended. -> (trainable
    count, whether its products ran in bfloat16)."""
    steps = tokens.shape[0] // batch
    started = {}
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "train.jsonl")
        with open(data, "w") as f:
            for row in tokens.tolist():
                f.write('{"input": [], "target": %s}\n' % row)

        def on_event(event, **fields):
            if event == "progress":  # emitted once the step's loss has been read
                step_ends.append(time.time())
            elif event == "start":
                started.update(fields)

        run_train({"mode": "lora", "model": request["model"], "train": data, "out_dir": d, "rank": rank,
                   "alpha": 2 * rank, "targets": list(LORA_TARGETS), "seq_len": tokens.shape[1], "batch_size": batch,
                   "max_steps": steps, "epochs": 1, "seed": SEED, "checkpoint_every": 10**9,
                   "checkpoint_seconds": 10**9, "device": request.get("device"),
                   "grad_checkpointing": bool(request.get("grad_checkpointing", False)),
                   "mixed_precision": _bf16(request), "processes": 1,
                   "micro_batch_tokens": request.get("micro_batch_tokens")}, on_event)
    return started.get("trainable"), bool(started.get("bf16"))


def _plain(request, tokens, batch, rank, step_ends, device):
    model = plain_lora.load_llama(GgufFile(request["model"]), device)
    params = plain_lora.add_lora(model, rank, 2 * rank)
    # The trainer's order of the sequences in its first epoch (train.py shuffles with seed*1000 + epoch),
    # so both loops see the same batches.
    order = torch.randperm(tokens.shape[0], generator=torch.Generator().manual_seed(SEED * 1000))
    batches = [tokens[order[s * batch : (s + 1) * batch]].to(device) for s in range(tokens.shape[0] // batch)]
    bf16 = takes_bf16(device, _bf16(request))
    with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bf16):
        plain_lora.train(model, batches, params, on_step=lambda step, loss: step_ends.append(time.time()))
    return sum(p.numel() for p in params), bf16


def run_bench_train(request, emit):
    loop = request.get("loop")
    if loop not in ("trainer", "plain"):
        raise ValueError('bench-train needs "loop": "trainer" or "plain"')
    steps, seq, batch = int(request["steps"]), int(request["seq_len"]), int(request["batch_size"])
    if steps < 2:
        raise ValueError("bench-train needs at least 2 steps: the first is not timed")
    rank = int(request.get("rank", 16))
    device = pick_device(request.get("device"))
    vocab = len(GgufFile(request["model"]).kv["tokenizer.ggml.tokens"])
    tokens = torch.randint(0, vocab, (steps * batch, seq), generator=torch.Generator().manual_seed(SEED))  # (N, T)

    step_ends = []
    if loop == "trainer":
        trainable, bf16 = _trainer(request, tokens, batch, rank, step_ends)
    else:
        trainable, bf16 = _plain(request, tokens, batch, rank, step_ends, device)
    if len(step_ends) != steps:
        raise RuntimeError(f"expected {steps} steps, timed {len(step_ends)}")
    tps = (steps - 1) * batch * seq / (step_ends[-1] - step_ends[0])
    emit("done", loop=loop, tokens_per_second=tps, peak_mib=peak_mib(device), steps=steps,
         trainable=trainable, bf16=bf16, threads=torch.get_num_threads(), device=str(device))
