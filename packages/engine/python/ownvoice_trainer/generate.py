"""generate: the generate command, greedy answers to token prompts (trainer/generate.ts): decoded
in this process (decode.py), or on a CPU in bfloat16 shared out over processes of one thread each
(generate_parallel.py). It sits above both, so neither imports the other's caller.
"""
import time

import torch

from .decode import column_settings, decoding_model, greedy_batch
from .generate_parallel import decode_shared, generation_processes
from .model import model_reads, peak_mib, pick_device
from .precision import generation_bf16

PROGRESS_SECONDS = 1.0  # the least time between two "decoding" events


def run_generate(request, emit):
    """request: model, adapter?, prompts [[ids]], max_new [n], stop_ids [ids], device?, batch_size?,
    mixed_precision? (true, false or "auto"; generation_bf16), processes? ("auto" or a count;
    generate_parallel), available_mib?, prefill_columns? (decode.PREFILL_COLUMNS),
    cache_columns? (decode.CACHE_COLUMNS) -> "start" {bf16, model_reads (model.model_reads)},
    "processes" where more than one was considered, "answer" {index, tokens} as each ends,
    "decoding" {done, total} (greedy_batch's on_progress, over all processes) at most every
    PROGRESS_SECONDS and at the end, then "done" {outputs, tokens_per_second, peak_mib}."""
    device = pick_device(request.get("device"))
    bf16 = generation_bf16(device, request.get("mixed_precision"))
    model = decoding_model(request, device, bf16)
    emit("start", bf16=bf16, device=device.type, model_reads=model_reads())
    start = last = time.time()

    def decoding(done, total):
        nonlocal last
        now = time.time()
        if done == total or now - last >= PROGRESS_SECONDS:
            last = now
            emit("decoding", done=done, total=total)

    def answer(i, ids):
        emit("answer", index=i, tokens=ids)

    threads = torch.get_num_threads()
    count = generation_processes(request.get("processes"), device, bf16, threads)
    shared = decode_shared(model, request, bf16, count, threads, answer, decoding, emit) if count > 1 else None
    if shared:
        outputs, peak = shared
    else:
        outputs = greedy_batch(model, request["prompts"], request["max_new"], request.get("stop_ids", []),
                               on_done=answer, batch_size=request.get("batch_size"), bf16=bf16,
                               on_progress=decoding, **column_settings(request))
        peak = peak_mib(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    seconds = time.time() - start
    tokens = sum(len(o) for o in outputs)
    # peak_mib: of all the processes that decoded, together.
    emit("done", outputs=outputs, tokens=tokens, seconds=round(seconds, 3),
         tokens_per_second=round(tokens / max(seconds, 1e-9), 1), peak_mib=round(peak, 1))
