// A test case's store: the in-memory store, fresh per case, that parks runs as a durable one does, so
// a long delay or a wait_for_callback suspends and the harness resumes it in process (./run-case.ts).
// Only the harness makes one: `serve` picks its store in runtime/store/index.ts.
import { MemoryStore } from '../store/memory.ts';

export class CaseStore extends MemoryStore {
  override readonly durable: boolean = true;
}
