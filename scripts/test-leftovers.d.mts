export interface RunProcess {
  pid: number;
  ppid: number;
  command: string;
}
export function namesDir(text: string, dir: string): boolean;
export function processesNaming(dir: string, exclude?: number[]): RunProcess[];
export function stopProcessesNaming(dir: string, opts?: { graceMs?: number; exclude?: number[] }): Promise<RunProcess[]>;
