/**
 * ibsim's console: commands go into the FIFO that is ibsim's stdin (ibsim holds it O_RDWR so it
 * never sees EOF — at EOF it spins at 100% CPU), and replies land in the file that is its stdout.
 * Any process can drive a running lab this way, not just the one that started it.
 */
import { closeSync, constants, openSync, readSync, statSync, writeSync } from 'node:fs';
import { sleep } from './proc.ts';

/** ibsim reads the console one line at a time, at most 127 characters (`sim_cmd.c`). */
export const CONSOLE_MAX_LINE = 127;

/** A port on the fabric, addressed by node name (ibsim nodeid = NodeDescription) and number. */
export interface PortAddr {
  node: string;
  port: number;
}

/** `"leaf-r0-01"[21]` — the console's port syntax. */
export function consolePort(p: PortAddr): string {
  return `"${p.node}"[${p.port}]`;
}

/** Parses `"leaf-r0-01"[21]`, `leaf-r0-01[21]` or `dgx-0003 mlx5_2[1]` (CLI input). */
export function parsePortAddr(text: string): PortAddr {
  const m = /^\s*"?([^"[\]]+?)"?\s*\[(\d+)\]\s*$/.exec(text);
  if (!m) throw new Error(`not a port address: ${JSON.stringify(text)} (expected "node name"[port])`);
  return { node: m[1], port: Number(m[2]) };
}

/** Serialises console commands of this process (replies are read back by file offset). */
let chain: Promise<unknown> = Promise.resolve();

/** One ibsim console, identified by its FIFO and output file. */
export class IbsimConsole {
  constructor(
    readonly fifo: string,
    readonly outFile: string,
  ) {}

  /**
   * Sends one command and returns ibsim's reply: the text printed after the command up to the
   * next `sim> ` prompt. Throws if ibsim is gone (opening the FIFO non-blocking gives ENXIO when
   * nobody reads it) or no prompt comes within `timeoutMs`.
   */
  send(command: string, timeoutMs = 5000): Promise<string> {
    const run = async (): Promise<string> => {
      if (command.includes('\n') || command.length >= CONSOLE_MAX_LINE) {
        throw new Error(`ibsim console command too long or multi-line (max ${CONSOLE_MAX_LINE - 1} chars): ${command}`);
      }
      const start = statSync(this.outFile).size;
      let fd: number;
      try {
        fd = openSync(this.fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (e) {
        throw new Error(`ibsim console ${this.fifo} not open (is the lab running?): ${(e as Error).message}`);
      }
      try {
        writeSync(fd, command + '\n');
      } finally {
        closeSync(fd);
      }
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = this.readFrom(start);
        const at = text.indexOf('sim> ');
        if (at >= 0) return text.slice(0, at);
        if (Date.now() > deadline) throw new Error(`ibsim console: no reply to "${command}" within ${timeoutMs} ms`);
        await sleep(10);
      }
    };
    const p = chain.then(run, run);
    chain = p.catch(() => undefined);
    return p;
  }

  private readFrom(offset: number): string {
    const size = statSync(this.outFile).size;
    if (size <= offset) return '';
    const buf = Buffer.alloc(size - offset);
    const fd = openSync(this.outFile, 'r');
    try {
      readSync(fd, buf, 0, buf.length, offset);
    } finally {
      closeSync(fd);
    }
    return buf.toString('utf8');
  }
}

/** One line of the console's `Attached` listing. */
export interface AttachedClient {
  /** Client number, for `X <n>`. */
  client: number;
  pid: number;
  /** Node the client attached at. */
  node: string;
  /** True for an SM client (`qp 0 SM`). */
  sm: boolean;
}

/**
 * Parses the `Attached` reply, lines like
 * `Client 0: pid 11296 connected at "dgx-node-001 mlx5_0" ... lid 1, qp 0 SM`.
 */
export function parseAttached(text: string): AttachedClient[] {
  const out: AttachedClient[] = [];
  for (const line of text.split('\n')) {
    const m = /Client\s+(\d+):\s+pid\s+(\d+)\s+connected at\s+"([^"]*)"(.*)$/.exec(line);
    if (m) out.push({ client: Number(m[1]), pid: Number(m[2]), node: m[3], sm: /\bSM\b/.test(m[4]) });
  }
  return out;
}
