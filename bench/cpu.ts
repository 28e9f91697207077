import fs from 'node:fs';

/** Linux counts a process's CPU time in clock ticks of 1/100 s (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used, and those of its children it has waited for. */
function processSeconds(pid: number): { own: number; children: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const tick = (index: number) => Number(fields[index]) / TICKS_PER_SECOND;
    // utime, stime, cutime, cstime: fields 14 to 17 of proc(5), 12 to 15 after the name.
    return { own: tick(11) + tick(12), children: tick(13) + tick(14) };
  } catch {
    return { own: 0, children: 0 };
  }
}

/**
 * CPU seconds of the PostgreSQL server on this machine, when it runs here: every `postgres`
 * process, and the backends that have ended (counted in the postmaster's children). 0 when no
 * PostgreSQL process is visible (a server on another machine).
 */
function postgresSeconds(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    let parent: string;
    try {
      comm = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      parent = /PPid:\s+(\d+)/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] ?? '';
    } catch {
      continue;
    }
    if (comm !== 'postgres') continue;
    const seconds = processSeconds(Number(entry));
    total += seconds.own;
    // The postmaster (its parent is not a postgres process) has waited for every ended backend.
    const parentComm = (() => {
      try {
        return fs.readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
      } catch {
        return '';
      }
    })();
    if (parentComm !== 'postgres') total += seconds.children;
  }
  return total;
}

export interface CpuShares {
  /** Wall-clock seconds between start and stop. */
  seconds: number;
  /** CPU seconds used in that time by the servers, this process (the load), and PostgreSQL. */
  servers: number;
  load: number;
  postgres: number;
}

/**
 * Where the machine's CPU goes during a measurement: the servers' processes, this process (the
 * load generator) and the PostgreSQL server, when it runs on this machine.
 */
export function startCpuAccount(serverPids: number[]): { stop(): CpuShares } {
  const serversNow = () => serverPids.reduce((sum, pid) => sum + processSeconds(pid).own, 0);
  const loadNow = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const started = { wall: performance.now(), servers: serversNow(), load: loadNow() };
  const postgresStarted = postgresSeconds();
  return {
    stop() {
      return {
        seconds: (performance.now() - started.wall) / 1000,
        servers: serversNow() - started.servers,
        load: loadNow() - started.load,
        postgres: postgresSeconds() - postgresStarted,
      };
    },
  };
}
