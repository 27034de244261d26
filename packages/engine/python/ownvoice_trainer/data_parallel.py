"""data_parallel: a LoRA step's passes shared out over processes on the CPU.

On two CPU cores, one pass on two torch threads has its threads meet after each of its thousands
of operations, and under OpenMP's passive wait (__main__.py) each meeting wakes a sleeping
thread. Two processes of one thread each, each taking about half of a step's tokens, meet once,
at the step's end. On two cores with bfloat16 products, two such processes did a 776-token pass
each in 4.8-6.3 s side by side, against 3.0-4.9 s for one pass on two threads (the pass alone).

The helpers start after a run's first step, which the trainer takes alone, and only if as much
memory as that step's peak is free for each (a helper holds a model and a pass of its own). A
helper is a process of its own (spawned: it shares no OpenMP or allocator state with its parent)
that loads the same GGUF model and attaches a LoRA of the same shape. Its LoRA weights
are views of one shared float32 vector that the main process writes before every step, so it
always computes with the current weights. For each step it is sent its micro-batches and the
step's target count, runs the same accumulate_gradients (loss.py, under the same autocast) and
leaves its summed gradient in a shared vector of its own. The main process adds the helpers'
gradients to its own in helper order, so a run is reproducible for a given number of processes;
against one process, only the order of the sums differs (the last bits of float32).
"""
import signal
import traceback

import torch
import torch.multiprocessing as mp

from . import lora
from .allocator import keep_freed_memory
from .loss import accumulate_gradients
from .model import load_model, peak_mib


def flatten_into(out, tensors):
    """Writes the tensors end to end into the 1-D tensor out: (sum of numel,)."""
    torch.cat([t.detach().reshape(-1) for t in tensors], out=out)


def views_of(flat, like):
    """Views of the 1-D tensor flat shaped as each tensor of like, in order."""
    out, offset = [], 0
    for t in like:
        n = t.numel()
        out.append(flat[offset : offset + n].view_as(t))
        offset += n
    return out


def split_step(parts, n):
    """A step's micro-batches shared out over n processes (the first is the trainer's): longest
    first, each to the process with the fewest tokens so far (ties to the first), so the processes
    end their passes close together, and the longest goes to the trainer itself. -> n lists, each
    in parts' order: the same split, and so the same sums, every run. On the bench's 29 examples
    (539-837 tokens, two processes) the step's slower process has 2.5% fewer tokens to pass than
    with micro-batch i to process i % 2."""
    sizes = [sum(len(ids) for ids, _ in part) for part in parts]
    loads, shares = [0] * n, [[] for _ in range(n)]
    for i in sorted(range(len(parts)), key=lambda i: -sizes[i]):
        j = loads.index(min(loads))
        shares[j].append(i)
        loads[j] += sizes[i]
    return [[parts[i] for i in sorted(share)] for share in shares]


class Helpers:
    """Helper processes for a LoRA run on the CPU; use start, then finish, once a step."""

    def __init__(self, count, threads, params, model_path, lora_config, bf16, checkpointing):
        context = mp.get_context("spawn")
        numel = sum(p.numel() for p in params)
        self.weights = torch.zeros(numel).share_memory_()
        self.grads = [torch.zeros(numel).share_memory_() for _ in range(count)]
        self.connections, self.processes = [], []
        for grads in self.grads:
            ours, theirs = context.Pipe()
            process = context.Process(
                target=_serve,
                args=(theirs, model_path, lora_config, threads, bf16, checkpointing, self.weights, grads),
                daemon=True,  # never outlives the trainer
            )
            process.start()
            theirs.close()
            self.connections.append(ours)
            self.processes.append(process)

    def start(self, params, parts, count):
        """Hands each helper its micro-batches (parts[i] to helper i), with the current weights."""
        flatten_into(self.weights, params)
        for connection, mine in zip(self.connections, parts):
            connection.send(("pass", mine, count))

    def finish(self, params):
        """Waits for every helper, adds its gradient to params' .grad, -> their summed loss / count."""
        loss = 0.0
        for connection, grads in zip(self.connections, self.grads):
            try:
                answer = connection.recv()
            except EOFError:
                raise RuntimeError("a training helper process ended unexpectedly") from None
            if answer[0] == "error":
                raise RuntimeError(f"a training helper failed: {answer[1]}\n{answer[2]}")
            loss += answer[1]
            for p, g in zip(params, views_of(grads, params)):
                if p.grad is None:
                    p.grad = g.clone()
                else:
                    p.grad += g
        return loss

    def close(self):
        for connection in self.connections:
            try:
                connection.send(("stop",))
            except (BrokenPipeError, OSError):
                pass
            connection.close()
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


def _serve(connection, model_path, lora_config, threads, bf16, checkpointing, weights, grads):
    """A helper's life: load the model, then run the passes it is sent until told to stop."""
    # The trainer's own signals are for it alone: it finishes the step (whose other half is run
    # here), saves and tells this process to stop; it also stops when the trainer's end of the
    # pipe closes, however the trainer ended.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    keep_freed_memory()
    torch.set_num_threads(threads)
    try:
        model = load_model(model_path, torch.device("cpu"))
        lora.attach(model, lora_config["rank"], lora_config["alpha"], lora_config["targets"])
        params = lora.parameters(model)
        # The weights the main process writes before each step, seen here without a copy.
        for p, shared in zip(params, views_of(weights, params)):
            p.data = shared
        model.checkpointing = checkpointing
        model.train()
    except Exception as e:  # told at the first step, with the rest of the run's errors
        failed = (f"{type(e).__name__}: {e}", traceback.format_exc())
    else:
        failed = None
    while True:
        try:
            message = connection.recv()
        except EOFError:  # the trainer is gone
            return
        if message[0] == "stop":
            return
        if failed:
            connection.send(("error", *failed))
            continue
        _, parts, count = message
        try:
            model.zero_grad(set_to_none=True)
            loss = accumulate_gradients(model, parts, count, bf16)
            flatten_into(grads, [p.grad if p.grad is not None else torch.zeros_like(p) for p in params])
            connection.send(("done", float(loss)))
        except Exception as e:
            connection.send(("error", f"{type(e).__name__}: {e}", traceback.format_exc()))


def available_mib():
    """Memory the system can give without swapping (Linux's MemAvailable), in MiB; None if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def start_helpers(processes, threads, params, cfg, bf16, checkpointing, emit):
    """Helpers for a run whose first step is done, if the memory for them is free: each needs
    about what the trainer's own peak has been, and a quarter more is kept free. -> Helpers or None,
    told in a "processes" event either way."""
    count = processes - 1
    need = peak_mib(torch.device("cpu")) * count
    free = cfg.get("available_mib") or available_mib()
    if free is None or free < 1.25 * need:
        emit("processes", processes=1, reason=f"{need:.0f} MiB more needed, {free or 0:.0f} MiB available")
        return None
    helpers = Helpers(count, max(threads // processes, 1), params, cfg["model"],
                      {k: cfg[k] for k in ("rank", "alpha", "targets")}, bf16, checkpointing)
    emit("processes", processes=processes, helper_pids=[p.pid for p in helpers.processes])
    return helpers


def processes_for(setting, device, mode, bf16, threads):
    """How many processes share a step: an int as asked; "auto": two on a CPU of at least two
    threads training a LoRA with bfloat16 products (where it was measured to pay), else one."""
    if setting == "auto":
        return 2 if device.type == "cpu" and mode == "lora" and bf16 and threads >= 2 else 1
    count = int(setting or 1)
    if count > 1 and (device.type != "cpu" or mode != "lora"):
        raise ValueError("processes > 1 is for LoRA training on the CPU")
    return max(count, 1)
