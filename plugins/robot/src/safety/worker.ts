/**
 * The safety path's worker thread: it opens its own transport connection and runs the
 * {@link SafetyController} on it, with its watchdog every few milliseconds and the drive republished at
 * its rate, on this thread's event loop — so nothing here waits for the runtime's main thread.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { crossThreadNow } from '@mira/core';
import type { RobotTransport } from '../transport.js';
import { SafetyController } from './controller.js';
import type { ConsoleSignal, FromSafety, SafetyTransportContext, SafetyWorkerData, ToSafety } from './protocol.js';

const data = workerData as SafetyWorkerData;
const port = parentPort!;
const post = (message: FromSafety) => port.postMessage(message);
/** How often the watchdog looks: a stall is caught within the stall time plus this. */
const WATCH_MS = 10;

async function main(): Promise<void> {
  let transport: RobotTransport;
  let controller: SafetyController;
  try {
    const module = (await import(data.transport.module)) as Record<
      string,
      (options: unknown, context: SafetyTransportContext) => RobotTransport | Promise<RobotTransport>
    >;
    const factory = module[data.transport.export];
    if (typeof factory !== 'function')
      throw new Error(`${data.transport.module} has no export ${data.transport.export}`);
    transport = await factory(data.transport.options, {
      log: (message) => post({ type: 'log', message: `safety: ${message}` }),
    });
    await transport.connect();
    controller = new SafetyController({
      transport,
      drive: data.drive,
      post,
      now: () => performance.now(),
      wallNow: () => Date.now(),
      askedNow: crossThreadNow,
    });
    controller.start();
  } catch (error) {
    post({ type: 'failed', error: (error as Error).message });
    return;
  }
  const timers = [
    setInterval(() => controller.watch(), WATCH_MS),
    setInterval(() => controller.republish(), 1000 / data.drive.rateHz),
  ];
  port.on('message', (message: ToSafety | { type: 'console'; port: MessagePort }) => {
    if (message.type === 'console') {
      message.port.on('message', (signal: ConsoleSignal) => controller.consoleSignal(signal));
      return;
    }
    if (message.type !== 'close') {
      void controller.onMessage(message);
      return;
    }
    void (async () => {
      for (const timer of timers) clearInterval(timer);
      const delivery = await controller.halt();
      if (!delivery.delivered) post({ type: 'log', message: `safety: shutdown: ${delivery.detail}` });
      controller.dispose();
      await transport.close();
      post({ type: 'reply', id: message.id, ok: true, delivery });
    })();
  });
  post({ type: 'ready' });
}

void main();
