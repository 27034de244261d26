// Generations under way and how finished ones ended, served at GET /metrics in Prometheus text
// under vLLM's own metric names (vllm:num_requests_running, vllm:request_success_total by
// finished_reason), so whatever watches an endpoint's load (placement, the contract tests that
// check a client's hang-up stopped its generation) reads our server and vLLM alike.

export type FinishedReason = 'stop' | 'length' | 'abort';

export class GenerationMetrics {
  private running = 0;
  private readonly finished: Record<FinishedReason, number> = { stop: 0, length: 0, abort: 0 };

  constructor(private readonly modelName: string) {}

  get runningCount(): number {
    return this.running;
  }

  /** Counts a generation from its start until `done` is called with how it ended (once). */
  start(): (reason: FinishedReason) => void {
    this.running++;
    let ended = false;
    return (reason) => {
      if (ended) return;
      ended = true;
      this.running--;
      this.finished[reason]++;
    };
  }

  prometheus(): string {
    const labels = `engine="0",model_name=${JSON.stringify(this.modelName)}`;
    const lines = [
      '# HELP vllm:num_requests_running Number of requests in model execution batches.',
      '# TYPE vllm:num_requests_running gauge',
      `vllm:num_requests_running{${labels}} ${this.running.toFixed(1)}`,
      '# HELP vllm:request_success_total Count of successfully processed requests.',
      '# TYPE vllm:request_success_total counter',
      ...Object.entries(this.finished).map(
        ([reason, count]) => `vllm:request_success_total{${labels},finished_reason="${reason}"} ${count.toFixed(1)}`,
      ),
    ];
    return `${lines.join('\n')}\n`;
  }
}
