"""Command line of the trainer. The TypeScript engine runs it as a child process:

    python -m ownvoice_trainer <command> <request.json>

It reports on stdout as JSON lines ({"event": ...}); the last line is "done" or "error".
Commands:
    forward   logits of a model (optionally with a LoRA adapter) for token sequences
    train     LoRA fine-tuning, or full training of a small model (see train.py)
    peft-forward  logits of the base model in Hugging Face layout with a PEFT adapter applied
    eval      held-out loss and perplexity of a model, with or without an adapter
    generate  greedy answers to token prompts, decoded as one batch with a KV cache (generate.py;
              on a CPU in bfloat16 shared out over two processes, generate_parallel.py)
    bench-train   one sample of training tokens/s, of the trainer or of the plain PyTorch loop (bench.py)
    plain-logits  as forward, from the plain loop's independent model (plain_lora.py)
    attention-check  the fused attention path (SDPA, or its documented reference) against the
                  hand-written one on packed sequences (attention.py)
    random-model  a random-weight llama GGUF of a real model's shape (random_model.py), for timing
    gpu-bench [--tiny] [--runs N]  the trainer's speed on this machine's device, printed as a table
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


def main(argv):
    keep_freed_memory()  # before torch allocates anything
    if argv[:1] == ["gpu-bench"]:
        from .gpu_bench import run_gpu_bench

        run_gpu_bench(argv[1:])
        return 0
    if len(argv) != 2:
        emit("error", message="usage: python -m ownvoice_trainer <command> <request.json>")
        return 2
    command, request_path = argv
    with open(request_path) as f:
        request = json.load(f)
    import torch  # imported late so usage errors answer fast

    torch.set_num_threads(int(request.get("threads") or os.cpu_count() or 1))
    if command == "forward":
        from .forward import run_forward

        run_forward(request, emit)
    elif command == "peft-forward":
        from .hf_reference import run_peft_forward

        run_peft_forward(request, emit)
    elif command == "eval":
        from .train import run_eval

        run_eval(request, emit)
    elif command == "generate":
        from .generate import run_generate

        run_generate(request, emit)
    elif command == "bench-train":
        from .bench import run_bench_train

        run_bench_train(request, emit)
    elif command == "plain-logits":
        from .plain_lora import run_plain_logits

        run_plain_logits(request, emit)
    elif command == "attention-check":
        from .attention import run_attention_check

        run_attention_check(request, emit)
    elif command == "random-model":
        from .random_model import run_random_model

        run_random_model(request, emit)
    elif command == "train":
        from .train import run_train

        run_train(request, emit)
    else:
        emit("error", message=f"unknown command {command}")
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Exception as e:  # report, then fail: the caller shows the message
        emit("error", message=f"{type(e).__name__}: {e}", trace=traceback.format_exc())
        sys.exit(1)
