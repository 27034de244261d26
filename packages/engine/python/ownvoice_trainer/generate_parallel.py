"""generate_parallel: a CPU's greedy decoding (decode.py) shared out over processes of one
thread each.

A decoding step is hundreds of small operations, and on two torch threads under OpenMP's passive
wait (__main__.py) the threads meet, and one is woken, after each of them. Two processes of one
thread each, each decoding half of the prompts, never meet. A Voice's pairs (32 passages of
313-469 prompt tokens, 260-432 tokens of answer each, 135M's shape, bfloat16) took 102.2 and
96.8 s so, against 114.3 and 117.3 s in one process of two threads, interleaved on two cores.

The prompts are sorted by length and dealt out in turn, so each process gets the same mix of
lengths and budgets. A helper is spawned (no OpenMP or allocator state from its parent), loads
the same model (and adapter) and decodes its share as greedy_batch would, sending each answer and
its progress over a pipe; the main process decodes its own share and passes the helper's events
on as its own. A prompt's answer depends only on the prompts that share its batch, so a run is
reproducible for a given number of processes; against one process, bfloat16's near-ties can tip
the other way (as between any two batch sizes).

A helper holds a model and a cache of its own, so one starts only if that much memory is free
with a quarter to spare (Linux's MemAvailable, or `available_mib` in the request); otherwise the
main process decodes every prompt, and a "processes" event says why. A helper ends with its share,
or when the main process's end of its pipe closes, however that process ended.
"""
import multiprocessing.connection
import traceback

import torch
import torch.multiprocessing as mp

from .allocator import keep_freed_memory
from .data_parallel import available_mib
from .decode import by_length, column_settings, decoding_model, greedy_batch, plan_chunks
from .model import peak_mib


def generation_processes(setting, device, bf16, threads):
    """How many processes decode a request's prompts: an int as asked; "auto" (or None): two on a
    CPU of at least two threads decoding in bfloat16 (where it was measured to pay), else one."""
    if setting in (None, "auto"):
        return 2 if device.type == "cpu" and bf16 and threads >= 2 else 1
    count = int(setting)
    if count > 1 and device.type != "cpu":
        raise ValueError("processes > 1 is for decoding on the CPU")
    return max(count, 1)


def shares(prompts, max_new, count):
    """Prompt indices (those with a budget) for each of count processes: by length, dealt in turn."""
    order = by_length(prompts, max_new)
    return [part for part in (order[k::count] for k in range(count)) if part]


def share_mib(cfg, prompts, max_new, batch_size, bf16, columns):
    """The memory a share's decoding adds to a loaded model, in MiB: the largest of its batches'
    KV caches (B rows, prompt and answer columns) and the scores of one block of prompt columns."""
    chunks, largest = plan_chunks(prompts, max_new, batch_size)
    size = 2 if bf16 else 4
    most = 0
    for chunk, budget in zip(chunks, largest):
        B, T = len(chunk), max(len(prompts[i]) for i in chunk)
        cache = 2 * cfg.n_layer * B * cfg.n_head_kv * (T + budget) * cfg.head_dim * size
        scores = B * cfg.n_head * min(T, columns) * T * 4
        most = max(most, cache + scores)
    return most / 2**20


def decode_shared(model, request, bf16, count, threads, on_done, on_progress, emit):
    """greedy_batch's outputs for the request's prompts, decoded by `count` processes of
    threads // count threads; None (after a "processes" event saying why) where the memory for
    the helpers is not free."""
    prompts, max_new = request["prompts"], request["max_new"]
    parts = shares(prompts, max_new, count)
    if len(parts) < 2:
        return None
    batch_size, settings = request.get("batch_size"), column_settings(request)

    def pick(part):
        """The prompts and budgets of these indices."""
        return [prompts[i] for i in part], [max_new[i] for i in part]

    # Each helper: a model as loaded here (this process's peak so far), and its share's decoding.
    loaded = peak_mib(torch.device("cpu"))
    need = sum(loaded + share_mib(model.cfg, *pick(part), batch_size, bf16, settings["prefill_columns"]) for part in parts[1:])
    free = request.get("available_mib") or available_mib()
    if free is None or free < 1.25 * need:
        emit("processes", processes=1, reason=f"{need:.0f} MiB more needed, {free or 0:.0f} MiB available")
        return None
    each = max(threads // len(parts), 1)
    context = mp.get_context("spawn")
    helpers = []
    for part in parts[1:]:
        ours, theirs = context.Pipe()
        sub_prompts, sub_max_new = pick(part)
        sub = {**request, "prompts": sub_prompts, "max_new": sub_max_new}
        process = context.Process(target=_serve, args=(theirs, sub, bf16, each), daemon=True)
        process.start()
        theirs.close()
        helpers.append({"connection": ours, "process": process, "indices": part, "done": 0,
                        "total": sum(plan_chunks(sub_prompts, sub_max_new, batch_size)[1]),
                        "ended": False, "peak": 0.0})
    emit("processes", processes=len(parts), helper_pids=[h["process"].pid for h in helpers])
    torch.set_num_threads(each)
    outputs = [[] for _ in prompts]
    own = {"done": 0, "total": 0}

    def report():
        done = own["done"] + sum(h["done"] for h in helpers)
        on_progress(done, own["total"] + sum(h["total"] for h in helpers))

    def receive(helper):
        kind, *fields = helper["connection"].recv()
        if kind == "answer":
            i = helper["indices"][fields[0]]
            outputs[i] = fields[1]
            on_done(i, fields[1])
        elif kind == "decoding":
            helper["done"] = fields[0]
            report()
        elif kind == "done":
            helper["ended"], helper["peak"] = True, fields[0]
        else:
            raise RuntimeError(f"a decoding helper failed: {fields[0]}\n{fields[1]}")

    def drain():
        for helper in helpers:
            while not helper["ended"] and helper["connection"].poll():
                receive(helper)

    def own_progress(done, total):
        own["done"], own["total"] = done, total
        drain()
        report()

    # This process's share, and the prompts with no budget, which greedy_batch answers at once.
    mine = parts[0] + [i for i, n in enumerate(max_new) if n <= 0]
    try:
        ids = greedy_batch(model, *pick(mine), request.get("stop_ids", []),
                           on_done=lambda j, answer: on_done(mine[j], answer), batch_size=batch_size,
                           bf16=bf16, on_progress=own_progress, **settings)
        for i, answer in zip(mine, ids):
            outputs[i] = answer
        while not all(h["ended"] for h in helpers):
            waiting = [h for h in helpers if not h["ended"]]
            ready = multiprocessing.connection.wait([h["connection"] for h in waiting])
            for helper in waiting:
                if helper["connection"] in ready:
                    receive(helper)
    except EOFError:
        raise RuntimeError("a decoding helper stopped before its answers were done") from None
    finally:
        for helper in helpers:
            helper["connection"].close()
            helper["process"].join(timeout=5)
            if helper["process"].is_alive():
                helper["process"].kill()
    torch.set_num_threads(threads)
    return outputs, peak_mib(torch.device("cpu")) + sum(h["peak"] for h in helpers)


def _serve(connection, request, bf16, threads):
    """A helper's life: load the model (and adapter), decode its share, send each answer and its
    progress as they come, then "done" with its peak memory; "error" if any of it fails."""
    keep_freed_memory()
    torch.set_num_threads(threads)
    try:
        device = torch.device("cpu")
        model = decoding_model(request, device, bf16)
        # Progress at every token: a send that fails (the main process is gone) ends the helper.
        greedy_batch(model, request["prompts"], request["max_new"], request.get("stop_ids", []),
                     on_done=lambda i, ids: connection.send(("answer", i, ids)),
                     batch_size=request.get("batch_size"), bf16=bf16,
                     on_progress=lambda done, total: connection.send(("decoding", done, total)),
                     **column_settings(request))
        connection.send(("done", peak_mib(device)))
    except (BrokenPipeError, EOFError):
        return
    except Exception as e:
        try:
            connection.send(("error", f"{type(e).__name__}: {e}", traceback.format_exc()))
        except (BrokenPipeError, EOFError):
            pass
