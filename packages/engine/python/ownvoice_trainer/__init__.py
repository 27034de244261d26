"""OwnVoice's LoRA trainer: PyTorch, run as a child process by packages/engine."""
