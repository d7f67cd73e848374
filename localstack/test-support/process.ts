import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';

/** A local stack running as its own process (`npm run localstack`'s entry point), on a free port. */
export interface StackProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Ends it at once, as a crash or `kill -9` would: no request finishes, no worker stops cleanly. */
  kill(): Promise<void>;
  /** Ends it with SIGTERM (a graceful stop) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `localstack/main.ts` in a child process (node with tsx's loader: one process, so its pid is the
 * stack's) with `env` added to this process's environment, and answers once it listens.
 */
export async function startStackProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<StackProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'localstack/main.ts'], {
    env: { ...process.env, LOCALSTACK_PORT: '0', LOCALSTACK_HOST: '127.0.0.1', LOCAL_DNS_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local stack process did not listen within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local stack process exited (${code}) before listening: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.includes('local stack listening')) return;
      const parsed = JSON.parse(line) as { url?: string };
      if (parsed.url) {
        clearTimeout(timer);
        resolve(parsed.url);
      }
    });
  });
  // Its output is read to the end so that a full pipe never blocks it.
  child.stdout!.resume();
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, pid: child.pid!, child, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

/**
 * The pid, among `pids`, of the process whose TCP socket has local port `port` on this machine (Linux:
 * /proc/net/tcp names the socket's inode, /proc/<pid>/fd the process holding it); undefined if none.
 */
export async function pidOfLocalPort(port: number, pids: number[]): Promise<number | undefined> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local && parseInt(local.split(':').pop()!, 16) === port) inodes.add(fields[9]!);
    }
  }
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return pid;
    }
  }
  return undefined;
}
