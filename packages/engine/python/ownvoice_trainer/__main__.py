"""Command line of the trainer. The TypeScript engine runs it as a child process:

    python -m ownvoice_trainer serve                       (what the engine runs; see serve below)
    python -m ownvoice_trainer <command> <request.json>    (one command, then exit)

A command reports on stdout as JSON lines ({"event": ...}); its last line is "done" or "error".
Commands:
    forward   logits of a model (optionally with a LoRA adapter) for token sequences
    train     LoRA fine-tuning, or full training of a small model (see train.py)
    peft-forward  logits of the base model in Hugging Face layout with a PEFT adapter applied
    eval      held-out loss and perplexity of a model, with or without an adapter (evaluation.py)
    generate  greedy answers to token prompts, decoded as one batch with a KV cache (generate.py,
              decode.py; on a CPU in bfloat16 shared out over two processes, generate_parallel.py)
    bench-train   one sample of training tokens/s, of the trainer or of the plain PyTorch loop (bench.py)
    plain-logits  as forward, from the plain loop's independent model (plain_lora.py)
    attention-check  the fused attention path (SDPA, or its documented reference) against the
                  hand-written one on packed sequences (attention.py)
    random-model  a random-weight llama GGUF of a real model's shape (random_model.py), for timing
    similarity  how alike in meaning pairs of texts are: the cosine of their embeddings by the
              sentence-embedding model all-MiniLM-L6-v2 (similarity.py, sentence_encoder.py)
    gpu-bench [--tiny] [--runs N] [--model FILE]  the trainer's speed on this machine's device, printed as a table
                  (gpu_bench.py); takes flags, not a request file
"""
import json
import os
import sys
import traceback

from .allocator import keep_freed_memory

# OpenMP's threads sleep when they run out of work instead of spinning. Read once, when torch loads
# its OpenMP runtime, so it is set before torch is imported. The trainer shares its cores with the
# service and llama.cpp: spinning threads then wait on each other's time slices, and one training
# step of the 135M shape took 82 s instead of 26 s on two busy cores. How work is split does not
# change, so results are the same to the bit.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def emit(event, **fields):
    sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
    sys.stdout.flush()


# The commands a request may name; command_function has each one's function.
COMMANDS = (
    "forward",
    "peft-forward",
    "eval",
    "generate",
    "bench-train",
    "plain-logits",
    "attention-check",
    "random-model",
    "train",
    "similarity",
)


def command_function(command):
    """The function that runs `command`, taking (request, emit) and ending with a "done" or "error"
    event. Imported only when asked for, since each module loads torch: a usage error answers fast."""
    match command:
        case "forward":
            from .forward import run_forward

            return run_forward
        case "peft-forward":
            from .hf_reference import run_peft_forward

            return run_peft_forward
        case "eval":
            from .evaluation import run_eval

            return run_eval
        case "generate":
            from .generate import run_generate

            return run_generate
        case "bench-train":
            from .bench import run_bench_train

            return run_bench_train
        case "plain-logits":
            from .plain_lora import run_plain_logits

            return run_plain_logits
        case "attention-check":
            from .attention import run_attention_check

            return run_attention_check
        case "random-model":
            from .random_model import run_random_model

            return run_random_model
        case "train":
            from .train import run_train

            return run_train
        case "similarity":
            from .similarity import run_similarity

            return run_similarity
    raise ValueError(f"unknown command {command}")


def run_command(command, request):
    if command not in COMMANDS:
        raise ValueError(f"unknown command {command}")
    import torch  # imported late so usage errors answer fast

    torch.set_num_threads(int(request.get("threads") or os.cpu_count() or 1))
    command_function(command)(request, emit)


def serve():
    """serve: commands one after another, each a line {"command", "request"} on stdin, each answered
    as a one-shot command is, until stdin ends. The model read last stays loaded (model.load_model),
    and so, on a GPU, do PyTorch's CUDA context and kernels: a Voice's paraphrases and its training
    then start once. A command that fails answers "error" and the next one still runs."""
    import torch

    from .model import keep_loaded

    keep_loaded()
    for line in iter(sys.stdin.readline, ""):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            run_command(message["command"], message["request"])
        except Exception as e:
            emit("error", message=f"{type(e).__name__}: {e}", trace=traceback.format_exc())
        if torch.cuda.is_available():
            # What the command's tensors held goes back to the device, so that the next command's
            # measure of free memory (train.micro_batch_budget) sees it.
            torch.cuda.empty_cache()
    return 0


def main(argv):
    keep_freed_memory()  # before torch allocates anything
    if argv[:1] == ["gpu-bench"]:
        from .gpu_bench import run_gpu_bench

        run_gpu_bench(argv[1:])
        return 0
    if argv == ["serve"]:
        return serve()
    if len(argv) != 2:
        emit("error", message="usage: python -m ownvoice_trainer <command> <request.json> | serve | gpu-bench")
        return 2
    command, request_path = argv
    if command not in COMMANDS:
        emit("error", message=f"unknown command {command}")
        return 2
    with open(request_path) as f:
        request = json.load(f)
    run_command(command, request)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Exception as e:  # report, then fail: the caller shows the message
        emit("error", message=f"{type(e).__name__}: {e}", trace=traceback.format_exc())
        sys.exit(1)
