// The job-queue port of the services: enqueue a job inside the caller's transaction. The worker layer's
// JobQueue implements it; the composition root attaches the queue once it has started (the queue's job
// handlers need the services, so the services are made first).
import type { Queryable } from '../storage/db.js';

export interface JobSender {
  enqueue(tx: Queryable, name: string, data: object, options?: { singletonKey?: string; startAfter?: Date }): Promise<string | null>;
}

/** A JobSender whose queue is attached after it is made; enqueueing before that is a wiring error. */
export class LateJobSender implements JobSender {
  #queue: JobSender | null = null;

  attach(queue: JobSender): void {
    this.#queue = queue;
  }

  enqueue(tx: Queryable, name: string, data: object, options?: { singletonKey?: string; startAfter?: Date }): Promise<string | null> {
    if (!this.#queue) throw new Error(`No job queue attached: cannot enqueue ${name}`);
    return this.#queue.enqueue(tx, name, data, options);
  }
}
